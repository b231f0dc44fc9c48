// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-resident-values{remarks=1}))' -verify-diagnostics | FileCheck %s
// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-resident-values{keep-stores=1}))' | FileCheck %s --check-prefix=KEEP

// Kernel k1 stores its result in two row tiles, kernel k2 loads it back in
// two column tiles: no tile is still in local memory when it is read, so
// emit-forward-stores left both trips through GM. The value lives in LM
// whole instead, laid out as in the arena, and each DMA is a VECTOR copy of
// the same bytes; the arena buffer and its value record go. Each store's
// copy moves down past k1's ops that neither write its tile nor touch its
// bytes (the second tile's load and compute), so VECTOR computes the next
// tile before copying this one out. With keep-stores nothing changes.
// CHECK-LABEL: emit.program
// CHECK-NOT:   arena
// CHECK:       %[[A:.*]] = emit.alloc : <lm, 2x64xi8, strides = [64, 1]>
// CHECK:       %[[B:.*]] = emit.alloc : <lm, 2x64xi8, strides = [64, 1]>
// CHECK:       emit.vbini ADD %[[A]], 1
// CHECK:       %[[R:.*]] = emit.alloc : <lm, 4x64xi8, strides = [64, 1]>
// CHECK:       %[[R0:.*]] = emit.view %[[R]][0] : <lm, 4x64xi8, strides = [64, 1]> -> <lm, 1x128xi8, strides = [128, 1]>
// CHECK:       %[[A0:.*]] = emit.view %[[A]][0] : <lm, 2x64xi8, strides = [64, 1]> -> <lm, 1x128xi8, strides = [128, 1]>
// CHECK:       emit.dma %{{.*}} -> %[[B]]
// CHECK:       emit.vbini ADD %[[B]], 1
// CHECK:       %[[R1:.*]] = emit.view %[[R]][128] : <lm, 4x64xi8, strides = [64, 1]> -> <lm, 1x128xi8, strides = [128, 1]>
// CHECK:       %[[B0:.*]] = emit.view %[[B]][0]
// CHECK:       emit.vun COPY %[[A0]] -> %[[R0]]
// CHECK-NEXT:  emit.vun COPY %[[B0]] -> %[[R1]]
// CHECK:       %[[C:.*]] = emit.alloc : <lm, 4x32xi8, strides = [32, 1]>
// CHECK:       %[[RL:.*]] = emit.view %[[R]][0] : <lm, 4x64xi8, strides = [64, 1]> -> <lm, 4x32xi8, strides = [64, 1]>
// CHECK:       %[[CL:.*]] = emit.view %[[C]][0] : <lm, 4x32xi8, strides = [32, 1]> -> <lm, 4x32xi8, strides = [32, 1]>
// CHECK-NEXT:  emit.vun COPY %[[RL]] -> %[[CL]]
// CHECK-NEXT:  emit.vbini MUL %[[C]], 2
// CHECK:       %[[RR:.*]] = emit.view %[[R]][32] : <lm, 4x64xi8, strides = [64, 1]> -> <lm, 4x32xi8, strides = [64, 1]>
// CHECK:       emit.vun COPY %[[RR]] -> %{{.*}} : <lm, 4x32xi8, strides = [64, 1]> -> <lm, 4x32xi8, strides = [32, 1]>
// CHECK-NOT:   emit.value
// CHECK-NOT:   arena
// KEEP-LABEL:  emit.program
// KEEP:        %[[H:.*]] = emit.alloc : <arena, 4x64xi8
// KEEP-COUNT-4: emit.dma
// KEEP:        emit.value %[[H]] "h"
// KEEP-NOT:    emit.vun
// expected-remark @below {{1 of 1 arena values kept in LM whole (256 bytes; 4 DMAs now 4 VECTOR copies)}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x64xi8, strides = [64, 1]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 4x64xi8, strides = [64, 1]>
  %h = emit.alloc : !emit.buffer<arena, 4x64xi8, strides = [64, 1]>
  %a = emit.alloc : !emit.buffer<lm, 2x64xi8, strides = [64, 1]>
  %b = emit.alloc : !emit.buffer<lm, 2x64xi8, strides = [64, 1]>
  %in0 = emit.view %in[0] : !emit.buffer<input, 4x64xi8, strides = [64, 1]> -> !emit.buffer<input, 2x64xi8, strides = [64, 1]>
  %in1 = emit.view %in[128] : !emit.buffer<input, 4x64xi8, strides = [64, 1]> -> !emit.buffer<input, 2x64xi8, strides = [64, 1]>
  %h0 = emit.view %h[0] : !emit.buffer<arena, 4x64xi8, strides = [64, 1]> -> !emit.buffer<arena, 2x64xi8, strides = [64, 1]>
  %h1 = emit.view %h[128] : !emit.buffer<arena, 4x64xi8, strides = [64, 1]> -> !emit.buffer<arena, 2x64xi8, strides = [64, 1]>
  emit.dma %in0 -> %a : !emit.buffer<input, 2x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 2x64xi8, strides = [64, 1]> loc("k1")
  emit.vbini ADD %a, 1 : i32 -> %a : !emit.buffer<lm, 2x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 2x64xi8, strides = [64, 1]> loc("k1")
  emit.dma %a -> %h0 : !emit.buffer<lm, 2x64xi8, strides = [64, 1]> -> !emit.buffer<arena, 2x64xi8, strides = [64, 1]> loc("k1")
  emit.dma %in1 -> %b : !emit.buffer<input, 2x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 2x64xi8, strides = [64, 1]> loc("k1")
  emit.vbini ADD %b, 1 : i32 -> %b : !emit.buffer<lm, 2x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 2x64xi8, strides = [64, 1]> loc("k1")
  emit.dma %b -> %h1 : !emit.buffer<lm, 2x64xi8, strides = [64, 1]> -> !emit.buffer<arena, 2x64xi8, strides = [64, 1]> loc("k1")
  emit.value %h "h" as i8 : !emit.buffer<arena, 4x64xi8, strides = [64, 1]>
  %c = emit.alloc : !emit.buffer<lm, 4x32xi8, strides = [32, 1]>
  %hl = emit.view %h[0] : !emit.buffer<arena, 4x64xi8, strides = [64, 1]> -> !emit.buffer<arena, 4x32xi8, strides = [64, 1]>
  %hr = emit.view %h[32] : !emit.buffer<arena, 4x64xi8, strides = [64, 1]> -> !emit.buffer<arena, 4x32xi8, strides = [64, 1]>
  %ol = emit.view %out[0] : !emit.buffer<output, 4x64xi8, strides = [64, 1]> -> !emit.buffer<output, 4x32xi8, strides = [64, 1]>
  %or = emit.view %out[32] : !emit.buffer<output, 4x64xi8, strides = [64, 1]> -> !emit.buffer<output, 4x32xi8, strides = [64, 1]>
  emit.dma %hl -> %c : !emit.buffer<arena, 4x32xi8, strides = [64, 1]> -> !emit.buffer<lm, 4x32xi8, strides = [32, 1]> loc("k2")
  emit.vbini MUL %c, 2 : i32 -> %c : !emit.buffer<lm, 4x32xi8, strides = [32, 1]> -> !emit.buffer<lm, 4x32xi8, strides = [32, 1]> loc("k2")
  emit.dma %c -> %ol : !emit.buffer<lm, 4x32xi8, strides = [32, 1]> -> !emit.buffer<output, 4x32xi8, strides = [64, 1]> loc("k2")
  emit.dma %hr -> %c : !emit.buffer<arena, 4x32xi8, strides = [64, 1]> -> !emit.buffer<lm, 4x32xi8, strides = [32, 1]> loc("k2")
  emit.vbini MUL %c, 2 : i32 -> %c : !emit.buffer<lm, 4x32xi8, strides = [32, 1]> -> !emit.buffer<lm, 4x32xi8, strides = [32, 1]> loc("k2")
  emit.dma %c -> %or : !emit.buffer<lm, 4x32xi8, strides = [32, 1]> -> !emit.buffer<output, 4x32xi8, strides = [64, 1]> loc("k2")
}

