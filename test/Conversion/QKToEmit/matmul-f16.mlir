// RUN: npuc-opt %s --pass-pipeline="builtin.module(convert-elementwise-to-qk,select-lowering-cases,select-tiling)" | FileCheck %s --check-prefix=CASE
// RUN: npuc-opt %s --pass-pipeline="builtin.module(convert-elementwise-to-qk,select-lowering-cases,select-tiling,convert-qk-to-emit)" | FileCheck %s

// fp16 operands with an f32 result (graph-compute-f16): the case names the
// types; the cost model prices MATRIX's F16 mode (array side 32 on npu-v1, so
// K in chunks of 32, where f32's is 16) and two-byte operands: one buffer of
// [64, 96, 32] tiles fits, 65536 GM bytes (x and w once at 2 bytes, y at 4).
// The tiles in LM are f16, the accumulator f32.
// CASE: qk.matmul {{.*}}{acc_type = f32, npuc.case = "qk.matmul(f16,f16->f32){!batch,!batched-rhs,!transA,!transB,!alpha,c=none}"
// CASE-SAME: npuc.tiling = #qk.tiling<tile = [64, 96, 32], buffers = 1, cycles = 1968, gm_bytes = 65536>
// CHECK: emit.dma %{{.*}} -> %{{.*}} : <input, 64x32xf16, strides = [256, 2]> -> <lm, 64x32xf16, strides = [64, 2]>
// CHECK: emit.dma %{{.*}} -> %{{.*}} : <const, 32x96xf16, strides = [192, 2]> -> <lm, 32x96xf16, strides = [192, 2]>
// CHECK: emit.matmul %{{.*}}, %{{.*}} -> %{{.*}} : <lm, 64x32xf16, strides = [64, 2]>, <lm, 32x96xf16, strides = [192, 2]> -> <acc, 64x96xf32, strides = [384, 4]>
// CHECK-COUNT-3: emit.matmul {{.*}} {accumulate}
// CHECK-NOT: emit.matmul
func.func @main(%x: tensor<64x128xf16> {graph.name = "x"}) -> (tensor<64x96xf32> {graph.name = "y"}) {
  %w = graph.constant dense<0.5> : tensor<128x96xf16>
  %y = graph.matmul %x, %w : (tensor<64x128xf16>, tensor<128x96xf16>) -> tensor<64x96xf32>
  return %y : tensor<64x96xf32>
}
