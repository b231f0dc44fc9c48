// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-hoist-invariant-loads{remarks=1}))' -verify-diagnostics | FileCheck %s

// A product tiled along N: every iteration loads the same A operand (a
// buffer from outside the loop, through a view made in the body) and a
// column tile of B. The A tile and its load move before the loop; B's tile,
// whose source follows the iteration, stays.
// CHECK-LABEL: emit.program
// CHECK:      %[[A:.*]] = emit.alloc : <lm, 1x24xf32, strides = [128, 4]>
// CHECK-NEXT: %[[V:.*]] = emit.view %{{.*}}[0] : <arena, 1x1x24xf32, strides = [96, 96, 4]> -> <arena, 1x24xf32, strides = [96, 4]>
// CHECK-NEXT: emit.dma %[[V]] -> %[[A]]
// CHECK-NEXT: emit.for
// CHECK-NEXT:   emit.alloc : <acc
// CHECK-NEXT:   emit.alloc : <lm, 24x48xf32
// CHECK-NEXT:   emit.iter_view
// CHECK-NEXT:   emit.dma
// CHECK-NEXT:   emit.matmul %[[A]]
// expected-remark @below {{1 tiles loaded once before their loop}}
emit.program target "npu-v1" {
  %h = emit.alloc : !emit.buffer<arena, 1x1x24xf32, strides = [96, 96, 4]>
  %w = emit.constant dense<1.0> : tensor<24x96xf32> : !emit.buffer<const, 24x96xf32, strides = [384, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 1x96xf32, strides = [384, 4]>
  emit.for %t basis [2] range [0, 2) attributes {buffers = 2 : i64} {
    %c = emit.alloc : !emit.buffer<acc, 1x48xf32, strides = [192, 4]>
    %a = emit.alloc : !emit.buffer<lm, 1x24xf32, strides = [128, 4]>
    %b = emit.alloc : !emit.buffer<lm, 24x48xf32, strides = [192, 4]>
    %hv = emit.view %h[0] : !emit.buffer<arena, 1x1x24xf32, strides = [96, 96, 4]> -> !emit.buffer<arena, 1x24xf32, strides = [96, 4]>
    emit.dma %hv -> %a : !emit.buffer<arena, 1x24xf32, strides = [96, 4]> -> !emit.buffer<lm, 1x24xf32, strides = [128, 4]>
    %wv = emit.iter_view %w[%t] offset 0 coeffs [192] : !emit.buffer<const, 24x96xf32, strides = [384, 4]> -> !emit.buffer<const, 24x48xf32, strides = [384, 4]>
    emit.dma %wv -> %b : !emit.buffer<const, 24x48xf32, strides = [384, 4]> -> !emit.buffer<lm, 24x48xf32, strides = [192, 4]>
    emit.matmul %a, %b -> %c : !emit.buffer<lm, 1x24xf32, strides = [128, 4]>, !emit.buffer<lm, 24x48xf32, strides = [192, 4]> -> !emit.buffer<acc, 1x48xf32, strides = [192, 4]>
    %ov = emit.iter_view %out[%t] offset 0 coeffs [192] : !emit.buffer<output, 1x96xf32, strides = [384, 4]> -> !emit.buffer<output, 1x48xf32, strides = [384, 4]>
    emit.dma %c -> %ov : !emit.buffer<acc, 1x48xf32, strides = [192, 4]> -> !emit.buffer<output, 1x48xf32, strides = [384, 4]>
  }
}

// -----

// Not hoisted: the tile is computed in (written by VECTOR after its load),
// and the loop writes the bytes another tile loads (an in-place update).
// CHECK-LABEL: emit.program
// CHECK-NEXT: emit.alloc {name = "x"
// CHECK-NEXT: emit.alloc {name = "y"
// CHECK-NEXT: emit.for
// expected-remark @below {{0 tiles loaded once before their loop}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 1x16xf32, strides = [64, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 4x16xf32, strides = [64, 4]>
  emit.for %t basis [4] range [0, 4) attributes {buffers = 2 : i64} {
    %a = emit.alloc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    emit.dma %in -> %a : !emit.buffer<input, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    emit.vbini ADD %a, 1.0 : f32 -> %a : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    %ov = emit.iter_view %out[%t] offset 0 coeffs [64] : !emit.buffer<output, 4x16xf32, strides = [64, 4]> -> !emit.buffer<output, 1x16xf32, strides = [64, 4]>
    emit.dma %a -> %ov : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<output, 1x16xf32, strides = [64, 4]>
  }
}

// -----

// CHECK-LABEL: emit.program
// CHECK-NEXT: emit.alloc : <arena
// CHECK-NEXT: emit.for
// expected-remark @below {{0 tiles loaded once before their loop}}
emit.program target "npu-v1" {
  %g = emit.alloc : !emit.buffer<arena, 1x16xf32, strides = [64, 4]>
  emit.for %t basis [4] range [0, 4) attributes {buffers = 2 : i64} {
    %a = emit.alloc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    emit.dma %g -> %a : !emit.buffer<arena, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    %b = emit.alloc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    emit.vbini ADD %a, 1.0 : f32 -> %b : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    emit.dma %b -> %g : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<arena, 1x16xf32, strides = [64, 4]>
  }
}

// -----

// Not hoisted: one iteration (nothing to save), and a tile read before the
// load that fills it.
// CHECK-LABEL: emit.program
// CHECK-NEXT: emit.alloc {name = "x"
// CHECK-NEXT: emit.alloc {name = "y"
// CHECK-NEXT: emit.for
// CHECK: emit.for
// expected-remark @below {{0 tiles loaded once before their loop}}
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 1x16xf32, strides = [64, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 4x16xf32, strides = [64, 4]>
  emit.for %t basis [1] range [0, 1) {
    %a = emit.alloc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    emit.dma %in -> %a : !emit.buffer<input, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    %ov = emit.view %out[0] : !emit.buffer<output, 4x16xf32, strides = [64, 4]> -> !emit.buffer<output, 1x16xf32, strides = [64, 4]>
    emit.dma %a -> %ov : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<output, 1x16xf32, strides = [64, 4]>
  }
  emit.for %t basis [4] range [0, 4) attributes {buffers = 2 : i64} {
    %a = emit.alloc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
    %ov = emit.iter_view %out[%t] offset 0 coeffs [64] : !emit.buffer<output, 4x16xf32, strides = [64, 4]> -> !emit.buffer<output, 1x16xf32, strides = [64, 4]>
    emit.dma %a -> %ov : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<output, 1x16xf32, strides = [64, 4]>
    emit.dma %in -> %a : !emit.buffer<input, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  }
}