// -----

// A load that pads its tile (a depthwise convolution's input rows) writes
// bytes no copy of the value holds: the value stays in GM.
// CHECK-LABEL: emit.program
// CHECK:       emit.alloc : <arena, 4x64xi8
// CHECK-NOT:   emit.vun
// expected-remark @below {{0 of 1 arena values kept in LM whole (0 bytes; 0 DMAs now 0 VECTOR copies); 1 left in GM for a load that pads its tile}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x64xi8, strides = [64, 1]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 6x66xi8, strides = [66, 1]>
  %h = emit.alloc : !emit.buffer<arena, 4x64xi8, strides = [64, 1]>
  %a = emit.alloc : !emit.buffer<lm, 4x64xi8, strides = [64, 1]>
  emit.dma %in -> %a : !emit.buffer<input, 4x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 4x64xi8, strides = [64, 1]>
  emit.dma %a -> %h : !emit.buffer<lm, 4x64xi8, strides = [64, 1]> -> !emit.buffer<arena, 4x64xi8, strides = [64, 1]>
  %p = emit.alloc : !emit.buffer<lm, 6x66xi8, strides = [66, 1]>
  emit.dma %h -> %p {fill = 0 : i64, pad_lo = array<i64: 1, 1>, pad_hi = array<i64: 1, 1>} : !emit.buffer<arena, 4x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 6x66xi8, strides = [66, 1]>
  emit.dma %p -> %out : !emit.buffer<lm, 6x66xi8, strides = [66, 1]> -> !emit.buffer<output, 6x66xi8, strides = [66, 1]>
}

