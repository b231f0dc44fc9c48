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
