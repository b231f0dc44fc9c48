// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-forward-stores{remarks=1}))' -verify-diagnostics | FileCheck %s
// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-forward-stores{keep-stores=1}))' | FileCheck %s --check-prefix=KEEP

// One kernel stores its tile to the arena, the next loads it back into a
// tile laid out the same way: the load goes and the reader computes in the
// writer's tile. No op reads the arena buffer any more: its store, its
// value record and the buffer go too. With keep-stores the store and the
// value stay (the dumps hold every value).
// CHECK-LABEL: emit.program
// CHECK:       %[[T:.*]] = emit.alloc : <lm, 2x16xf32, strides = [64, 4]>
// CHECK-NEXT:  emit.dma %{{.*}} -> %[[T]] : <input
// CHECK-NEXT:  emit.vbini ADD %[[T]], 1.0{{.*}} -> %[[T]]
// CHECK-NEXT:  emit.vbini MUL %[[T]], 2.0{{.*}} -> %[[T]]
// CHECK-NEXT:  emit.dma %[[T]] -> %{{.*}} : <lm, 2x16xf32, strides = [64, 4]> -> <output
// CHECK-NOT:   emit.value
// CHECK-NOT:   arena
// KEEP-LABEL:  emit.program
// KEEP:        emit.dma %{{.*}} -> %{{.*}} : <lm, 2x16xf32, strides = [64, 4]> -> <arena
// KEEP-NEXT:   emit.value %{{.*}} "h" as f32
// KEEP-NOT:    emit.dma %{{.*}} -> %{{.*}} : <arena
// expected-remark @below {{1 of 1 arena loads read a tile still in local memory and are removed (1 tiles taken over, 0 VECTOR copies); 1 arena buffers no op reads are no longer written}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 2x16xf32, strides = [64, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 2x16xf32, strides = [64, 4]>
  %h = emit.alloc : !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  %a = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %in -> %a : !emit.buffer<input, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.vbini ADD %a, 1.0 : f32 -> %a : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %a -> %h : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  emit.value %h "h" as f32 : !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  %b = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %h -> %b : !emit.buffer<arena, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.vbini MUL %b, 2.0 : f32 -> %b : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %b -> %out : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<output, 2x16xf32, strides = [64, 4]>
}

// -----

// The same bytes in another shape: the writer stored one dense row of 32,
// the reader loads 2 rows of 16 into a dense tile. The copies are equal
// byte for byte, so the reader's tile becomes a view of the writer's.
// KEEP-LABEL: emit.program
// CHECK-LABEL: emit.program
// CHECK:       %[[W:.*]] = emit.alloc : <lm, 1x32xf32, strides = [128, 4]>
// CHECK-NEXT:  %[[R:.*]] = emit.view %[[W]][0] : <lm, 1x32xf32, strides = [128, 4]> -> <lm, 2x16xf32, strides = [64, 4]>
// CHECK:       emit.vbini MUL %[[R]], 2.0
// expected-remark @below {{1 of 1 arena loads read a tile still in local memory and are removed (1 tiles taken over, 0 VECTOR copies); 1 arena buffers no op reads are no longer written}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 1x32xf32, strides = [128, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 2x16xf32, strides = [64, 4]>
  %h = emit.alloc : !emit.buffer<arena, 1x32xf32, strides = [128, 4]>
  %a = emit.alloc : !emit.buffer<lm, 1x32xf32, strides = [128, 4]>
  emit.dma %in -> %a : !emit.buffer<input, 1x32xf32, strides = [128, 4]> -> !emit.buffer<lm, 1x32xf32, strides = [128, 4]>
  emit.vbini ADD %a, 1.0 : f32 -> %a : !emit.buffer<lm, 1x32xf32, strides = [128, 4]> -> !emit.buffer<lm, 1x32xf32, strides = [128, 4]>
  emit.dma %a -> %h : !emit.buffer<lm, 1x32xf32, strides = [128, 4]> -> !emit.buffer<arena, 1x32xf32, strides = [128, 4]>
  %hv = emit.view %h[0] : !emit.buffer<arena, 1x32xf32, strides = [128, 4]> -> !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  %b = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %hv -> %b : !emit.buffer<arena, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.vbini MUL %b, 2.0 : f32 -> %b : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %b -> %out : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<output, 2x16xf32, strides = [64, 4]>
}

// -----