// -----

// Rows 48 bytes apart: a VECTOR operand's rows start at multiples of 32
// bytes, so the load's rows cannot be copied and the value stays in GM.
// CHECK-LABEL: emit.program
// CHECK:       emit.alloc : <arena, 4x48xi8
// CHECK-NOT:   emit.vun
// expected-remark @below {{0 of 1 arena values kept in LM whole (0 bytes; 0 DMAs now 0 VECTOR copies); 1 left in GM for a copy not VECTOR-aligned}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x48xi8, strides = [48, 1]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 4x32xi8, strides = [32, 1]>
  %h = emit.alloc : !emit.buffer<arena, 4x48xi8, strides = [48, 1]>
  %a = emit.alloc : !emit.buffer<lm, 4x48xi8, strides = [48, 1]>
  emit.dma %in -> %a : !emit.buffer<input, 4x48xi8, strides = [48, 1]> -> !emit.buffer<lm, 4x48xi8, strides = [48, 1]>
  emit.dma %a -> %h : !emit.buffer<lm, 4x48xi8, strides = [48, 1]> -> !emit.buffer<arena, 4x48xi8, strides = [48, 1]>
  %hv = emit.view %h[0] : !emit.buffer<arena, 4x48xi8, strides = [48, 1]> -> !emit.buffer<arena, 4x32xi8, strides = [48, 1]>
  %b = emit.alloc : !emit.buffer<lm, 4x32xi8, strides = [32, 1]>
  emit.dma %hv -> %b : !emit.buffer<arena, 4x32xi8, strides = [48, 1]> -> !emit.buffer<lm, 4x32xi8, strides = [32, 1]>
  emit.dma %b -> %out : !emit.buffer<lm, 4x32xi8, strides = [32, 1]> -> !emit.buffer<output, 4x32xi8, strides = [32, 1]>
}

// -----

