// RUN: npuc-opt %s -split-input-file -graph-fold-bias | FileCheck %s

// An Add of one value per output channel after an f32 convolution becomes
// its bias; the Relu after it is left to graph-fuse-activation.
// CHECK-LABEL: func.func @per_channel
// CHECK: %[[B:.*]] = graph.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf32>
// CHECK: %[[Y:.*]] = graph.conv %arg0, %arg1, %[[B]] {{.*}} -> tensor<1x2x3x3xf32>
// CHECK-NOT: graph.add
// CHECK: graph.relu %[[Y]]
func.func @per_channel(%x: tensor<1x1x5x5xf32>, %w: tensor<2x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %c = graph.constant dense<[[[1.5]], [[-2.0]]]> : tensor<2x1x1xf32>
  %y = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x5x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x3x3xf32>
  %s = graph.add %c, %y : (tensor<2x1x1xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %r = graph.relu %s : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}

// -----

// A bias the convolution has already, and one value for every channel: the
// sums, in f32.
// CHECK-LABEL: func.func @existing_bias
// CHECK: %[[B:.*]] = graph.constant dense<[1.250000e+00, 2.250000e+00]> : tensor<2xf32>
// CHECK: graph.conv %arg0, %arg1, %[[B]]
// CHECK-NOT: graph.add
func.func @existing_bias(%x: tensor<1x1x5x5xf32>, %w: tensor<2x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %b = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c = graph.constant dense<0.25> : tensor<1x1x1x1xf32>
  %y = graph.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x5x5xf32>, tensor<2x1x3x3xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %s = graph.add %y, %c : (tensor<1x2x3x3xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %s : tensor<1x2x3x3xf32>
}

// -----

// Left as they are: a constant that varies along W (not per channel), a
// convolution with a second use, an Add of two activations, and a
// convolution of dequantized operands (graph-fuse-qdq's).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: graph.add
func.func @kept(%x: tensor<1x1x5x5xf32>, %w: tensor<2x1x3x3xf32>, %q: tensor<1x1x5x5x!quant.uniform<i8:f32, 0.5>>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %row = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %one = graph.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %y = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x5x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x3x3xf32>
  %a = graph.add %y, %row : (tensor<1x2x3x3xf32>, tensor<3xf32>) -> tensor<1x2x3x3xf32>
  %y2 = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x5x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x3x3xf32>
  %b = graph.add %y2, %one : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %c = graph.add %a, %b : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %dq = graph.dequantize %q : (tensor<1x1x5x5x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x5x5xf32>
  %y3 = graph.conv %dq, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x5x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x3x3xf32>
  %d = graph.add %y3, %one : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %a, %c, %d, %y2 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}
