// emit-hardware-loops: iterations whose placed, synchronized code repeats
// become emit.hw_loop; the rest stays unrolled. The loops go through the
// passes that run before it in the pipeline (unroll with tags, plan memory,
// insert sync), so the code it rolls is the code the compiler makes.
// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-multi-buffer,emit-lower-loops{tag=1},emit-plan-memory,emit-insert-sync,emit-hardware-loops{remarks=1}))' -verify-diagnostics | FileCheck %s

// Load, add, store, 8 tiles of 64 bytes through one LM tile. Iteration 0
// waits for nothing; iterations 1..7 first wait for the previous store to
// have read the tile (DMA_OUT -> DMA_IN, the lowest free flag, id 0 every
// time). Iteration 7's store is followed by no signal (no later load needs
// it), so the run that repeats is 1..6: six times, the GM sides stepping by
// 64 bytes per tile, the LM tile fixed. Both GM sides step alike: one
// address stream, one register, and one for a sub-granule address (2).
// Iteration 7's wait, after the loop, names the flag the body sets.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:          emit.dma %{{.*}} -> %{{.*}} : <input, 1x16xf32
// CHECK-NOT:      emit.steps
// CHECK:          emit.hw_loop 6 {
// CHECK-NEXT:       emit.wait %{{.*}} : <dma_out -> dma_in>
// CHECK-NEXT:       emit.dma %{{.*}} -> %{{.*}} {emit.steps = array<i64: 64, 0>} : <input, 1x16xf32
// CHECK-NEXT:       emit.signal %{{.*}} : <dma_in -> vector>
// CHECK-NEXT:       emit.wait %{{.*}} : <dma_in -> vector>
// CHECK-NEXT:       emit.vbini ADD
// CHECK-NEXT:       emit.signal %{{.*}} : <vector -> dma_out>
// CHECK-NEXT:       emit.wait %{{.*}} : <vector -> dma_out>
// CHECK-NEXT:       emit.dma %{{.*}} -> %{{.*}} {emit.steps = array<i64: 0, 64>} : <lm, 1x16xf32
// CHECK-NEXT:       emit.signal %{{.*}} : <dma_out -> dma_in>
// CHECK-NEXT:     }
// CHECK-NOT:      emit.signal
// CHECK:          emit.wait %{{.*}} : <dma_out -> dma_in>
// CHECK-NEXT:     emit.dma %{{.*}} -> %{{.*}} : <input, 1x16xf32
// CHECK-NOT:      emit.hw_loop
// CHECK-NOT:      emit.iteration
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 8x16xf32, strides = [64, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 8x16xf32, strides = [64, 4]>
  emit.for %t basis [8] range [0, 8) {
    %lm = emit.alloc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    %src = emit.iter_view %in[%t] offset 0 coeffs [64] : !emit.buffer<input, 8x16xf32, strides = [64, 4]> -> !emit.buffer<input, 1x16xf32, strides = [64, 4]>
    %dst = emit.iter_view %out[%t] offset 0 coeffs [64] : !emit.buffer<output, 8x16xf32, strides = [64, 4]> -> !emit.buffer<output, 1x16xf32, strides = [64, 4]>
  // expected-remark @below {{round 0, loop 0: 8 iterations; hardware loop of 6 x 1, 2 registers}}
    emit.dma %src -> %lm : !emit.buffer<input, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    emit.vbini ADD %lm, 1.0 : f32 -> %lm : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    emit.dma %lm -> %dst : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<output, 1x16xf32, strides = [64, 4]>
  }
}

// -----

// Two rotating LM slots (buffers = 2): the tile alternates between two
// addresses, so no iteration repeats the one before it with a fixed step, but
// every pair does. Iterations 0 and 1 find their slot unread and wait for
// nothing; from 2 on, a load waits for the store two tiles back (flag 0 for
// even tiles, 1 for odd ones). 14 and 15 set no flag for a later load, so
// 2..13 repeat: 6 periods of 2 iterations. Over a period the LM side does not
// move and the GM sides move by two tiles (128 bytes).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:          emit.hw_loop 6 {
// CHECK-NEXT:       emit.wait
// CHECK-NEXT:       emit.dma %{{.*}} -> %[[A:[0-9]+]] {emit.steps = array<i64: 128, 0>}
// CHECK-NEXT:       emit.signal
// CHECK-NEXT:       emit.wait
// CHECK-NEXT:       emit.dma %[[A]] -> %{{.*}} {emit.steps = array<i64: 0, 128>}
// CHECK-NEXT:       emit.signal
// CHECK-NEXT:       emit.wait
// CHECK-NEXT:       emit.dma %{{.*}} -> %[[B:[0-9]+]] {emit.steps = array<i64: 128, 0>}
// CHECK-NEXT:       emit.signal
// CHECK-NEXT:       emit.wait
// CHECK-NEXT:       emit.dma %[[B]] -> %{{.*}} {emit.steps = array<i64: 0, 128>}
// CHECK-NEXT:       emit.signal
// CHECK-NEXT:     }
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 16x16xf32, strides = [64, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 16x16xf32, strides = [64, 4]>
  emit.for %t basis [16] range [0, 16) attributes {buffers = 2 : i64} {
    %lm = emit.alloc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    %src = emit.iter_view %in[%t] offset 0 coeffs [64] : !emit.buffer<input, 16x16xf32, strides = [64, 4]> -> !emit.buffer<input, 1x16xf32, strides = [64, 4]>
    %dst = emit.iter_view %out[%t] offset 0 coeffs [64] : !emit.buffer<output, 16x16xf32, strides = [64, 4]> -> !emit.buffer<output, 1x16xf32, strides = [64, 4]>
  // expected-remark @below {{round 0, loop 0: 16 iterations; hardware loop of 6 x 2, 2 registers}}
    emit.dma %src -> %lm : !emit.buffer<input, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    emit.dma %lm -> %dst : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<output, 1x16xf32, strides = [64, 4]>
  }
}

