// RUN: npuc-opt %s -split-input-file -graph-expand-lrn | FileCheck %s

// LRN across 4 channels, size 3 (window c - 1 .. c + 1): the squares'
// window sums are one product of a band matrix holding alpha / size (1e-4)
// by the squares viewed as [C, H * W]; then + bias, Pow beta, x / that.
// CHECK-LABEL: func.func @lrn
// CHECK-DAG:  %[[BETA:.*]] = graph.constant dense<7.500000e-01> : tensor<1xf32>
// CHECK-DAG:  %[[BIAS:.*]] = graph.constant dense<2.000000e+00> : tensor<1xf32>
// CHECK-DAG:  %[[BAND:.*]] = graph.constant dense<{{\[}}[1.00000005E-4, 1.00000005E-4, 0.000000e+00, 0.000000e+00], [1.00000005E-4, 1.00000005E-4, 1.00000005E-4, 0.000000e+00], [0.000000e+00, 1.00000005E-4, 1.00000005E-4, 1.00000005E-4], [0.000000e+00, 0.000000e+00, 1.00000005E-4, 1.00000005E-4]]> : tensor<4x4xf32>
// CHECK:      %[[SQ:.*]] = graph.mul %arg0, %arg0
// CHECK-NEXT: %[[V:.*]] = graph.reshape %[[SQ]] : (tensor<1x4x2x3xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[SUM:.*]] = graph.matmul %[[BAND]], %[[V]] : (tensor<4x4xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[S:.*]] = graph.reshape %[[SUM]] : (tensor<4x6xf32>) -> tensor<1x4x2x3xf32>
// CHECK-NEXT: %[[D:.*]] = graph.add %[[S]], %[[BIAS]]
// CHECK-NEXT: %[[P:.*]] = graph.pow %[[D]], %[[BETA]]
// CHECK-NEXT: %[[Y:.*]] = graph.div %arg0, %[[P]]
// CHECK-NEXT: return %[[Y]]
func.func @lrn(%x: tensor<1x4x2x3xf32>) -> tensor<1x4x2x3xf32> {
  %y = graph.lrn %x {size = 3 : i64, alpha = 3.0e-4 : f32, beta = 0.75 : f32, bias = 2.0 : f32} : (tensor<1x4x2x3xf32>) -> tensor<1x4x2x3xf32>
  return %y : tensor<1x4x2x3xf32>
}

// -----

// An even size takes one channel more after than before (ONNX's floor and
// ceil of (size - 1) / 2); two images take a band each (a batched product).
// CHECK-LABEL: func.func @lrn_even_batched
// CHECK:      graph.constant dense<{{\[\[}}[5.000000e-01, 5.000000e-01, 5.000000e-01], [5.000000e-01, 5.000000e-01, 5.000000e-01], [0.000000e+00, 5.000000e-01, 5.000000e-01]], {{\[}}[5.000000e-01, 5.000000e-01, 5.000000e-01], [5.000000e-01, 5.000000e-01, 5.000000e-01], [0.000000e+00, 5.000000e-01, 5.000000e-01]]]> : tensor<2x3x3xf32>
// CHECK:      graph.matmul %{{.*}}, %{{.*}} : (tensor<2x3x3xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
func.func @lrn_even_batched(%x: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %y = graph.lrn %x {size = 4 : i64, alpha = 2.0 : f32, beta = 0.5 : f32, bias = 1.0 : f32} : (tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}

// -----

// Other element types are left alone (the lowering refuses them at the node).
// CHECK-LABEL: func.func @lrn_f16
// CHECK:      graph.lrn
func.func @lrn_f16(%x: tensor<1x4x2xf16>) -> tensor<1x4x2xf16> {
  %y = graph.lrn %x {size = 3 : i64, alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32} : (tensor<1x4x2xf16>) -> tensor<1x4x2xf16>
  return %y : tensor<1x4x2xf16>
}