// Another row pitch: the reader's tile cannot be the writer's; its rows come
// by one VECTOR copy out of the stored tile, and the arena is not written.
// CHECK-LABEL: emit.program
// CHECK:     %[[W:.*]] = emit.alloc : <lm, 2x16xf32, strides = [64, 4]>
// CHECK:     %[[R:.*]] = emit.alloc : <lm, 2x16xf32, strides = [128, 4]>
// CHECK-DAG: %[[FROM:.*]] = emit.view %[[W]][0] : <lm, 2x16xf32, strides = [64, 4]> -> <lm, 2x16xf32, strides = [64, 4]>
// CHECK-DAG: %[[TO:.*]] = emit.view %[[R]][0] : <lm, 2x16xf32, strides = [128, 4]> -> <lm, 2x16xf32, strides = [128, 4]>
// CHECK:     emit.vun COPY %[[FROM]] -> %[[TO]]
// CHECK-NOT: arena
// expected-remark @below {{1 of 1 arena loads read a tile still in local memory and are removed (0 tiles taken over, 1 VECTOR copies); 1 arena buffers no op reads are no longer written}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 2x16xf32, strides = [64, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 2x16xf32, strides = [64, 4]>
  %h = emit.alloc : !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  %a = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %in -> %a : !emit.buffer<input, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %a -> %h : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  %b = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [128, 4]>
  emit.dma %h -> %b : !emit.buffer<arena, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [128, 4]>
  emit.dma %b -> %out : !emit.buffer<lm, 2x16xf32, strides = [128, 4]> -> !emit.buffer<output, 2x16xf32, strides = [64, 4]>
}

// -----

// Not forwarded: the writer changes its tile after the store (the tile no
// longer holds what the arena does).
// CHECK-LABEL: emit.program
// CHECK: emit.dma %{{.*}} -> %{{.*}} : <arena, 2x16xf32, strides = [64, 4]> -> <lm
// expected-remark @below {{0 of 1 arena loads}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 2x16xf32, strides = [64, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 2x16xf32, strides = [64, 4]>
  %out2 = emit.alloc {name = "z", offset = 0} : !emit.buffer<output, 2x16xf32, strides = [64, 4]>
  %h = emit.alloc : !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  %a = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %in -> %a : !emit.buffer<input, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %a -> %h : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  emit.vbini ADD %a, 1.0 : f32 -> %a : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %a -> %out2 : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<output, 2x16xf32, strides = [64, 4]>
  %b = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %h -> %b : !emit.buffer<arena, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %b -> %out : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<output, 2x16xf32, strides = [64, 4]>
}

// -----

// Two readers: the first gets its rows by a VECTOR copy (it changes its
// tile, the second needs the value as stored); the last takes the tile over.
// CHECK-LABEL: emit.program
// CHECK:     %[[W:.*]] = emit.alloc : <lm, 2x16xf32, strides = [64, 4]>
// CHECK:     emit.vun COPY
// CHECK:     emit.vbini ADD
// CHECK:     emit.dma %[[W]] -> %{{.*}} : <lm, 2x16xf32, strides = [64, 4]> -> <output
// CHECK-NOT: arena
// expected-remark @below {{2 of 2 arena loads read a tile still in local memory and are removed (1 tiles taken over, 1 VECTOR copies); 1 arena buffers no op reads are no longer written}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 2x16xf32, strides = [64, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 2x16xf32, strides = [64, 4]>
  %out2 = emit.alloc {name = "z", offset = 0} : !emit.buffer<output, 2x16xf32, strides = [64, 4]>
  %h = emit.alloc : !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  %a = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %in -> %a : !emit.buffer<input, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %a -> %h : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  %b = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %h -> %b : !emit.buffer<arena, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.vbini ADD %b, 1.0 : f32 -> %b : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %b -> %out : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<output, 2x16xf32, strides = [64, 4]>
  %c = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %h -> %c : !emit.buffer<arena, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %c -> %out2 : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<output, 2x16xf32, strides = [64, 4]>
}

// -----

