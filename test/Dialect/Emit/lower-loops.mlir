// emit-lower-loops: each tile loop becomes straight-line engine code, one copy
// of the body per iteration, every emit.iter_view the emit.view of that
// iteration, each clone tagged [loop, iteration] for emit-hardware-loops,
// which rolls the iterations that repeat once memory and flags are placed.
// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-lower-loops{remarks=1 tag=1}))' -verify-diagnostics | FileCheck %s

// Basis [2, 3]: t = 0..5 is (t / 3, t mod 3). The input view walks rows by
// 96 bytes and columns by 8; the slot term adds 64 * ((t + 1) mod 2) with a
// shift of 1 (so iterations 1..6 are seen). By hand, for t = 1..4:
//   t = 1: s = 2 = (0, 2): 16 + 64 * 0 = 16      t = 2: s = 3 = (1, 0): 96 + 64 = 160
//   t = 3: s = 4 = (1, 1): 104 + 0 = 104          t = 4: s = 5 = (1, 2): 112 + 64 = 176
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK-NOT:  emit.for
// CHECK-NOT:  emit.iter_view
// CHECK:      emit.view %{{.*}}[16] :
// CHECK:      emit.dma {{.*}} {emit.iteration = array<i64: 0, 1>}
// CHECK:      emit.view %{{.*}}[160] :
// CHECK:      emit.dma {{.*}} {emit.iteration = array<i64: 0, 2>}
// CHECK:      emit.view %{{.*}}[104] :
// CHECK:      emit.view %{{.*}}[176] :
// CHECK-NOT:  emit.view
emit.program target "npu-v1" {
  %g = emit.alloc {offset = 0} : !emit.buffer<arena, 2x96xi8, strides = [96, 1]>
  %lm = emit.alloc {offset = 0} : !emit.buffer<lm, 1x8xi8, strides = [32, 1]>
  // expected-remark @+1 {{unrolled 4 iterations, each op tagged with its iteration}}
  emit.for %t basis [2, 3] range [1, 5) {
    %v = emit.iter_view %g[%t] offset 0 coeffs [96, 8] {shift = 1, slot_bytes = 64, slots = 2} : !emit.buffer<arena, 2x96xi8, strides = [96, 1]> -> !emit.buffer<arena, 1x8xi8, strides = [32, 1]>
    emit.dma %v -> %lm : !emit.buffer<arena, 1x8xi8, strides = [32, 1]> -> !emit.buffer<lm, 1x8xi8, strides = [32, 1]>
  }
}

// -----

// The whole source at offset 0 needs no view.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[G:.*]] = emit.alloc {offset = 0 : i64} : <arena, 1x8xi8
// CHECK:      emit.dma %[[G]] -> %{{.*}} : <arena, 1x8xi8
emit.program target "npu-v1" {
  %g = emit.alloc {offset = 0} : !emit.buffer<arena, 1x8xi8, strides = [32, 1]>
  %lm = emit.alloc {offset = 0} : !emit.buffer<lm, 1x8xi8, strides = [32, 1]>
  // expected-remark @+1 {{unrolled 1 iterations}}
  emit.for %t basis [1] range [0, 1) {
    %v = emit.iter_view %g[%t] offset 0 coeffs [0] : !emit.buffer<arena, 1x8xi8, strides = [32, 1]> -> !emit.buffer<arena, 1x8xi8, strides = [32, 1]>
    emit.dma %v -> %lm : !emit.buffer<arena, 1x8xi8, strides = [32, 1]> -> !emit.buffer<lm, 1x8xi8, strides = [32, 1]>
  }
}

// -----

emit.program target "npu-v1" {
  emit.for %t basis [2] range [0, 2) {
    // expected-error @+1 {{'emit.for' op nested tile loops are not lowered: each kernel loop is one delinearized emit.for}}
    emit.for %u basis [2] range [0, 2) {
    }
  }
}
