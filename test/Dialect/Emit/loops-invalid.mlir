// The verifiers of emit.for and emit.iter_view, and their round trip.
// RUN: npuc-opt %s -split-input-file -verify-diagnostics
// RUN: npuc-opt %s -split-input-file -verify-diagnostics 2>/dev/null | npuc-opt -split-input-file | FileCheck %s

// CHECK-LABEL: emit.program target "npu-v1"
// CHECK: emit.for %[[T:.*]] basis [2, 3] range [0, 6) attributes {buffers = 2 : i64, pipeline} {
// CHECK:   emit.iter_view %{{.*}}[%[[T]]] offset 8 coeffs [96, 8] : <arena
emit.program target "npu-v1" {
  %g = emit.alloc {offset = 0} : !emit.buffer<arena, 2x96xi8, strides = [96, 1]>
  emit.for %t basis [2, 3] range [0, 6) attributes {buffers = 2, pipeline} {
    %v = emit.iter_view %g[%t] offset 8 coeffs [96, 8] {shift = 0, slot_bytes = 0, slots = 1} : !emit.buffer<arena, 2x96xi8, strides = [96, 1]> -> !emit.buffer<arena, 1x8xi8, strides = [32, 1]>
  }
}

// -----

emit.program target "npu-v1" {
  // expected-error @+1 {{range [0, 7) is not within the basis' 6 iterations}}
  emit.for %t basis [2, 3] range [0, 7) {
  }
}

// -----

emit.program target "npu-v1" {
  // expected-error @+1 {{basis entries must be at least 1, got 0}}
  emit.for %t basis [0] range [0, 0) {
  }
}

// -----

emit.program target "npu-v1" {
  // expected-error @+1 {{buffers must be at least 1, got 0}}
  emit.for %t basis [4] range [0, 4) attributes {buffers = 0} {
  }
}

// -----

emit.program target "npu-v1" {
  %g = emit.alloc {offset = 0} : !emit.buffer<arena, 2x96xi8, strides = [96, 1]>
  emit.for %t basis [2, 3] range [0, 6) {
    // expected-error @+1 {{has 1 coefficients for a basis of 2 dimensions}}
    %v = emit.iter_view %g[%t] offset 0 coeffs [96] : !emit.buffer<arena, 2x96xi8, strides = [96, 1]> -> !emit.buffer<arena, 1x8xi8, strides = [32, 1]>
  }
}

// -----

// Iteration (1, 2) views 8 bytes at 10 + 96 + 2 * 40 = 186, past the source's
// 192: every coordinate's extreme is checked.
emit.program target "npu-v1" {
  %g = emit.alloc {offset = 0} : !emit.buffer<arena, 2x96xi8, strides = [96, 1]>
  emit.for %t basis [2, 3] range [0, 6) {
    // expected-error @+1 {{some iteration's view (offset up to 186, spanning 8 bytes) leaves its source's 192 bytes}}
    %v = emit.iter_view %g[%t] offset 10 coeffs [96, 40] : !emit.buffer<arena, 2x96xi8, strides = [96, 1]> -> !emit.buffer<arena, 1x8xi8, strides = [32, 1]>
  }
}

// -----

emit.program target "npu-v1" {
  %g = emit.alloc {offset = 0} : !emit.buffer<arena, 2x96xi8, strides = [96, 1]>
  emit.for %t basis [4] range [0, 4) {
    // expected-error @+1 {{shift 1 moves iterations of [0, 4) past the loop's basis}}
    %v = emit.iter_view %g[%t] offset 0 coeffs [8] {shift = 1} : !emit.buffer<arena, 2x96xi8, strides = [96, 1]> -> !emit.buffer<arena, 1x8xi8, strides = [32, 1]>
  }
}

// -----

emit.program target "npu-v1" {
  %g = emit.alloc {offset = 0} : !emit.buffer<arena, 2x96xi8, strides = [96, 1]>
  emit.for %t basis [4] range [0, 4) {
    // expected-error @+1 {{a view stays in its space: arena -> lm}}
    %v = emit.iter_view %g[%t] offset 0 coeffs [8] : !emit.buffer<arena, 2x96xi8, strides = [96, 1]> -> !emit.buffer<lm, 1x8xi8, strides = [32, 1]>
  }
}
