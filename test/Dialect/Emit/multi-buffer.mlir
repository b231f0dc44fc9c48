// emit-multi-buffer: a tile allocated in the body of a loop with buffers = N
// becomes N slots allocated once before the loop (each rounded up to the
// 64-byte MATRIX alignment) and a view of slot t mod N at iteration t.
// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-multi-buffer))' | FileCheck %s

// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[IN:.*]] = emit.alloc {name = "x"
// CHECK:      %[[SLOTS:.*]] = emit.alloc : <lm, 2x1x8xf32, strides = [64, 32, 4]>
// CHECK-NEXT: emit.for %[[T:.*]] basis [4] range [0, 4) attributes {pipeline} {
// CHECK-NEXT:   %[[TILE:.*]] = emit.iter_view %[[SLOTS]][%[[T]]] offset 0 coeffs [0] {slot_bytes = 64 : i64, slots = 2 : i64} : <lm, 2x1x8xf32, strides = [64, 32, 4]> -> <lm, 1x8xf32, strides = [32, 4]>
// CHECK-NEXT:   emit.iter_view %[[IN]][%[[T]]] offset 0 coeffs [32]
// CHECK-NEXT:   emit.dma %{{.*}} -> %[[TILE]]
// CHECK-NEXT:   emit.vbini ADD %[[TILE]]
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x8xf32, strides = [32, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 4x8xf32, strides = [32, 4]>
  emit.for %t basis [4] range [0, 4) attributes {buffers = 2 : i64, pipeline} {
    %tile = emit.alloc : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %src = emit.iter_view %in[%t] offset 0 coeffs [32] : !emit.buffer<input, 4x8xf32, strides = [32, 4]> -> !emit.buffer<input, 1x8xf32, strides = [32, 4]>
    emit.dma %src -> %tile : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    emit.vbini ADD %tile, 1.0 : f32 -> %tile : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %dst = emit.iter_view %out[%t] offset 0 coeffs [32] : !emit.buffer<output, 4x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
    emit.dma %tile -> %dst : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
  }
}

// -----

// One buffer (the default) changes nothing; GM buffers are never slotted.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.for
// CHECK-NEXT:   emit.alloc : <lm, 1x8xf32, strides = [32, 4]>
// CHECK-NEXT:   emit.alloc : <arena, 1x8xf32, strides = [32, 4]>
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x8xf32, strides = [32, 4]>
  emit.for %t basis [4] range [0, 4) {
    %tile = emit.alloc : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %g = emit.alloc : !emit.buffer<arena, 1x8xf32, strides = [32, 4]>
    %src = emit.iter_view %in[%t] offset 0 coeffs [32] : !emit.buffer<input, 4x8xf32, strides = [32, 4]> -> !emit.buffer<input, 1x8xf32, strides = [32, 4]>
    emit.dma %src -> %tile : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    emit.dma %tile -> %g : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<arena, 1x8xf32, strides = [32, 4]>
  }
}

// -----

// A tile with emit.extra_slots = 1 takes N + 1 = 3 slots (an accumulator
// that the next iteration's preparation writes while this one's store is in
// flight); the loop's other tiles keep 2.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK-DAG:  %[[ACC:.*]] = emit.alloc : <acc, 3x1x8xf32, strides = [64, 32, 4]>
// CHECK-DAG:  %[[LM:.*]] = emit.alloc : <lm, 2x1x8xf32, strides = [64, 32, 4]>
// CHECK:      emit.iter_view %[[ACC]][%{{.*}}] offset 0 coeffs [0] {slot_bytes = 64 : i64, slots = 3 : i64}
// CHECK:      emit.iter_view %[[LM]][%{{.*}}] offset 0 coeffs [0] {slot_bytes = 64 : i64, slots = 2 : i64}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x8xf32, strides = [32, 4]>
  emit.for %t basis [4] range [0, 4) attributes {buffers = 2 : i64} {
    %acc = emit.alloc {emit.extra_slots = 1 : i64} : !emit.buffer<acc, 1x8xf32, strides = [32, 4]>
    %tile = emit.alloc : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %src = emit.iter_view %in[%t] offset 0 coeffs [32] : !emit.buffer<input, 4x8xf32, strides = [32, 4]> -> !emit.buffer<input, 1x8xf32, strides = [32, 4]>
    emit.dma %src -> %tile : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    emit.cast %tile -> %acc : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<acc, 1x8xf32, strides = [32, 4]>
  }
}