// A value loaded into ACC (a product's bias, say) is not a tile's load into
// LM: the value stays in GM. So does one larger than half of LM.
// CHECK-LABEL: emit.program
// CHECK-NOT:   emit.vun
// expected-remark @below {{0 of 2 arena values kept in LM whole (0 bytes; 0 DMAs now 0 VECTOR copies); 1 left in GM for a DMA that is not a tile's store or load; 1 left in GM for a value larger than half of LM}}
emit.program target "npu-v1-tiny" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x16xi32, strides = [64, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 4x16xi32, strides = [64, 4]>
  %h = emit.alloc : !emit.buffer<arena, 4x16xi32, strides = [64, 4]>
  %big = emit.alloc : !emit.buffer<arena, 2x8200xi32, strides = [32800, 4]>
  %a = emit.alloc : !emit.buffer<lm, 4x16xi32, strides = [64, 4]>
  emit.dma %in -> %a : !emit.buffer<input, 4x16xi32, strides = [64, 4]> -> !emit.buffer<lm, 4x16xi32, strides = [64, 4]>
  emit.dma %a -> %h : !emit.buffer<lm, 4x16xi32, strides = [64, 4]> -> !emit.buffer<arena, 4x16xi32, strides = [64, 4]>
  %bv = emit.view %big[0] : !emit.buffer<arena, 2x8200xi32, strides = [32800, 4]> -> !emit.buffer<arena, 4x16xi32, strides = [64, 4]>
  emit.dma %a -> %bv : !emit.buffer<lm, 4x16xi32, strides = [64, 4]> -> !emit.buffer<arena, 4x16xi32, strides = [64, 4]>
  %acc = emit.alloc : !emit.buffer<acc, 4x16xi32, strides = [64, 4]>
  emit.dma %h -> %acc : !emit.buffer<arena, 4x16xi32, strides = [64, 4]> -> !emit.buffer<acc, 4x16xi32, strides = [64, 4]>
  emit.dma %acc -> %out : !emit.buffer<acc, 4x16xi32, strides = [64, 4]> -> !emit.buffer<output, 4x16xi32, strides = [64, 4]>
}

// -----

// The value fits the live-bytes estimate (40 kB live beside its 50 kB, under
// three quarters of npu-v1-tiny's 128 kB) but not LM's placement: the tile
// that ended before it leaves a hole of 40 kB below the live one, 48 kB
// above it. The value is given back to GM and nothing of it is left.
// CHECK-LABEL: emit.program
// CHECK:       emit.alloc : <arena, 1x51200xi8
// CHECK-NOT:   emit.vun
// CHECK-NOT:   emit.alloc : <lm, 1x51200xi8
// expected-remark @below {{0 of 1 arena values kept in LM whole (0 bytes; 0 DMAs now 0 VECTOR copies); 1 given back to GM for the placement of LM and ACC to fit}}
emit.program target "npu-v1-tiny" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 1x40960xi8, strides = [40960, 1]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 1x40960xi8, strides = [40960, 1]>
  %h = emit.alloc : !emit.buffer<arena, 1x51200xi8, strides = [51200, 1]>
  %t1 = emit.alloc : !emit.buffer<lm, 1x40960xi8, strides = [40960, 1]>
  %t2 = emit.alloc : !emit.buffer<lm, 1x40960xi8, strides = [40960, 1]>
  emit.dma %in -> %t1 : !emit.buffer<input, 1x40960xi8, strides = [40960, 1]> -> !emit.buffer<lm, 1x40960xi8, strides = [40960, 1]>
  emit.dma %in -> %t2 : !emit.buffer<input, 1x40960xi8, strides = [40960, 1]> -> !emit.buffer<lm, 1x40960xi8, strides = [40960, 1]>
  emit.vbini ADD %t1, 1 : i32 -> %t1 : !emit.buffer<lm, 1x40960xi8, strides = [40960, 1]> -> !emit.buffer<lm, 1x40960xi8, strides = [40960, 1]>
  %hv = emit.view %h[0] : !emit.buffer<arena, 1x51200xi8, strides = [51200, 1]> -> !emit.buffer<arena, 1x40960xi8, strides = [40960, 1]>
  emit.dma %t2 -> %hv : !emit.buffer<lm, 1x40960xi8, strides = [40960, 1]> -> !emit.buffer<arena, 1x40960xi8, strides = [40960, 1]>
  emit.vbini ADD %t2, 1 : i32 -> %t2 : !emit.buffer<lm, 1x40960xi8, strides = [40960, 1]> -> !emit.buffer<lm, 1x40960xi8, strides = [40960, 1]>
  emit.dma %hv -> %t2 : !emit.buffer<arena, 1x40960xi8, strides = [40960, 1]> -> !emit.buffer<lm, 1x40960xi8, strides = [40960, 1]>
  emit.dma %t2 -> %out : !emit.buffer<lm, 1x40960xi8, strides = [40960, 1]> -> !emit.buffer<output, 1x40960xi8, strides = [40960, 1]>
}

// -----

