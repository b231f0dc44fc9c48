// convert-elementwise-to-qk: a float graph.matmul (f32, or f16 after
// graph-compute-f16, with an f16 or f32 result) becomes qk.matmul's float
// form: f32 accumulation, no zero points, bias or requantization. Batch
// dimensions that broadcast stay as they are, for the lowering to refuse at
// the node; a matmul of plain integers stays a graph op (it has no kernel).
// A 2-D float graph.conv becomes qk.conv2d's float form, its fused
// activation (graph-fuse-activation) as #qk.activation with the clip's
// bounds; a float convolution of another rank or a quantized Gemm stays a
// graph op, for select-lowering-cases to refuse (refusals.mlir).
// RUN: npuc-opt %s -split-input-file --convert-elementwise-to-qk -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @f32
// CHECK: %[[Y:.*]] = qk.matmul %arg0, %arg1 {acc_type = f32} : (tensor<2x4x8xf32>, tensor<8x3xf32>) -> tensor<2x4x3xf32>
// CHECK: return %[[Y]]
func.func @f32(%a: tensor<2x4x8xf32>, %b: tensor<8x3xf32>) -> tensor<2x4x3xf32> {
  %y = graph.matmul %a, %b : (tensor<2x4x8xf32>, tensor<8x3xf32>) -> tensor<2x4x3xf32>
  return %y : tensor<2x4x3xf32>
}

// -----

// CHECK-LABEL: func.func @f16
// CHECK: qk.matmul %arg0, %arg1 {acc_type = f32} : (tensor<4x8xf16>, tensor<8x3xf16>) -> tensor<4x3xf32>
// CHECK: qk.matmul %arg0, %arg1 {acc_type = f32} : (tensor<4x8xf16>, tensor<8x3xf16>) -> tensor<4x3xf16>
func.func @f16(%a: tensor<4x8xf16>, %b: tensor<8x3xf16>) -> (tensor<4x3xf32>, tensor<4x3xf16>) {
  %y = graph.matmul %a, %b : (tensor<4x8xf16>, tensor<8x3xf16>) -> tensor<4x3xf32>
  %z = graph.matmul %a, %b : (tensor<4x8xf16>, tensor<8x3xf16>) -> tensor<4x3xf16>
  return %y, %z : tensor<4x3xf32>, tensor<4x3xf16>
}

// -----

// CHECK-LABEL: func.func @broadcast_batch
// CHECK: qk.matmul %arg0, %arg1 {acc_type = f32} : (tensor<1x4x8xf32>, tensor<3x8x16xf32>) -> tensor<3x4x16xf32>
func.func @broadcast_batch(%a: tensor<1x4x8xf32>, %b: tensor<3x8x16xf32>) -> tensor<3x4x16xf32> {
  %y = graph.matmul %a, %b : (tensor<1x4x8xf32>, tensor<3x8x16xf32>) -> tensor<3x4x16xf32>
  return %y : tensor<3x4x16xf32>
}

// -----

// CHECK-LABEL: func.func @integers
// CHECK: graph.matmul
// CHECK-NOT: qk.matmul
func.func @integers(%a: tensor<4x8xi32>, %b: tensor<8x3xi32>) -> tensor<4x3xi32> {
  %y = graph.matmul %a, %b : (tensor<4x8xi32>, tensor<8x3xi32>) -> tensor<4x3xi32>
  return %y : tensor<4x3xi32>
}

// -----

// CHECK-LABEL: func.func @conv
// CHECK: qk.conv2d %arg0, %arg1, %arg2 {acc_type = f32, activation = #qk.activation<relu>, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
// CHECK: qk.conv2d %arg3, %arg4, %arg2 {acc_type = f32, activation = #qk.activation<clip>, activation_max = 6.000000e+00 : f64, activation_min = 0.000000e+00 : f64, dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf16>, tensor<4x2x1x1xf16>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NOT: graph.conv
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %h: tensor<1x4x8x8xf16>, %g: tensor<4x2x1x1xf16>) -> (tensor<1x4x8x8xf32>, tensor<1x4x4x4xf32>) {
  %y = graph.conv %x, %w, %b {activation = "relu", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %z = graph.conv %h, %g, %b {activation = "clip", activation_min = 0.0 : f64, activation_max = 6.0 : f64, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 2 : i64} : (tensor<1x4x8x8xf16>, tensor<4x2x1x1xf16>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %y, %z : tensor<1x4x8x8xf32>, tensor<1x4x4x4xf32>
}

// -----

// ConvTranspose becomes qk.conv_transpose, operands and attributes as they
// are.
// CHECK-LABEL: func.func @conv_transpose
// CHECK: qk.conv_transpose %arg0, %arg1, %arg2 {dilations = array<i64: 1, 1>, group = 1 : i64, output_padding = array<i64: 0, 0>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>, tensor<2x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NOT: graph.conv_transpose
func.func @conv_transpose(%x: tensor<1x2x3x3xf32>, %w: tensor<2x4x2x2xf32>, %b: tensor<4xf32>) -> tensor<1x4x6x6xf32> {
  %y = graph.conv_transpose %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, group = 1 : i64} : (tensor<1x2x3x3xf32>, tensor<2x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// -----

// A float Gemm is qk.matmul's float form: c is the addend, the transposes
// and scales are carried when they are not ONNX's defaults.
// CHECK-LABEL: func.func @gemm
// CHECK: qk.matmul %arg0, %arg1, %arg2 {acc_type = f32, alpha = 5.000000e-01 : f32, trans_b = true} : (tensor<4x8xf32>, tensor<3x8xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK: qk.matmul %arg0, %arg3 {acc_type = f32} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
// CHECK-NOT: graph.gemm
func.func @gemm(%a: tensor<4x8xf32>, %b: tensor<3x8xf32>, %c: tensor<3xf32>, %d: tensor<8x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %y = graph.gemm %a, %b, %c {alpha = 0.5 : f32, beta = 1.0 : f32, trans_a = false, trans_b = true} : (tensor<4x8xf32>, tensor<3x8xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %z = graph.gemm %a, %d {alpha = 1.0 : f32, beta = 1.0 : f32, trans_a = false, trans_b = false} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %y, %z : tensor<4x3xf32>, tensor<4x3xf32>
}
