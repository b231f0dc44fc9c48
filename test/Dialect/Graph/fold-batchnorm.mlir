// RUN: npuc-opt %s -split-input-file --graph-fold-batchnorm -verify-diagnostics | FileCheck %s

// Worked by hand: s = gamma / sqrt(var + eps) = [3 / sqrt(4), 0.5 / sqrt(0.01)]
// = [1.5, 5]; w' = 2 * s = [3, 10]; b' = (b - mean) * s + beta =
// [(1 - 1) * 1.5 + 0.25, (-1 - 0) * 5 + 1] = [0.25, -4].
// CHECK-LABEL: func.func @fold
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}3.000000e+00]]], {{\[\[\[}}1.000000e+01]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<[2.500000e-01, -4.000000e+00]> : tensor<2xf32>
// CHECK:     %[[Y:.*]] = graph.conv %arg0, %[[W]], %[[B]]
// CHECK-NOT: graph.batch_norm
// CHECK:     return %[[Y]]
func.func @fold(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<2.0> : tensor<2x1x1x1xf32>
  %b = graph.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %c = graph.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %g = graph.constant dense<[3.0, 0.5]> : tensor<2xf32>
  %be = graph.constant dense<[0.25, 1.0]> : tensor<2xf32>
  %m = graph.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %v = graph.constant dense<[3.99, 0.0]> : tensor<2xf32>
  %y = graph.batch_norm %c, %g, %be, %m, %v {epsilon = 0.01 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// A variance that makes var + eps non-positive is an error at the
// BatchNormalization, not an inf or NaN weight.
func.func @negative_variance(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %w = graph.constant dense<1.0> : tensor<1x1x1x1xf32>
  %c = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %g = graph.constant dense<1.0> : tensor<1xf32>
  %z = graph.constant dense<0.0> : tensor<1xf32>
  %v = graph.constant dense<-1.0> : tensor<1xf32>
  // expected-error @+1 {{cannot fold into the convolution: var + epsilon = -5.000000e-01 for channel 0 is not positive}}
  %y = graph.batch_norm %c, %g, %z, %z, %v {epsilon = 0.5 : f32} : (tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// -----

// A convolution with another consumer keeps its result: no fold.
// CHECK-LABEL: func.func @shared
// CHECK: graph.batch_norm
func.func @shared(%x: tensor<1x1x2x2xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {
  %w = graph.constant dense<1.0> : tensor<1x1x1x1xf32>
  %c = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %g = graph.constant dense<1.0> : tensor<1xf32>
  %z = graph.constant dense<0.0> : tensor<1xf32>
  %y = graph.batch_norm %c, %g, %z, %z, %g {epsilon = 0.5 : f32} : (tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  return %y, %c : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
}