// -----

// A 3 x 5 grid of tiles, rows 1024 bytes apart in GM, tiles 64 apart: a row
// repeats its tiles (round 0, period 1), and the rows repeat each other
// (round 1): a loop of 3 rows holding a loop of 5 tiles. The tile's step is
// its inner level, the row's its outer one (innermost first).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:          emit.hw_loop 3 {
// CHECK-NEXT:       emit.hw_loop 5 {
// CHECK-NEXT:         emit.dma %{{.*}} -> %{{.*}} {emit.steps = array<i64: 64, 0, 1024, 0>}
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NOT:      emit.dma
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 3x1024xi8, strides = [1024, 1]>
  emit.for %t basis [3, 5] range [0, 15) {
    %lm = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %src = emit.iter_view %in[%t] offset 0 coeffs [1024, 64] : !emit.buffer<input, 3x1024xi8, strides = [1024, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
  // expected-remark @+2 {{round 0, loop 0: 15 iterations; hardware loop of 5 x 1, 2 registers; hardware loop of 5 x 1, 2 registers; hardware loop of 5 x 1, 2 registers}}
  // expected-remark @below {{round 1, loop 0: 3 items; hardware loop of 3 x 1, 2 registers}}
    emit.dma %src -> %lm : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
  }
}

// -----

// Seven loads per tile, each walking GM by its own step: seven address
// streams. With the one register a sub-granule address may borrow, the loop
// needs 8 scalar registers; npu-v1-tiny has 7 besides r0, so the tiles stay
// unrolled (the decision is the remark). npu-v1 (15) rolls the same loop.
// CHECK-LABEL: emit.program target "npu-v1-tiny"
// CHECK-NOT:      emit.hw_loop
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:          emit.hw_loop 4 {
emit.program target "npu-v1-tiny" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 32x64xi8, strides = [64, 1]>
  emit.for %t basis [4] range [0, 4) {
    %l1 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %l2 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %l3 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %l4 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %l5 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %l6 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %l7 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %s1 = emit.iter_view %in[%t] offset 0 coeffs [64] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %s2 = emit.iter_view %in[%t] offset 0 coeffs [128] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %s3 = emit.iter_view %in[%t] offset 0 coeffs [192] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %s4 = emit.iter_view %in[%t] offset 0 coeffs [256] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %s5 = emit.iter_view %in[%t] offset 0 coeffs [320] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %s6 = emit.iter_view %in[%t] offset 0 coeffs [384] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %s7 = emit.iter_view %in[%t] offset 0 coeffs [448] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
  // expected-remark @below {{round 0, loop 0: 4 iterations; 4 x 1 stays unrolled: it needs 8 registers, npu-v1-tiny has 7}}
    emit.dma %s1 -> %l1 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    emit.dma %s2 -> %l2 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    emit.dma %s3 -> %l3 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    emit.dma %s4 -> %l4 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    emit.dma %s5 -> %l5 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    emit.dma %s6 -> %l6 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    emit.dma %s7 -> %l7 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
  }
}

// -----

emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 32x64xi8, strides = [64, 1]>
  emit.for %t basis [4] range [0, 4) {
    %l1 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %l2 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %l3 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %l4 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %l5 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %l6 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %l7 = emit.alloc : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %s1 = emit.iter_view %in[%t] offset 0 coeffs [64] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %s2 = emit.iter_view %in[%t] offset 0 coeffs [128] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %s3 = emit.iter_view %in[%t] offset 0 coeffs [192] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %s4 = emit.iter_view %in[%t] offset 0 coeffs [256] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %s5 = emit.iter_view %in[%t] offset 0 coeffs [320] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %s6 = emit.iter_view %in[%t] offset 0 coeffs [384] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %s7 = emit.iter_view %in[%t] offset 0 coeffs [448] : !emit.buffer<input, 32x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
  // expected-remark @below {{round 0, loop 0: 4 iterations; hardware loop of 4 x 1, 8 registers}}
    emit.dma %s1 -> %l1 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    emit.dma %s2 -> %l2 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    emit.dma %s3 -> %l3 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    emit.dma %s4 -> %l4 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    emit.dma %s5 -> %l5 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    emit.dma %s6 -> %l6 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    emit.dma %s7 -> %l7 : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
  }
}
