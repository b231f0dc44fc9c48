// A ConvTranspose whose windows do not overlap (kernel = stride 2, no pads)
// is a pointwise product with the reordered weights on the left, tiled by
// select-tiling like any matrix product, into the arena as [(co, a, b)]
// [pixels]; then per output channel one copy puts block (a, b) of pixel
// (i, j) at output row 2i + a, column 2j + b: its DMA_IN reads rows of
// pixels, its DMA_OUT walks (b, j) innermost, whole output rows.
// RUN: npuc-opt %s --pass-pipeline='builtin.module(set-target{target=npu-v1},select-lowering-cases,select-tiling,convert-qk-to-emit)' | FileCheck %s

// W is [Cin 2, Cout 1, 2, 2]; row (a, b) of the product's left operand holds
// W[ci][0][a][b] for ci = 0, 1; the bias repeats per (a, b).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[Y:.*]] = emit.alloc {name = "y", offset = 0 : i64} : <output, 1x1x4x6xf32, strides = [96, 96, 24, 4]>
// CHECK-NEXT: %[[A:.*]] = emit.constant dense<{{\[}}[1.000000e+00, 5.000000e+00], [2.000000e+00, 6.000000e+00], [3.000000e+00, 7.000000e+00], [4.000000e+00, 8.000000e+00]]> : tensor<4x2xf32>
// CHECK-NEXT: emit.constant dense<5.000000e-01> : tensor<4xf32>
// CHECK-NEXT: %[[R:.*]] = emit.alloc : <arena, 1x4x6xf32, strides = [96, 24, 4]>
// CHECK:      emit.for
// CHECK:        emit.dma %[[A]]
// CHECK:        emit.matmul
// CHECK:        emit.vbin ADD
// CHECK:        emit.dma %{{.*}} -> %{{.*}} : <acc, 4x6xf32, strides = [64, 4]> -> <arena, 4x6xf32, strides = [24, 4]>
// CHECK:      %[[DST:.*]] = emit.view %[[Y]][0] : {{.*}} -> <output, 2x2x2x3xf32, strides = [48, 24, 4, 8]>
// CHECK-NEXT: %[[SRC:.*]] = emit.view %[[R]][0] : {{.*}} -> <arena, 2x2x2x3xf32, strides = [12, 48, 24, 4]>
// CHECK:      emit.dma %[[SRC]] -> %{{.*}} : <arena, 2x2x2x3xf32, strides = [12, 48, 24, 4]> -> <lm
// CHECK:      emit.dma %{{.*}} -> %[[DST]]
func.func @main(%x: tensor<1x2x2x3xf32> {graph.name = "x"}) -> (tensor<1x1x4x6xf32> {graph.name = "y"}) {
  %w = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[5.0, 6.0], [7.0, 8.0]]]]> : tensor<2x1x2x2xf32>
  %b = graph.constant dense<[0.5]> : tensor<1xf32>
  %y = qk.conv_transpose %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, group = 1 : i64} : (tensor<1x2x2x3xf32>, tensor<2x1x2x2xf32>, tensor<1xf32>) -> tensor<1x1x4x6xf32>
  return %y : tensor<1x1x4x6xf32>
}