// A head transpose: the reader loads the value's two column halves, one
// after the other, into one tile ([2][4][32] from rows of 64). The copy has
// three dimensions; VECTOR copies rows along the longest (4 rows) once per
// index of the other: two copies.
// CHECK-LABEL: emit.program
// CHECK:       emit.dma %{{.*}} -> %{{.*}} : <input, 4x64xi8
// CHECK-NEXT:  %[[R:.*]] = emit.alloc : <lm, 4x64xi8, strides = [64, 1]>
// CHECK:       emit.vun COPY %{{.*}} -> %{{.*}} : <lm, 1x256xi8, strides = [256, 1]> -> <lm, 1x256xi8, strides = [256, 1]>
// CHECK:       %[[T:.*]] = emit.alloc : <lm, 2x4x32xi8, strides = [128, 32, 1]>
// CHECK:       %[[R0:.*]] = emit.view %[[R]][0] : <lm, 4x64xi8, strides = [64, 1]> -> <lm, 4x32xi8, strides = [64, 1]>
// CHECK:       %[[T0:.*]] = emit.view %[[T]][0] : <lm, 2x4x32xi8, strides = [128, 32, 1]> -> <lm, 4x32xi8, strides = [32, 1]>
// CHECK:       emit.vun COPY %[[R0]] -> %[[T0]]
// CHECK:       %[[R1:.*]] = emit.view %[[R]][32] : <lm, 4x64xi8, strides = [64, 1]> -> <lm, 4x32xi8, strides = [64, 1]>
// CHECK:       %[[T1:.*]] = emit.view %[[T]][128] : <lm, 2x4x32xi8, strides = [128, 32, 1]> -> <lm, 4x32xi8, strides = [32, 1]>
// CHECK:       emit.vun COPY %[[R1]] -> %[[T1]]
// CHECK-NOT:   arena
// expected-remark @below {{1 of 1 arena values kept in LM whole (256 bytes; 2 DMAs now 3 VECTOR copies)}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x64xi8, strides = [64, 1]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 2x4x32xi8, strides = [128, 32, 1]>
  %h = emit.alloc : !emit.buffer<arena, 4x64xi8, strides = [64, 1]>
  %a = emit.alloc : !emit.buffer<lm, 4x64xi8, strides = [64, 1]>
  emit.dma %in -> %a : !emit.buffer<input, 4x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 4x64xi8, strides = [64, 1]>
  emit.dma %a -> %h : !emit.buffer<lm, 4x64xi8, strides = [64, 1]> -> !emit.buffer<arena, 4x64xi8, strides = [64, 1]>
  %t = emit.alloc : !emit.buffer<lm, 2x4x32xi8, strides = [128, 32, 1]>
  %hv = emit.view %h[0] : !emit.buffer<arena, 4x64xi8, strides = [64, 1]> -> !emit.buffer<arena, 2x4x32xi8, strides = [32, 64, 1]>
  emit.dma %hv -> %t : !emit.buffer<arena, 2x4x32xi8, strides = [32, 64, 1]> -> !emit.buffer<lm, 2x4x32xi8, strides = [128, 32, 1]>
  emit.dma %t -> %out : !emit.buffer<lm, 2x4x32xi8, strides = [128, 32, 1]> -> !emit.buffer<output, 2x4x32xi8, strides = [128, 32, 1]>
}

// -----

