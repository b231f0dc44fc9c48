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

// -----

// A Mul of one value per channel scales that channel's weights and bias,
// then the Add folds into the bias: worked by hand, w' = [2 x 3, 2 x -0.5]
// = [6, -1], b' = [1 x 3 + 0.25, 2 x -0.5 + 1] = [3.25, 0]. The Mul's
// constant may come first.
// CHECK-LABEL: func.func @scale_then_bias
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}6.000000e+00]]], {{\[\[\[}}-1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<[3.250000e+00, 0.000000e+00]> : tensor<2xf32>
// CHECK:     %[[Y:.*]] = graph.conv %arg0, %[[W]], %[[B]]
// CHECK-NOT: graph.mul
// CHECK-NOT: graph.add
// CHECK:     return %[[Y]]
func.func @scale_then_bias(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<2.0> : tensor<2x1x1x1xf32>
  %b = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %s = graph.constant dense<[[[3.0]], [[-0.5]]]> : tensor<2x1x1xf32>
  %t = graph.constant dense<[[[0.25]], [[1.0]]]> : tensor<2x1x1xf32>
  %c = graph.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %m = graph.mul %s, %c : (tensor<2x1x1xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %y = graph.add %m, %t : (tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// A weight times the scale outside f32 (3e38 x 2) leaves the Mul as it is.
// CHECK-LABEL: func.func @scale_overflows
// CHECK: graph.conv
// CHECK: graph.mul
func.func @scale_overflows(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %w = graph.constant dense<3.0e38> : tensor<1x1x1x1xf32>
  %s = graph.constant dense<2.0> : tensor<1x1x1xf32>
  %c = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %m = graph.mul %c, %s : (tensor<1x1x2x2xf32>, tensor<1x1x1xf32>) -> tensor<1x1x2x2xf32>
  return %m : tensor<1x1x2x2xf32>
}

// -----

// x * s + b by per-channel constants that no convolution absorbs is one
// channel-affine pass, its parameters one value per channel (the scalar
// scale repeated).
// CHECK-LABEL: func.func @affine
// CHECK-DAG: %[[S:.*]] = graph.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK-DAG: %[[B:.*]] = graph.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK:     %[[Y:.*]] = graph.channel_affine %arg0, %[[S]], %[[B]] : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NOT: graph.mul
// CHECK-NOT: graph.add
// CHECK:     return %[[Y]]
func.func @affine(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
  %s = graph.constant dense<0.5> : tensor<f32>
  %b = graph.constant dense<[[[1.0]], [[2.0]], [[3.0]]]> : tensor<3x1x1xf32>
  %m = graph.mul %x, %s : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<2x3x4x5xf32>
  %y = graph.add %b, %m : (tensor<3x1x1xf32>, tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  return %y : tensor<2x3x4x5xf32>
}

// -----

// Left as two ops: a scale that varies along W, a Mul with a second use, a
// bias that is an activation, and an i32 tensor.
// CHECK-LABEL: func.func @not_affine
// CHECK-NOT: graph.channel_affine
// CHECK-COUNT-4: graph.mul
// CHECK-NOT: graph.channel_affine
func.func @not_affine(%x: tensor<1x3x4x5xf32>, %a: tensor<1x3x4x5xf32>, %n: tensor<1x3x4x5xi32>) -> (tensor<1x3x4x5xf32>, tensor<1x3x4x5xf32>, tensor<1x3x4x5xf32>, tensor<1x3x4x5xf32>, tensor<1x3x4x5xi32>) {
  %row = graph.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %c = graph.constant dense<[[[1.0]], [[2.0]], [[3.0]]]> : tensor<3x1x1xf32>
  %ci = graph.constant dense<[[[1]], [[2]], [[3]]]> : tensor<3x1x1xi32>
  %m0 = graph.mul %x, %row : (tensor<1x3x4x5xf32>, tensor<5xf32>) -> tensor<1x3x4x5xf32>
  %y0 = graph.add %m0, %c : (tensor<1x3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x5xf32>
  %m1 = graph.mul %x, %c : (tensor<1x3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x5xf32>
  %y1 = graph.add %m1, %c : (tensor<1x3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x5xf32>
  %m2 = graph.mul %x, %c : (tensor<1x3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x5xf32>
  %y2 = graph.add %m2, %a : (tensor<1x3x4x5xf32>, tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  %m3 = graph.mul %n, %ci : (tensor<1x3x4x5xi32>, tensor<3x1x1xi32>) -> tensor<1x3x4x5xi32>
  %y3 = graph.add %m3, %ci : (tensor<1x3x4x5xi32>, tensor<3x1x1xi32>) -> tensor<1x3x4x5xi32>
  return %y0, %y1, %m1, %y2, %y3 : tensor<1x3x4x5xf32>, tensor<1x3x4x5xf32>, tensor<1x3x4x5xf32>, tensor<1x3x4x5xf32>, tensor<1x3x4x5xi32>
}

// -----

// An Add of one value per column after an f32 MatMul with 2-D weights is a
// Gemm whose C is that constant: the product's leading axes are its rows
// (a reshape each way), the bias added to the finished sums as before.
// CHECK-LABEL: func.func @matmul_bias
// CHECK: %[[A:.*]] = graph.reshape %arg0 : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[C:.*]] = graph.constant dense<[5.000000e-01, -1.000000e+00]> : tensor<2xf32>
// CHECK: %[[G:.*]] = graph.gemm %[[A]], %arg1, %[[C]] {alpha = 1.000000e+00 : f32, beta = 1.000000e+00 : f32, trans_a = false, trans_b = false} : (tensor<4x3xf32>, tensor<3x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK: %[[Y:.*]] = graph.reshape %[[G]] : (tensor<4x2xf32>) -> tensor<1x4x2xf32>
// CHECK-NOT: graph.add
// CHECK-NOT: graph.matmul
// CHECK: return %[[Y]]
func.func @matmul_bias(%x: tensor<1x4x3xf32>, %w: tensor<3x2xf32>) -> tensor<1x4x2xf32> {
  %b = graph.constant dense<[[0.5, -1.0]]> : tensor<1x2xf32>
  %y = graph.matmul %x, %w : (tensor<1x4x3xf32>, tensor<3x2xf32>) -> tensor<1x4x2xf32>
  %s = graph.add %b, %y : (tensor<1x2xf32>, tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  return %s : tensor<1x4x2xf32>
}

// -----

// 2-D operands need no reshape; one value for all columns is repeated.
// CHECK-LABEL: func.func @matmul_scalar_bias
// CHECK: %[[C:.*]] = graph.constant dense<2.500000e-01> : tensor<3xf32>
// CHECK: %[[G:.*]] = graph.gemm %arg0, %arg1, %[[C]]
// CHECK-NOT: graph.reshape
// CHECK: return %[[G]]
func.func @matmul_scalar_bias(%x: tensor<4x2xf32>, %w: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %b = graph.constant dense<0.25> : tensor<f32>
  %y = graph.matmul %x, %w : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %s = graph.add %y, %b : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}

// -----

// Left as they are: a constant that varies along the rows, a product with
// a second use, an Add of two activations, a batched right operand, and a
// product of dequantized operands (graph-fuse-qdq's).
// CHECK-LABEL: func.func @matmul_kept
// CHECK-COUNT-5: graph.add
// CHECK-NOT: graph.gemm
func.func @matmul_kept(%x: tensor<4x2xf32>, %w: tensor<2x3xf32>, %z: tensor<4x3xf32>,
                       %xb: tensor<2x4x2xf32>, %wb: tensor<2x2x3xf32>,
                       %q: tensor<4x2x!quant.uniform<i8:f32, 0.5>>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x4x3xf32>, tensor<4x3xf32>) {
  %rows = graph.constant dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf32>
  %cols = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y1 = graph.matmul %x, %w : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %s1 = graph.add %y1, %rows : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  %y2 = graph.matmul %x, %w {second} : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %s2 = graph.add %y2, %cols : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %y3 = graph.matmul %x, %w {third} : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %s3 = graph.add %y3, %z : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %y4 = graph.matmul %xb, %wb : (tensor<2x4x2xf32>, tensor<2x2x3xf32>) -> tensor<2x4x3xf32>
  %s4 = graph.add %y4, %cols : (tensor<2x4x3xf32>, tensor<3xf32>) -> tensor<2x4x3xf32>
  %dq = graph.dequantize %q : (tensor<4x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x2xf32>
  %y5 = graph.matmul %dq, %w : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %s5 = graph.add %y5, %cols : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %s1, %s2, %y2, %s3, %s4, %s5 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x4x3xf32>, tensor<4x3xf32>
}

// -----

// An empty product (K = 0: every sum is 0) has no rows to reshape: kept.
// CHECK-LABEL: func.func @matmul_empty_kept
// CHECK: graph.matmul
// CHECK: graph.add
// CHECK-NOT: graph.gemm
func.func @matmul_empty_kept(%x: tensor<4x0xf32>, %w: tensor<0x3xf32>) -> tensor<4x3xf32> {
  %b = graph.constant dense<0.25> : tensor<3xf32>
  %y = graph.matmul %x, %w : (tensor<4x0xf32>, tensor<0x3xf32>) -> tensor<4x3xf32>
  %s = graph.add %y, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}
