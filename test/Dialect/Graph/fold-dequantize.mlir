// RUN: npuc-opt %s -split-input-file -graph-fold-dequantize | FileCheck %s

// Weight-only quantization: DequantizeLinear of constant weights becomes the
// f32 constant it computes, (q - zp) * scale per axis 0 (worked by hand):
//   channel 0 (scale 0.5, zp 1): [3, -1] -> [1.0, -1.0]
//   channel 1 (scale 0.25, zp 0): [4, 2] -> [1.0, 0.5]
// CHECK-LABEL: func.func @per_axis
// CHECK: %[[W:.*]] = graph.constant dense<{{\[}}[1.000000e+00, -1.000000e+00], [1.000000e+00, 5.000000e-01]]> : tensor<2x2xf32>
// CHECK-NOT: graph.dequantize
// CHECK: graph.matmul %arg0, %[[W]]
func.func @per_axis(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %q = graph.constant dense<[[3, -1], [4, 2]]> : tensor<2x2xi8> -> tensor<2x2x!quant.uniform<i8:f32:0, {0.5:1, 0.25}>>
  %w = graph.dequantize %q : (tensor<2x2x!quant.uniform<i8:f32:0, {0.5:1, 0.25}>>) -> tensor<2x2xf32>
  %y = graph.matmul %x, %w : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// -----

// Per tensor, unsigned (stored as i8: 200 is -56): (200 - 128) * 0.125 = 9.0,
// (0 - 128) * 0.125 = -16.0.
// CHECK-LABEL: func.func @per_tensor
// CHECK: graph.constant dense<[9.000000e+00, -1.600000e+01]> : tensor<2xf32>
// CHECK-NOT: graph.dequantize
func.func @per_tensor(%x: tensor<2xf32>) -> tensor<2xf32> {
  %q = graph.constant dense<[-56, 0]> : tensor<2xi8> -> tensor<2x!quant.uniform<u8:f32, 0.125:128>>
  %w = graph.dequantize %q : (tensor<2x!quant.uniform<u8:f32, 0.125:128>>) -> tensor<2xf32>
  %y = graph.add %x, %w : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// A dequantize of a value computed at run time stays.
// CHECK-LABEL: func.func @runtime
// CHECK: graph.dequantize %arg0
func.func @runtime(%x: tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xf32> {
  %y = graph.dequantize %x : (tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// The data movement between the weights and their product (an RNN's
// expansion slices, transposes and pads its gates) folds with them: the
// product reads one constant, W^T with a zero column (worked by hand:
// (q - 0) * 0.5 = [[1, 2], [3, 4]], transposed [[1, 3], [2, 4]], then a
// zero column). An op with a run-time operand stays.
// CHECK-LABEL: func.func @movement
// CHECK:      %[[W:.*]] = graph.constant dense<{{\[}}[1.000000e+00, 3.000000e+00, 0.000000e+00], [2.000000e+00, 4.000000e+00, 0.000000e+00]]> : tensor<2x3xf32>
// CHECK-NOT:  graph.slice
// CHECK-NOT:  graph.transpose
// CHECK:      graph.matmul %arg0, %[[W]]
// CHECK:      graph.concat %{{.*}}, %arg0 {axis = 0 : i64}
func.func @movement(%x: tensor<1x2xf32>) -> (tensor<1x3xf32>, tensor<3x2xf32>) {
  %q = graph.constant dense<[[[2, 4], [6, 8]]]> : tensor<1x2x2xi8> -> tensor<1x2x2x!quant.uniform<i8:f32, 0.5>>
  %w = graph.dequantize %q : (tensor<1x2x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x2xf32>
  %s = graph.slice %w {starts = array<i64: 0, 0, 0>, ends = array<i64: 1, 2, 2>, steps = array<i64: 1, 1, 1>} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %r = graph.reshape %s : (tensor<1x2x2xf32>) -> tensor<2x2xf32>
  %t = graph.transpose %r {perm = array<i64: 1, 0>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %z = graph.constant dense<0.0> : tensor<2x1xf32>
  %p = graph.concat %t, %z {axis = 1 : i64} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %y = graph.matmul %x, %p : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x3xf32>
  %c = graph.concat %r, %x {axis = 0 : i64} : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
  return %y, %c : tensor<1x3xf32>, tensor<3x2xf32>
}

// -----

// Gate padding as graph-simplify leaves it: one zero constant between the
// gates (read twice by the concat), and a concat reading one dequantized
// constant twice. Both fold; each constant read by a folded op is erased
// once, when nothing reads it.
// (q - 0) * 0.5: [2, 4] -> [1, 2].
// CHECK-LABEL: func.func @shared_operands
// CHECK-DAG:  %[[P:.*]] = graph.constant dense<{{\[}}[1.000000e+00, 0.000000e+00, 2.000000e+00, 0.000000e+00]]> : tensor<1x4xf32>
// CHECK-DAG:  %[[T:.*]] = graph.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [1.000000e+00, 2.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT:  graph.concat
// CHECK-NOT:  graph.slice
// CHECK:      return %[[P]], %[[T]]
func.func @shared_operands() -> (tensor<1x4xf32>, tensor<2x2xf32>) {
  %q = graph.constant dense<[[2, 4]]> : tensor<1x2xi8> -> tensor<1x2x!quant.uniform<i8:f32, 0.5>>
  %w = graph.dequantize %q : (tensor<1x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2xf32>
  %g0 = graph.slice %w {starts = array<i64: 0, 0>, ends = array<i64: 1, 1>, steps = array<i64: 1, 1>} : (tensor<1x2xf32>) -> tensor<1x1xf32>
  %g1 = graph.slice %w {starts = array<i64: 0, 1>, ends = array<i64: 1, 2>, steps = array<i64: 1, 1>} : (tensor<1x2xf32>) -> tensor<1x1xf32>
  %z = graph.constant dense<0.0> : tensor<1x1xf32>
  %p = graph.concat %g0, %z, %g1, %z {axis = 1 : i64} : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %t = graph.concat %w, %w {axis = 0 : i64} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  return %p, %t : tensor<1x4xf32>, tensor<2x2xf32>
}