// Rows of 48 bytes (a 28x28 map's plane of 784 in a CNN): the arena's
// layout puts every other row off VECTOR's 32-byte alignment, but both tiles
// hold the rows at a pitch of 64. The value lives in LM with its rows at a
// pitch of 64 (at most half again its bytes), and each copy maps the arena
// rows to those.
// CHECK-LABEL: emit.program
// CHECK:       emit.dma %{{.*}} -> %{{.*}} : <input, 4x48xi8
// CHECK-NEXT:  %[[R:.*]] = emit.alloc : <lm, 4x48xi8, strides = [64, 1]>
// CHECK:       emit.vun COPY %{{.*}} -> %{{.*}} : <lm, 4x48xi8, strides = [64, 1]> -> <lm, 4x48xi8, strides = [64, 1]>
// CHECK:       %[[R2:.*]] = emit.view %[[R]][128] : <lm, 4x48xi8, strides = [64, 1]> -> <lm, 2x48xi8, strides = [64, 1]>
// CHECK:       emit.vun COPY %[[R2]] -> %{{.*}} : <lm, 2x48xi8, strides = [64, 1]> -> <lm, 2x48xi8, strides = [64, 1]>
// CHECK-NOT:   arena
// expected-remark @below {{1 of 1 arena values kept in LM whole (240 bytes; 2 DMAs now 2 VECTOR copies)}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x48xi8, strides = [48, 1]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 2x48xi8, strides = [48, 1]>
  %h = emit.alloc : !emit.buffer<arena, 4x48xi8, strides = [48, 1]>
  %a = emit.alloc : !emit.buffer<lm, 4x48xi8, strides = [64, 1]>
  emit.dma %in -> %a : !emit.buffer<input, 4x48xi8, strides = [48, 1]> -> !emit.buffer<lm, 4x48xi8, strides = [64, 1]>
  emit.dma %a -> %h : !emit.buffer<lm, 4x48xi8, strides = [64, 1]> -> !emit.buffer<arena, 4x48xi8, strides = [48, 1]>
  %hv = emit.view %h[96] : !emit.buffer<arena, 4x48xi8, strides = [48, 1]> -> !emit.buffer<arena, 2x48xi8, strides = [48, 1]>
  %b = emit.alloc : !emit.buffer<lm, 2x48xi8, strides = [64, 1]>
  emit.dma %hv -> %b : !emit.buffer<arena, 2x48xi8, strides = [48, 1]> -> !emit.buffer<lm, 2x48xi8, strides = [64, 1]>
  emit.dma %b -> %out : !emit.buffer<lm, 2x48xi8, strides = [64, 1]> -> !emit.buffer<output, 2x48xi8, strides = [48, 1]>
}

// -----

// Rows of 40 bytes take a pitch of 64, more than half again their bytes:
// a value that stays small (at most 4096 bytes so laid out) is kept so all
// the same (a span of 232 bytes here).
// CHECK-LABEL: emit.program
// CHECK:       emit.alloc : <lm, 4x40xi8, strides = [64, 1]>
// CHECK:       emit.vun COPY
// expected-remark @below {{1 of 1 arena values kept in LM whole (232 bytes; 2 DMAs now 2 VECTOR copies)}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x40xi8, strides = [40, 1]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 4x40xi8, strides = [40, 1]>
  %h = emit.alloc : !emit.buffer<arena, 4x40xi8, strides = [40, 1]>
  %a = emit.alloc : !emit.buffer<lm, 4x40xi8, strides = [64, 1]>
  emit.dma %in -> %a : !emit.buffer<input, 4x40xi8, strides = [40, 1]> -> !emit.buffer<lm, 4x40xi8, strides = [64, 1]>
  emit.dma %a -> %h : !emit.buffer<lm, 4x40xi8, strides = [64, 1]> -> !emit.buffer<arena, 4x40xi8, strides = [40, 1]>
  %b = emit.alloc : !emit.buffer<lm, 4x40xi8, strides = [64, 1]>
  emit.dma %h -> %b : !emit.buffer<arena, 4x40xi8, strides = [40, 1]> -> !emit.buffer<lm, 4x40xi8, strides = [64, 1]>
  emit.dma %b -> %out : !emit.buffer<lm, 4x40xi8, strides = [64, 1]> -> !emit.buffer<output, 4x40xi8, strides = [40, 1]>
}

// -----

