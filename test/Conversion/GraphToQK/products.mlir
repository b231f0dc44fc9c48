// convert-elementwise-to-qk: a float graph.matmul (f32, or f16 after
// graph-compute-f16, with an f16 or f32 result) becomes qk.matmul's float
// form: f32 accumulation, no zero points, bias or requantization. Batch
// dimensions that broadcast stay as they are, for the lowering to refuse at
// the node; a matmul of plain integers stays a graph op (it has no kernel).
// RUN: npuc-opt %s -split-input-file --convert-elementwise-to-qk | FileCheck %s

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