// Not forwarded: another op writes part of the arena bytes between the
// store and the load; and a padded load (its pads are not in the stored
// tile).
// CHECK-LABEL: emit.program
// CHECK: emit.dma %{{.*}} -> %{{.*}} : <arena, 2x16xf32, strides = [64, 4]> -> <lm
// CHECK: emit.dma %{{.*}} -> %{{.*}} {pad_hi = array<i64: 0, 0>, pad_lo = array<i64: 1, 0>}
// expected-remark @below {{0 of 1 arena loads read a tile still in local memory and are removed (0 tiles taken over, 0 VECTOR copies); 0 arena buffers no op reads are no longer written}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 2x16xf32, strides = [64, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 2x16xf32, strides = [64, 4]>
  %out2 = emit.alloc {name = "z", offset = 0} : !emit.buffer<output, 3x16xf32, strides = [64, 4]>
  %h = emit.alloc : !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  %a = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %in -> %a : !emit.buffer<input, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %a -> %h : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  %r = emit.view %a[0] : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  %hr = emit.view %h[64] : !emit.buffer<arena, 2x16xf32, strides = [64, 4]> -> !emit.buffer<arena, 1x16xf32, strides = [64, 4]>
  emit.dma %r -> %hr : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<arena, 1x16xf32, strides = [64, 4]>
  %b = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %h -> %b : !emit.buffer<arena, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %b -> %out : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<output, 2x16xf32, strides = [64, 4]>
  %g = emit.alloc : !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  emit.dma %b -> %g : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  %c = emit.alloc : !emit.buffer<lm, 3x16xf32, strides = [64, 4]>
  emit.dma %g -> %c {pad_lo = array<i64: 1, 0>, pad_hi = array<i64: 0, 0>} : !emit.buffer<arena, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 3x16xf32, strides = [64, 4]>
  emit.dma %c -> %out2 : !emit.buffer<lm, 3x16xf32, strides = [64, 4]> -> !emit.buffer<output, 3x16xf32, strides = [64, 4]>
}

// -----

// Not forwarded: the writer's tile would stay live across the 56 KiB buffer
// the kernel between them uses, 104 KiB of npu-v1-tiny's 128 KiB of LM live
// at once, past the three quarters a hand-on may take (placement needs room
// for alignment and fragmentation).
// CHECK-LABEL: emit.program
// CHECK: emit.dma %{{.*}} -> %{{.*}} : <arena, 768x64xi8, strides = [64, 1]> -> <lm
// expected-remark @below {{0 of 1 arena loads}}
emit.program target "npu-v1-tiny" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 768x64xi8, strides = [64, 1]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 768x64xi8, strides = [64, 1]>
  %out2 = emit.alloc {name = "z", offset = 0} : !emit.buffer<output, 896x64xi8, strides = [64, 1]>
  %h = emit.alloc : !emit.buffer<arena, 768x64xi8, strides = [64, 1]>
  %a = emit.alloc : !emit.buffer<lm, 768x64xi8, strides = [64, 1]>
  emit.dma %in -> %a : !emit.buffer<input, 768x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 768x64xi8, strides = [64, 1]>
  emit.dma %a -> %h : !emit.buffer<lm, 768x64xi8, strides = [64, 1]> -> !emit.buffer<arena, 768x64xi8, strides = [64, 1]>
  %big = emit.alloc : !emit.buffer<lm, 896x64xi8, strides = [64, 1]>
  emit.vun NEG %big -> %big : !emit.buffer<lm, 896x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 896x64xi8, strides = [64, 1]>
  emit.dma %big -> %out2 : !emit.buffer<lm, 896x64xi8, strides = [64, 1]> -> !emit.buffer<output, 896x64xi8, strides = [64, 1]>
  %b = emit.alloc : !emit.buffer<lm, 768x64xi8, strides = [64, 1]>
  emit.dma %h -> %b : !emit.buffer<arena, 768x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 768x64xi8, strides = [64, 1]>
  emit.dma %b -> %out : !emit.buffer<lm, 768x64xi8, strides = [64, 1]> -> !emit.buffer<output, 768x64xi8, strides = [64, 1]>
}

// -----

// One reader loads the tile twice: it cannot take the tile over (a later
// load reads it, and then its own buffer is in use), so both loads become
// VECTOR copies.
// CHECK-LABEL: emit.program
// CHECK-COUNT-2: emit.vun COPY
// CHECK-NOT: emit.dma %{{.*}} -> %{{.*}} : <arena
// expected-remark @below {{2 of 2 arena loads read a tile still in local memory and are removed (0 tiles taken over, 2 VECTOR copies); 1 arena buffers no op reads are no longer written}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 2x16xf32, strides = [64, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 2x16xf32, strides = [64, 4]>
  %h = emit.alloc : !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  %a = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %in -> %a : !emit.buffer<input, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %a -> %h : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<arena, 2x16xf32, strides = [64, 4]>
  %b = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  %acc = emit.alloc : !emit.buffer<acc, 2x16xf32, strides = [64, 4]>
  emit.dma %h -> %b : !emit.buffer<arena, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.vbini MUL %b, 2.0 : f32 -> %acc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<acc, 2x16xf32, strides = [64, 4]>
  emit.dma %h -> %b : !emit.buffer<arena, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.vbin ADD %b, %acc -> %acc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>, !emit.buffer<acc, 2x16xf32, strides = [64, 4]> -> !emit.buffer<acc, 2x16xf32, strides = [64, 4]>
  emit.dma %acc -> %out : !emit.buffer<acc, 2x16xf32, strides = [64, 4]> -> !emit.buffer<output, 2x16xf32, strides = [64, 4]>
}