// The same rows in a value of 128 of them (8192 bytes at a pitch of 64):
// more than half again its bytes, not small: it stays in GM, for the
// arena layout's reason.
// CHECK-LABEL: emit.program
// CHECK-NOT:   emit.vun
// expected-remark @below {{0 of 1 arena values kept in LM whole (0 bytes; 0 DMAs now 0 VECTOR copies); 1 left in GM for a copy not VECTOR-aligned}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 128x40xi8, strides = [40, 1]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 128x40xi8, strides = [40, 1]>
  %h = emit.alloc : !emit.buffer<arena, 128x40xi8, strides = [40, 1]>
  %a = emit.alloc : !emit.buffer<lm, 128x40xi8, strides = [64, 1]>
  emit.dma %in -> %a : !emit.buffer<input, 128x40xi8, strides = [40, 1]> -> !emit.buffer<lm, 128x40xi8, strides = [64, 1]>
  emit.dma %a -> %h : !emit.buffer<lm, 128x40xi8, strides = [64, 1]> -> !emit.buffer<arena, 128x40xi8, strides = [40, 1]>
  %b = emit.alloc : !emit.buffer<lm, 128x40xi8, strides = [64, 1]>
  emit.dma %h -> %b : !emit.buffer<arena, 128x40xi8, strides = [40, 1]> -> !emit.buffer<lm, 128x40xi8, strides = [64, 1]>
  emit.dma %b -> %out : !emit.buffer<lm, 128x40xi8, strides = [64, 1]> -> !emit.buffer<output, 128x40xi8, strides = [40, 1]>
}

// -----

// A store out of an accumulator tile: its copy stays where the DMA was
// (moved down, it would hold the tile in ACC longer, and ACC is small;
// dynamic_matmul of benchmarks/kernels.py ran out of ACC so). The next
// tile's product is issued after it.
// CHECK-LABEL: emit.program
// CHECK:       %[[ACC:.*]] = emit.alloc : <acc, 2x8xi32, strides = [32, 4]>
// CHECK:       emit.vbini ADD %[[ACC]], 1
// CHECK-NEXT:  %[[R:.*]] = emit.alloc : <lm, 4x8xi32, strides = [32, 4]>
// CHECK-NEXT:  %[[V:.*]] = emit.view %[[R]][0] : <lm, 4x8xi32, strides = [32, 4]> -> <lm, 1x16xi32, strides = [64, 4]>
// CHECK-NEXT:  %[[A:.*]] = emit.view %[[ACC]][0] : <acc, 2x8xi32, strides = [32, 4]> -> <acc, 1x16xi32, strides = [64, 4]>
// CHECK-NEXT:  emit.vun COPY %[[A]] -> %[[V]]
// CHECK-NEXT:  emit.vbini ADD %{{.*}}, 2
// expected-remark @below {{1 of 1 arena values kept in LM whole (128 bytes; 2 DMAs now 2 VECTOR copies)}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 2x8xi32, strides = [32, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 4x8xi32, strides = [32, 4]>
  %h = emit.alloc : !emit.buffer<arena, 4x8xi32, strides = [32, 4]>
  %acc = emit.alloc : !emit.buffer<acc, 2x8xi32, strides = [32, 4]>
  %b = emit.alloc : !emit.buffer<lm, 2x8xi32, strides = [32, 4]>
  emit.dma %in -> %acc : !emit.buffer<input, 2x8xi32, strides = [32, 4]> -> !emit.buffer<acc, 2x8xi32, strides = [32, 4]> loc("k1")
  emit.vbini ADD %acc, 1 : i32 -> %acc : !emit.buffer<acc, 2x8xi32, strides = [32, 4]> -> !emit.buffer<acc, 2x8xi32, strides = [32, 4]> loc("k1")
  %h0 = emit.view %h[0] : !emit.buffer<arena, 4x8xi32, strides = [32, 4]> -> !emit.buffer<arena, 2x8xi32, strides = [32, 4]>
  emit.dma %acc -> %h0 : !emit.buffer<acc, 2x8xi32, strides = [32, 4]> -> !emit.buffer<arena, 2x8xi32, strides = [32, 4]> loc("k1")
  emit.vbini ADD %b, 2 : i32 -> %b : !emit.buffer<lm, 2x8xi32, strides = [32, 4]> -> !emit.buffer<lm, 2x8xi32, strides = [32, 4]> loc("k1")
  %c = emit.alloc : !emit.buffer<lm, 4x8xi32, strides = [32, 4]>
  emit.dma %h -> %c : !emit.buffer<arena, 4x8xi32, strides = [32, 4]> -> !emit.buffer<lm, 4x8xi32, strides = [32, 4]> loc("k2")
  emit.dma %c -> %out : !emit.buffer<lm, 4x8xi32, strides = [32, 4]> -> !emit.buffer<output, 4x8xi32, strides = [32, 4]> loc("k2")
}
