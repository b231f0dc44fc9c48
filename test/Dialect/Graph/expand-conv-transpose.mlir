// RUN: npuc-opt %s -split-input-file -graph-expand-conv-transpose | FileCheck %s

// Run-time weights, group 2, strides 2, begin pad 3 past d * (k - 1) = 2 and
// output_padding 1: x spread along W then H (pads of s - 1 zeros, the
// trailing ones sliced off), the weights flipped in space and transposed per
// group to [M, C / g, KH, KW], a stride-1 convolution padded [0, 2, 2, 2],
// and its first row cropped (the negative pad).
// CHECK-LABEL: func.func @runtime_grouped
// CHECK:      %[[R:.*]] = graph.reshape %arg0 : (tensor<1x2x3x3xf32>) -> tensor<6x3x1xf32>
// CHECK-NEXT: %[[P:.*]] = graph.pad %[[R]] {mode = "constant", pads = array<i64: 0, 0, 0, 0, 0, 1>, value = 0.000000e+00 : f64} : (tensor<6x3x1xf32>) -> tensor<6x3x2xf32>
// CHECK-NEXT: %[[F:.*]] = graph.reshape %[[P]] : (tensor<6x3x2xf32>) -> tensor<6x6xf32>
// CHECK-NEXT: graph.slice %[[F]] {ends = array<i64: 6, 5>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : (tensor<6x6xf32>) -> tensor<6x5xf32>
// CHECK:      graph.pad %{{.*}} {mode = "constant", pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 0>, value = 0.000000e+00 : f64} : (tensor<2x3x1x5xf32>) -> tensor<2x3x2x5xf32>
// CHECK:      %[[X:.*]] = graph.reshape %{{.*}} : (tensor<2x5x5xf32>) -> tensor<1x2x5x5xf32>
// CHECK-NEXT: %[[FL:.*]] = graph.slice %arg1 {ends = array<i64: 2, 3, -1, -1>, starts = array<i64: 0, 0, 2, 2>, steps = array<i64: 1, 1, -1, -1>}
// CHECK-NEXT: %[[G:.*]] = graph.reshape %[[FL]] : (tensor<2x3x3x3xf32>) -> tensor<2x1x3x9xf32>
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[G]] {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x1x3x9xf32>) -> tensor<2x3x1x9xf32>
// CHECK-NEXT: %[[W:.*]] = graph.reshape %[[T]] : (tensor<2x3x1x9xf32>) -> tensor<6x1x3x3xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.conv %[[X]], %[[W]] {dilations = array<i64: 1, 1>, group = 2 : i64, pads = array<i64: 0, 2, 2, 2>, strides = array<i64: 1, 1>} : (tensor<1x2x5x5xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x5x7xf32>
// CHECK-NEXT: graph.slice %[[Y]] {ends = array<i64: 1, 6, 5, 7>, starts = array<i64: 0, 0, 1, 0>, steps = array<i64: 1, 1, 1, 1>} : (tensor<1x6x5x7xf32>) -> tensor<1x6x4x7xf32>
func.func @runtime_grouped(%x: tensor<1x2x3x3xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x6x4x7xf32> {
  %y = graph.conv_transpose %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 3, 0, 1, 0>, dilations = array<i64: 1, 1>, output_padding = array<i64: 1, 0>, group = 2 : i64} : (tensor<1x2x3x3xf32>, tensor<2x3x3x3xf32>) -> tensor<1x6x4x7xf32>
  return %y : tensor<1x6x4x7xf32>
}

// -----

// Constant weights are the kernel's (flipped at compile time): left alone.
// CHECK-LABEL: func.func @constant_weights
// CHECK: graph.conv_transpose
func.func @constant_weights(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x5x5xf32> {
  %w = graph.constant dense<1.0> : tensor<1x1x3x3xf32>
  %y = graph.conv_transpose %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, group = 1 : i64} : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x5x5xf32>
  return %y : tensor<1x1x5x5xf32>
}

// -----

// 3-D (no kernel of its own), constant weights too: x spread along the
// depth (rows of H * W elements padded on axis 2), the weights flipped, a
// stride-1 3-D convolution padded by d * (k - 1) on the depth.
// CHECK-LABEL: func.func @volumetric
// CHECK:      graph.reshape %arg0 : (tensor<1x1x2x2x3xf32>) -> tensor<1x2x1x6xf32>
// CHECK-NEXT: graph.pad %{{.*}} {mode = "constant", pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 0>, value = 0.000000e+00 : f64} : (tensor<1x2x1x6xf32>) -> tensor<1x2x2x6xf32>
// CHECK:      graph.slice %{{.*}} {ends = array<i64: 1, 3, 6>, starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : (tensor<1x4x6xf32>) -> tensor<1x3x6xf32>
// CHECK:      graph.conv %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1, 1>, group = 1 : i64, pads = array<i64: 1, 0, 0, 1, 0, 0>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x3x2x3xf32>, tensor<1x1x2x1x1xf32>) -> tensor<1x1x4x2x3xf32>
// CHECK-NOT:  graph.conv_transpose
func.func @volumetric(%x: tensor<1x1x2x2x3xf32>) -> tensor<1x1x4x2x3xf32> {
  %w = graph.constant dense<[[[[[1.0]], [[2.0]]]]]> : tensor<1x1x2x1x1xf32>
  %y = graph.conv_transpose %x, %w {strides = array<i64: 2, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, group = 1 : i64} : (tensor<1x1x2x2x3xf32>, tensor<1x1x2x1x1xf32>) -> tensor<1x1x4x2x3xf32>
  return %y : tensor<1x1x4x2x3xf32>
}
