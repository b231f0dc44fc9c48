// convert-qk-to-emit lowers a dense convolution with a window (not
// pointwise, not depthwise) as `npuc.tiling` = [rows, output channels, input
// channel chunk] says (ConvTiling.h): per tile the image rows the window
// reaches arrive channels innermost (HWC), padded with the input zero point
// on the way into LM; one VECTOR copy per output row and kernel row gathers
// the KW x chunk elements of each output pixel (sw x chunk apart) into the
// im2col tile, each kernel row's run padded to 32 bytes; MATRIX multiplies it
// by the weights reordered at compile time; the output stage drains it.
// RUN: npuc-opt %s -split-input-file --convert-qk-to-emit -verify-diagnostics | FileCheck %s

// 2 int8 channels of 3x3, a 2x2 window, pads bottom/right 1, 2 output
// channels, in tiles of 2 output rows: tile 0 (rows 0-1) reads image rows
// 0-2, all real; tile 1 (row 2) rows 2-3, one of them padding. The image is
// [rows, 4 columns, 2 channels] at a row pitch of 32 bytes; the K of one
// kernel row is 2 x 2 elements padded to 32, so K = 64.
// The weights: row kh * 32 + kw * 2 + c, column n, holds W[n][c][kh][kw];
// the gap rows hold the weight zero point 5, so (a - 3) * (5 - 5) adds 0
// (the im2col gaps are zeroed all the same: LM never written is not read):
// row 0 = W[0][0][0][0], W[1][0][0][0] = 1, -1; row 1 = W[.][1][0][0] = 5, -5;
// row 2 = W[.][0][0][1] = 2, -2; row 3 = 6, -6; rows 4-31 are 5;
// row 32 = W[.][0][1][0] = 3, -3.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[X:.*]] = emit.alloc {name = "x", offset = 0 : i64}
// CHECK:      %[[WR:.*]] = emit.constant dense<"0x01FF05FB02FE06FA0505{{(05)+}}03FD07F904FC08F80505{{(05)+}}"> : tensor<64x2xi8>
// CHECK-NEXT: %[[Z:.*]] = emit.alloc : <lm, 1x64xi8, strides = [64, 1]>
// CHECK-NEXT: emit.constant dense<0> : tensor<64xi8>
// CHECK:      emit.for %{{.*}} basis [1, 1, 1, 1] range [0, 1) {
// CHECK-NEXT:   %[[ACC:.*]] = emit.alloc : <acc, 6x2xi32, strides = [64, 4]>
// CHECK-NEXT:   %[[IMG:.*]] = emit.alloc : <lm, 3x4x2xi8, strides = [32, 2, 1]>
// CHECK-NEXT:   %[[CHW:.*]] = emit.view %[[IMG]][0] : <lm, 3x4x2xi8, strides = [32, 2, 1]> -> <lm, 2x3x4xi8, strides = [1, 32, 2]>
// CHECK-NEXT:   %[[SRC:.*]] = emit.view %[[X]][0] : {{.*}} -> <input, 2x3x3xi8, strides = [9, 3, 1]>
// CHECK-NEXT:   emit.dma %[[SRC]] -> %[[CHW]] {fill = 3 : i64, pad_hi = array<i64: 0, 0, 1>, pad_lo = array<i64: 0, 0, 0>}
// CHECK-NEXT:   %[[A:.*]] = emit.alloc : <lm, 6x64xi8, strides = [64, 1]>
// The gaps cleared first, from a row of zeros at pitch 0:
// CHECK-NEXT:   %[[ZZ:.*]] = emit.view %[[Z]][0] : <lm, 1x64xi8, strides = [64, 1]> -> <lm, 6x64xi8, strides = [0, 1]>
// CHECK-NEXT:   emit.cast %[[ZZ]] -> %[[A]]
// Output row 0, kernel rows 0 and 1; output row 1 (A rows 3-5), kernel rows 0 and 1.
// CHECK-NEXT:   %[[D:.*]] = emit.view %[[A]][0] : {{.*}} -> <lm, 3x4xi8, strides = [64, 1]>
// CHECK-NEXT:   %[[S:.*]] = emit.view %[[IMG]][0] : {{.*}} -> <lm, 3x4xi8, strides = [2, 1]>
// CHECK-NEXT:   emit.cast %[[S]] -> %[[D]]
// CHECK-NEXT:   emit.view %[[A]][32]
// CHECK-NEXT:   emit.view %[[IMG]][32]
// CHECK-NEXT:   emit.cast
// CHECK-NEXT:   emit.view %[[A]][192]
// CHECK-NEXT:   emit.view %[[IMG]][32]
// CHECK-NEXT:   emit.cast
// CHECK-NEXT:   emit.view %[[A]][224]
// CHECK-NEXT:   emit.view %[[IMG]][64]
// CHECK-NEXT:   emit.cast
// CHECK-NEXT:   %[[B:.*]] = emit.alloc : <lm, 64x2xi8, strides = [64, 1]>
// CHECK-NEXT:   emit.dma %[[WR]] -> %[[B]]
// CHECK-NEXT:   emit.matmul %[[A]], %[[B]] -> %[[ACC]] {a_zp = 3 : i64, b_zp = 5 : i64}
// CHECK:        emit.drain %[[ACC]]
// CHECK:      emit.for %{{.*}} basis [1, 1, 1, 1] range [0, 1) {
// CHECK:        emit.view %[[X]][6] : {{.*}} -> <input, 2x1x3xi8, strides = [9, 3, 1]>
// CHECK-NEXT:   emit.dma {{.*}} {fill = 3 : i64, pad_hi = array<i64: 0, 1, 1>, pad_lo = array<i64: 0, 0, 0>}
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<1x2x3x3xi8> {graph.name = "x"}) -> (tensor<1x2x3x3xi8> {graph.name = "y"}) {
  %w = graph.constant dense<[[[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[[-1, -2], [-3, -4]], [[-5, -6], [-7, -8]]]]> : tensor<2x2x2x2xi8>
  %y = qk.conv2d %x, %w {acc_type = i32, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 3 : i64, pads = array<i64: 0, 0, 1, 1>, requant = #qk.requant<multiplier = [1073741824], lshift = [0], rshift = [1], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>, strides = array<i64: 1, 1>, weight_zp = array<i64: 5>, npuc.tiling = #qk.tiling<tile = [2, 2, 2], buffers = 2>} : (tensor<1x2x3x3xi8>, tensor<2x2x2x2xi8>) -> tensor<1x2x3x3xi8>
  return %y : tensor<1x2x3x3xi8>
}

// -----

// f32: the gap rows of the weights are 0.0, and the im2col tile is zeroed
// first here too (a NaN left in a gap would survive x 0.0); the bias starts the sums
// (broadcast into ACC), so the products accumulate and no VECTOR epilogue
// follows them. The imported weights are not placed: only the bias, the
// reordered weights and the zeros are constants.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK-COUNT-2: emit.constant
// CHECK-NEXT: %[[Z:.*]] = emit.alloc : <lm, 1x16xf32, strides = [64, 4]>
// CHECK-NEXT: emit.constant dense<0.000000e+00> : tensor<16xf32>
// CHECK-NOT:  emit.constant
// CHECK:      emit.dma %{{.*}} -> %[[Z]]
// CHECK-NOT:  emit.constant
// CHECK:      emit.for
// CHECK-NEXT:   %[[ACC:.*]] = emit.alloc : <acc, 9x2xf32, strides = [64, 4]>
// CHECK-NEXT:   %[[ROW:.*]] = emit.alloc : <lm, 1x2xf32, strides = [32, 4]>
// CHECK-NEXT:   emit.view
// CHECK-NEXT:   emit.dma %{{.*}} -> %[[ROW]] : <const, 1x2xf32, strides = [0, 4]>
// CHECK-NEXT:   %[[BB:.*]] = emit.view %[[ROW]][0] : {{.*}} -> <lm, 9x2xf32, strides = [0, 4]>
// CHECK-NEXT:   emit.cast %[[BB]] -> %[[ACC]]
// CHECK:        %[[A:.*]] = emit.alloc : <lm, 9x16xf32, strides = [64, 4]>
// CHECK-NEXT:   %[[ZZ:.*]] = emit.view %[[Z]][0] : {{.*}} -> <lm, 9x16xf32, strides = [0, 4]>
// CHECK-NEXT:   emit.cast %[[ZZ]] -> %[[A]]
// CHECK:        emit.matmul %[[A]], %{{.*}} -> %[[ACC]] {accumulate}
// CHECK-NEXT:   emit.view %{{.*}}[0] : <output, {{.*}}> -> <output, 9x2xf32, strides = [4, 36]>
// CHECK-NEXT:   emit.dma %[[ACC]]
// CHECK-NEXT: }
func.func @main(%x: tensor<1x1x3x3xf32> {graph.name = "x"}) -> (tensor<1x2x3x3xf32> {graph.name = "y"}) {
  %w = graph.constant dense<1.0> : tensor<2x1x2x2xf32>
  %b = graph.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %y = qk.conv2d %x, %w, %b {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64, npuc.tiling = #qk.tiling<tile = [3, 2, 1], buffers = 1>} : (tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

func.func @main(%x: tensor<1x1x3x3xf32> {graph.name = "x"}) -> (tensor<1x2x3x3xf32> {graph.name = "y"}) {
  %w = graph.constant dense<1.0> : tensor<2x1x2x2xf32>
  // expected-error @+1 {{npuc.tiling [4, 2, 1] x 1 cannot run here: tile 4 rows x 2 channels (chunks of 1) is outside [1, 3] x [1, 2] ([1, 1])}}
  %y = qk.conv2d %x, %w {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64, npuc.tiling = #qk.tiling<tile = [4, 2, 1], buffers = 1>} : (tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

func.func @main(%x: tensor<1x1x3x3xf32> {graph.name = "x"}) -> (tensor<1x2x3x3xf32> {graph.name = "y"}) {
  %w = graph.constant dense<1.0> : tensor<2x1x2x2xf32>
  // expected-error @+1 {{internal error: no tiling (npuc.tiling); select-tiling chooses it before this lowering}}
  %y = qk.conv2d %x, %w {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

// A fused activation (graph-fuse-activation) runs on the result tile in ACC
// before the store: RELU, or a clip's MAX and MIN with its bounds in f32.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.matmul %{{.*}}, %{{.*}} -> %[[ACC:[^ ]*]] {accumulate}
// CHECK-NEXT: emit.view
// CHECK-NEXT: emit.vun RELU %[[ACC]] -> %[[ACC]]
// CHECK-NEXT: emit.dma %[[ACC]]
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.matmul %{{.*}}, %{{.*}} -> %[[ACC:[^ ]*]] :
// CHECK-NEXT: emit.view
// CHECK-NEXT: emit.vbini MAX %[[ACC]], 0.000000e+00 : f32 -> %[[ACC]]
// CHECK-NEXT: emit.vbini MIN %[[ACC]], 6.000000e+00 : f32 -> %[[ACC]]
// CHECK-NEXT: emit.dma %[[ACC]]
func.func @main(%x: tensor<1x1x3x3xf32> {graph.name = "x"}) -> (tensor<1x2x3x3xf32> {graph.name = "y"}) {
  %w = graph.constant dense<1.0> : tensor<2x1x2x2xf32>
  %b = graph.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %y = qk.conv2d %x, %w, %b {acc_type = f32, activation = #qk.activation<relu>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64, npuc.tiling = #qk.tiling<tile = [3, 2, 1], buffers = 1>} : (tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

func.func @main(%x: tensor<1x1x3x3xf32> {graph.name = "x"}) -> (tensor<1x2x3x3xf32> {graph.name = "y"}) {
  %w = graph.constant dense<1.0> : tensor<2x1x2x2xf32>
  %y = qk.conv2d %x, %w {acc_type = f32, activation = #qk.activation<clip>, activation_min = 0.0 : f64, activation_max = 6.0 : f64, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64, npuc.tiling = #qk.tiling<tile = [3, 2, 1], buffers = 1>} : (tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

// Stacked (npuc.tiling's `stacked`): one image row per output row, each
// pixel holding the KH input rows its window reaches, kernel row kh's by its
// own DMA, kh x 2 channels in; an output pixel's window (KW x KH x 2 = 8
// elements, K order kw, kh, c) is one run, padded once to 32 (not 2 x 32).
// The weights: row (kw * 2 + kh) * 2 + c holds W[n][c][kh][kw]: rows 0-7 =
// (1, -1) (5, -5) (3, -3) (7, -7) (2, -2) (6, -6) (4, -4) (8, -8), then the
// weight zero point 5.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[X:.*]] = emit.alloc {name = "x", offset = 0 : i64}
// CHECK:      %[[WR:.*]] = emit.constant dense<[{{\[}}1, -1], [5, -5], [3, -3], [7, -7], [2, -2], [6, -6], [4, -4], [8, -8], [5, 5], {{.*}}]> : tensor<32x2xi8>
// CHECK:      emit.for
// CHECK:        %[[IMG:.*]] = emit.alloc : <lm, 2x3x4xi8, strides = [32, 4, 1]>
// CHECK-NEXT:   %[[D0:.*]] = emit.view %[[IMG]][0] : {{.*}} -> <lm, 2x2x3xi8, strides = [1, 32, 4]>
// CHECK-NEXT:   %[[S0:.*]] = emit.view %[[X]][0] : {{.*}} -> <input, 2x2x3xi8, strides = [9, 3, 1]>
// CHECK-NEXT:   emit.dma %[[S0]] -> %[[D0]]
// CHECK-NEXT:   %[[D1:.*]] = emit.view %[[IMG]][2] : {{.*}} -> <lm, 2x2x3xi8, strides = [1, 32, 4]>
// CHECK-NEXT:   %[[S1:.*]] = emit.view %[[X]][3] : {{.*}} -> <input, 2x2x3xi8, strides = [9, 3, 1]>
// CHECK-NEXT:   emit.dma %[[S1]] -> %[[D1]]
// CHECK-NEXT:   %[[A:.*]] = emit.alloc : <lm, 4x32xi8, strides = [32, 1]>
// CHECK:        emit.cast {{.*}} -> %[[A]]
// One copy per output row: OW rows of 8 elements, sw x 4 apart.
// CHECK-NEXT:   %[[R0:.*]] = emit.view %[[A]][0] : {{.*}} -> <lm, 2x8xi8, strides = [32, 1]>
// CHECK-NEXT:   %[[I0:.*]] = emit.view %[[IMG]][0] : {{.*}} -> <lm, 2x8xi8, strides = [4, 1]>
// CHECK-NEXT:   emit.cast %[[I0]] -> %[[R0]]
// CHECK-NEXT:   emit.view %[[A]][64]
// CHECK-NEXT:   emit.view %[[IMG]][32]
// CHECK-NEXT:   emit.cast
// CHECK-NEXT:   %[[B:.*]] = emit.alloc : <lm, 32x2xi8, strides = [64, 1]>
// CHECK-NEXT:   emit.dma %[[WR]] -> %[[B]]
// CHECK-NEXT:   emit.matmul %[[A]], %[[B]] -> %{{.*}} {a_zp = 3 : i64, b_zp = 5 : i64}
func.func @main(%x: tensor<1x2x3x3xi8> {graph.name = "x"}) -> (tensor<1x2x2x2xi8> {graph.name = "y"}) {
  %w = graph.constant dense<[[[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[[-1, -2], [-3, -4]], [[-5, -6], [-7, -8]]]]> : tensor<2x2x2x2xi8>
  %y = qk.conv2d %x, %w {acc_type = i32, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 3 : i64, pads = array<i64: 0, 0, 0, 0>, requant = #qk.requant<multiplier = [1073741824], lshift = [0], rshift = [1], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>, strides = array<i64: 1, 1>, weight_zp = array<i64: 5>, npuc.tiling = #qk.tiling<tile = [2, 2, 2], buffers = 1, stacked>} : (tensor<1x2x3x3xi8>, tensor<2x2x2x2xi8>) -> tensor<1x2x2x2xi8>
  return %y : tensor<1x2x2x2xi8>
}

// -----

// Stacked row tile 1 (output row 2) would read only bottom padding through
// kernel row 1: no DMA has source rows for it.
func.func @main(%x: tensor<1x2x3x3xi8> {graph.name = "x"}) -> (tensor<1x2x3x3xi8> {graph.name = "y"}) {
  %w = graph.constant dense<1> : tensor<2x2x2x2xi8>
  // expected-error @+1 {{npuc.tiling [2, 2, 2] x 1 cannot run here: kernel row 1 of row tile 1 reads only padding, which a stacked image has no DMA for}}
  %y = qk.conv2d %x, %w {acc_type = i32, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 3 : i64, pads = array<i64: 0, 0, 1, 1>, requant = #qk.requant<multiplier = [1073741824], lshift = [0], rshift = [1], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>, strides = array<i64: 1, 1>, weight_zp = array<i64: 5>, npuc.tiling = #qk.tiling<tile = [2, 2, 2], buffers = 1, stacked>} : (tensor<1x2x3x3xi8>, tensor<2x2x2x2xi8>) -> tensor<1x2x3x3xi8>
  return %y : tensor<1x2x3x3xi8>
}

// -----

// Resident weights (`resident`): the reordered weights, 16 rows of K (2
// kernel rows of a 2-element run padded to 8 f32) by the 16 output channels,
// are loaded into LM once, before the tile loop; each tile's product reads
// them in place, and the loop body loads only its image rows.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[R:.*]] = emit.alloc : <lm, 16x16xf32, strides = [64, 4]>
// CHECK-NEXT: emit.dma %{{.*}} -> %[[R]] : <const, 16x16xf32, strides = [64, 4]> -> <lm, 16x16xf32, strides = [64, 4]>
// CHECK:      emit.for %{{.*}} basis [1, 1, 1, 3]
// CHECK-NOT:  emit.dma %{{.*}} : <const
// CHECK:      emit.matmul %{{.*}}, %[[R]] -> %{{.*}} : <lm, 3x16xf32, strides = [64, 4]>, <lm, 16x16xf32, strides = [64, 4]>
func.func @main(%x: tensor<1x1x4x4xf32> {graph.name = "x"}) -> (tensor<1x16x3x3xf32> {graph.name = "y"}) {
  %w = graph.constant dense<1.0> : tensor<16x1x2x2xf32>
  %y = qk.conv2d %x, %w {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, npuc.tiling = #qk.tiling<tile = [1, 16, 1], buffers = 1, resident>} : (tensor<1x1x4x4xf32>, tensor<16x1x2x2xf32>) -> tensor<1x16x3x3xf32>
  return %y : tensor<1x16x3x3xf32>
}
