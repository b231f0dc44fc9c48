// RUN: npuc-opt %s -split-input-file -graph-lift-conv1d | FileCheck %s

// A 1-D convolution is the 2-D one of height 1: the input viewed as
// [N, C, 1, L], the constant weights reshaped in place to [M, C, 1, K],
// strides and dilations [1, s], pads [0, b, 0, e], the result viewed back.
// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{.*}}> : tensor<4x2x1x3xf32>
// CHECK-DAG: %[[X:.*]] = graph.reshape %arg0 : (tensor<1x2x10xf32>) -> tensor<1x2x1x10xf32>
// CHECK:     %[[Y:.*]] = graph.conv %[[X]], %[[W]] {dilations = array<i64: 1, 2>, group = 1 : i64, pads = array<i64: 0, 1, 0, 2>, strides = array<i64: 1, 2>} : (tensor<1x2x1x10xf32>, tensor<4x2x1x3xf32>) -> tensor<1x4x1x5xf32>
// CHECK:     %[[R:.*]] = graph.reshape %[[Y]] : (tensor<1x4x1x5xf32>) -> tensor<1x4x5xf32>
// CHECK:     return %[[R]]
func.func @conv(%x: tensor<1x2x10xf32>) -> tensor<1x4x5xf32> {
  %w = graph.constant dense<1.0> : tensor<4x2x3xf32>
  %y = graph.conv %x, %w {strides = array<i64: 2>, pads = array<i64: 1, 2>, dilations = array<i64: 2>, group = 1 : i64} : (tensor<1x2x10xf32>, tensor<4x2x3xf32>) -> tensor<1x4x5xf32>
  return %y : tensor<1x4x5xf32>
}

// -----

// Weights that are not a constant are viewed like the input; a transposed
// convolution also gains output_padding 0.
// CHECK-LABEL: func.func @transpose
// CHECK-DAG: graph.reshape %arg1 : (tensor<2x3x4xf32>) -> tensor<2x3x1x4xf32>
// CHECK:     graph.conv_transpose {{.*}}dilations = array<i64: 1, 1>, group = 1 : i64, output_padding = array<i64: 0, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 2>} : (tensor<1x2x1x5xf32>, tensor<2x3x1x4xf32>) -> tensor<1x3x1x13xf32>
func.func @transpose(%x: tensor<1x2x5xf32>, %w: tensor<2x3x4xf32>) -> tensor<1x3x13xf32> {
  %y = graph.conv_transpose %x, %w {strides = array<i64: 2>, pads = array<i64: 0, 0>, dilations = array<i64: 1>, output_padding = array<i64: 1>, group = 1 : i64} : (tensor<1x2x5xf32>, tensor<2x3x4xf32>) -> tensor<1x3x13xf32>
  return %y : tensor<1x3x13xf32>
}

// -----

// 2-D convolutions are left as they are.
// CHECK-LABEL: func.func @two_d
// CHECK-NOT: graph.reshape
func.func @two_d(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
  %y = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}
