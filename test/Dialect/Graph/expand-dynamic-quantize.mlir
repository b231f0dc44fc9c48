// RUN: npuc-opt %s -split-input-file -graph-expand-dynamic-quantize | FileCheck %s

// DynamicQuantizeLinear in ONNX's steps: the range widened to include 0, the
// scale (max - min) / 255, the zero point round(clip(-min / scale, 0, 255)),
// y = clip(round(x / scale) + zero point, 0, 255) cast to ui8; the scale and
// zero point reshaped to rank 0.
// CHECK-LABEL: func.func @dql
// CHECK-DAG:  %[[C255:.*]] = graph.constant dense<2.550000e+02> : tensor<1x1xf32>
// CHECK-DAG:  %[[ZERO:.*]] = graph.constant dense<0.000000e+00> : tensor<1x1xf32>
// CHECK-DAG:  %[[MIN:.*]] = graph.reduce_min %arg0 {axes = array<i64: 0, 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<1x1xf32>
// CHECK-DAG:  %[[MAX:.*]] = graph.reduce_max %arg0 {axes = array<i64: 0, 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<1x1xf32>
// CHECK-DAG:  %[[LO:.*]] = graph.min %[[MIN]], %[[ZERO]]
// CHECK-DAG:  %[[HI:.*]] = graph.max %[[MAX]], %[[ZERO]]
// CHECK:      %[[RANGE:.*]] = graph.sub %[[HI]], %[[LO]]
// CHECK-NEXT: %[[SCALE:.*]] = graph.div %[[RANGE]], %[[C255]]
// CHECK-NEXT: %[[NEG:.*]] = graph.sub %[[ZERO]], %[[LO]]
// CHECK-NEXT: %[[ZF:.*]] = graph.div %[[NEG]], %[[SCALE]]
// CHECK-NEXT: %[[ZC:.*]] = graph.clip %[[ZF]] {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64}
// CHECK-NEXT: %[[ZR:.*]] = graph.round %[[ZC]]
// CHECK-NEXT: %[[Q:.*]] = graph.div %arg0, %[[SCALE]] : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[QR:.*]] = graph.round %[[Q]]
// CHECK-NEXT: %[[QZ:.*]] = graph.add %[[QR]], %[[ZR]]
// CHECK-NEXT: %[[QC:.*]] = graph.clip %[[QZ]] {max = 2.550000e+02 : f64, min = 0.000000e+00 : f64}
// CHECK-NEXT: %[[Y:.*]] = graph.cast %[[QC]] : (tensor<2x3xf32>) -> tensor<2x3xui8>
// CHECK-NEXT: %[[ZU:.*]] = graph.cast %[[ZR]] : (tensor<1x1xf32>) -> tensor<1x1xui8>
// CHECK-NEXT: %[[S0:.*]] = graph.reshape %[[SCALE]] : (tensor<1x1xf32>) -> tensor<f32>
// CHECK-NEXT: %[[Z0:.*]] = graph.reshape %[[ZU]] : (tensor<1x1xui8>) -> tensor<ui8>
// CHECK-NEXT: return %[[Y]], %[[S0]], %[[Z0]]
func.func @dql(%x: tensor<2x3xf32>) -> (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %z = graph.dynamic_quantize %x : (tensor<2x3xf32>) -> (tensor<2x3xui8>, tensor<f32>, tensor<ui8>)
  return %y, %s, %z : tensor<2x3xui8>, tensor<f32>, tensor<ui8>
}

// -----

// A rank-0 input is its own minimum and maximum: no reduction.
// CHECK-LABEL: func.func @dql_scalar
// CHECK-NOT:  graph.reduce_min
// CHECK:      graph.min %arg0, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
func.func @dql_scalar(%x: tensor<f32>) -> (tensor<ui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %z = graph.dynamic_quantize %x : (tensor<f32>) -> (tensor<ui8>, tensor<f32>, tensor<ui8>)
  return %y, %s, %z : tensor<ui8>, tensor<f32>, tensor<ui8>
}