// -----

// A product's result still in ACC, read back as two 24-wide slices (an LSTM's
// gates): each slice is one VECTOR copy out of the ACC tile, at its offset.
// CHECK-LABEL: emit.program
// CHECK:     %[[C:.*]] = emit.alloc : <acc, 1x96xf32, strides = [384, 4]>
// CHECK:     emit.view %[[C]][96] : <acc, 1x96xf32, strides = [384, 4]> -> <acc, 1x24xf32, strides = [96, 4]>
// CHECK:     emit.vun COPY
// CHECK:     emit.view %[[C]][192] : <acc, 1x96xf32, strides = [384, 4]> -> <acc, 1x24xf32, strides = [96, 4]>
// CHECK:     emit.vun COPY
// CHECK-NOT: arena
// expected-remark @below {{2 of 2 arena loads read a tile still in local memory and are removed (0 tiles taken over, 2 VECTOR copies); 1 arena buffers no op reads are no longer written}}
emit.program target "npu-v1" {
  %x = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 1x24xf32, strides = [96, 4]>
  %w = emit.constant dense<1.0> : tensor<24x96xf32> : !emit.buffer<const, 24x96xf32, strides = [384, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 2x24xf32, strides = [96, 4]>
  %g = emit.alloc : !emit.buffer<arena, 1x96xf32, strides = [384, 4]>
  %a = emit.alloc : !emit.buffer<lm, 1x24xf32, strides = [128, 4]>
  %b = emit.alloc : !emit.buffer<lm, 24x96xf32, strides = [384, 4]>
  %c = emit.alloc : !emit.buffer<acc, 1x96xf32, strides = [384, 4]>
  emit.dma %x -> %a : !emit.buffer<input, 1x24xf32, strides = [96, 4]> -> !emit.buffer<lm, 1x24xf32, strides = [128, 4]>
  emit.dma %w -> %b : !emit.buffer<const, 24x96xf32, strides = [384, 4]> -> !emit.buffer<lm, 24x96xf32, strides = [384, 4]>
  emit.matmul %a, %b -> %c : !emit.buffer<lm, 1x24xf32, strides = [128, 4]>, !emit.buffer<lm, 24x96xf32, strides = [384, 4]> -> !emit.buffer<acc, 1x96xf32, strides = [384, 4]>
  emit.dma %c -> %g : !emit.buffer<acc, 1x96xf32, strides = [384, 4]> -> !emit.buffer<arena, 1x96xf32, strides = [384, 4]>
  %s1 = emit.view %g[96] : !emit.buffer<arena, 1x96xf32, strides = [384, 4]> -> !emit.buffer<arena, 1x24xf32, strides = [384, 4]>
  %t1 = emit.alloc : !emit.buffer<lm, 1x24xf32, strides = [96, 4]>
  emit.dma %s1 -> %t1 : !emit.buffer<arena, 1x24xf32, strides = [384, 4]> -> !emit.buffer<lm, 1x24xf32, strides = [96, 4]>
  %s2 = emit.view %g[192] : !emit.buffer<arena, 1x96xf32, strides = [384, 4]> -> !emit.buffer<arena, 1x24xf32, strides = [384, 4]>
  %t2 = emit.alloc : !emit.buffer<lm, 1x24xf32, strides = [96, 4]>
  emit.dma %s2 -> %t2 : !emit.buffer<arena, 1x24xf32, strides = [384, 4]> -> !emit.buffer<lm, 1x24xf32, strides = [96, 4]>
  emit.vbin MUL %t1, %t2 -> %t1 : !emit.buffer<lm, 1x24xf32, strides = [96, 4]>, !emit.buffer<lm, 1x24xf32, strides = [96, 4]> -> !emit.buffer<lm, 1x24xf32, strides = [96, 4]>
  %o = emit.view %out[0] : !emit.buffer<output, 2x24xf32, strides = [96, 4]> -> !emit.buffer<output, 1x24xf32, strides = [96, 4]>
  emit.dma %t1 -> %o : !emit.buffer<lm, 1x24xf32, strides = [96, 4]> -> !emit.buffer<output, 1x24xf32, strides = [96, 4]>
}
