// RUN: npuc-opt %s -split-input-file -graph-expand-gather | FileCheck %s

// Ids known at run time go to the indexed DMA (qk.gather) when its fields
// hold the rows: left alone here.
// CHECK-LABEL: func.func @indexed
// CHECK-NOT:  graph.matmul
// CHECK:      graph.gather %{{.*}}, %arg0 {axis = 0 : i64}
func.func @indexed(%ids: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  %t = graph.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0]]> : tensor<5x4xf32>
  %y = graph.gather %t, %ids {axis = 0 : i64} : (tensor<5x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// -----

// Rows longer than the DMA's extent field (70000 elements): a lookup by
// run-time int64 ids is a one-hot product. Negative ids are counted from the
// end (Less, Add V, Where), the one-hot matrix is Equal with 0..V-1 cast to
// f32, and the product with the [V, D] table is reshaped to ids x D.
// CHECK-LABEL: func.func @lookup
// CHECK-DAG:  %[[T:.*]] = graph.constant dense<1.000000e+00> : tensor<5x70000xf32>
// CHECK-DAG:  %[[IOTA:.*]] = graph.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi64>
// CHECK-DAG:  %[[V:.*]] = graph.constant dense<5> : tensor<1xi64>
// CHECK-DAG:  %[[Z:.*]] = graph.constant dense<0> : tensor<1xi64>
// CHECK:      %[[IDS:.*]] = graph.reshape %arg0 : (tensor<2x3xi64>) -> tensor<6x1xi64>
// CHECK-NEXT: %[[NEG:.*]] = graph.less %[[IDS]], %[[Z]] : (tensor<6x1xi64>, tensor<1xi64>) -> tensor<6x1xi1>
// CHECK-NEXT: %[[UP:.*]] = graph.add %[[IDS]], %[[V]]
// CHECK-NEXT: %[[W:.*]] = graph.where %[[NEG]], %[[UP]], %[[IDS]]
// CHECK-NEXT: %[[EQ:.*]] = graph.equal %[[W]], %[[IOTA]] : (tensor<6x1xi64>, tensor<5xi64>) -> tensor<6x5xi1>
// CHECK-NEXT: %[[H:.*]] = graph.cast %[[EQ]] : (tensor<6x5xi1>) -> tensor<6x5xf32>
// CHECK-NEXT: %[[M:.*]] = graph.matmul %[[H]], %[[T]] : (tensor<6x5xf32>, tensor<5x70000xf32>) -> tensor<6x70000xf32>
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[M]] : (tensor<6x70000xf32>) -> tensor<2x3x70000xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT:  graph.gather
func.func @lookup(%ids: tensor<2x3xi64>) -> tensor<2x3x70000xf32> {
  %t = graph.constant dense<1.0> : tensor<5x70000xf32>
  %y = graph.gather %t, %ids {axis = 0 : i64} : (tensor<5x70000xf32>, tensor<2x3xi64>) -> tensor<2x3x70000xf32>
  return %y : tensor<2x3x70000xf32>
}

// -----

// BERT's [CLS] pick: an activation gathered along a middle axis by a constant
// index (-1: the last of 3). Constant indices that make few runs are left to
// the lowering, which copies the rows as they are (copy-views.mlir): exact
// for any value, and no product.
// CHECK-LABEL: func.func @cls
// CHECK-NOT:  graph.matmul
// CHECK:      graph.gather %arg0, %{{.*}} {axis = 1 : i64}
// CHECK-NOT:  graph.matmul
func.func @cls(%x: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  %i = graph.constant dense<-1> : tensor<i64>
  %y = graph.gather %x, %i {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<i64>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// Left alone: a constant index out of range (the lowering says so), and an
// f16 table (no f16 matrix product is planned here).
// CHECK-LABEL: func.func @left
// CHECK-COUNT-2: graph.gather
func.func @left(%x: tensor<3x4xf32>, %h: tensor<3x4xf16>, %ids: tensor<2xi64>) -> (tensor<4xf32>, tensor<2x4xf16>) {
  %i = graph.constant dense<3> : tensor<i64>
  %y = graph.gather %x, %i {axis = 0 : i64} : (tensor<3x4xf32>, tensor<i64>) -> tensor<4xf32>
  %z = graph.gather %h, %ids {axis = 0 : i64} : (tensor<3x4xf16>, tensor<2xi64>) -> tensor<2x4xf16>
  return %y, %z : tensor<4xf32>, tensor<2x4xf16>
}

// -----

// GatherElements along axis 0: the ids, with a new axis of V = 3 after the
// gathered one, equal 0..2; the data, with a new axis of 1 before it, is
// selected where they do (else 0) and summed along the new axis.
// CHECK-LABEL: func.func @elements
// CHECK-DAG:  %[[ZERO:.*]] = graph.constant dense<0.000000e+00> : tensor<1xf32>
// CHECK-DAG:  %[[IOTA:.*]] = graph.constant dense<{{\[\[\[}}0], [1], [2]]]> : tensor<1x3x1xi64>
// CHECK:      %[[IDS:.*]] = graph.reshape %arg1 : (tensor<2x2xi64>) -> tensor<2x1x2xi64>
// CHECK:      %[[W:.*]] = graph.where %{{.*}}, %{{.*}}, %[[IDS]] : (tensor<2x1x2xi1>, tensor<2x1x2xi64>, tensor<2x1x2xi64>) -> tensor<2x1x2xi64>
// CHECK-NEXT: %[[EQ:.*]] = graph.equal %[[W]], %[[IOTA]] : (tensor<2x1x2xi64>, tensor<1x3x1xi64>) -> tensor<2x3x2xi1>
// CHECK-NEXT: %[[D:.*]] = graph.reshape %arg0 : (tensor<3x2xf32>) -> tensor<1x3x2xf32>
// CHECK-NEXT: %[[P:.*]] = graph.where %[[EQ]], %[[D]], %[[ZERO]] : (tensor<2x3x2xi1>, tensor<1x3x2xf32>, tensor<1xf32>) -> tensor<2x3x2xf32>
// CHECK-NEXT: graph.reduce_sum %[[P]] {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x2xf32>) -> tensor<2x2xf32>
// CHECK-NOT:  graph.gather_elements
func.func @elements(%x: tensor<3x2xf32>, %i: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %y = graph.gather_elements %x, %i {axis = 0 : i64} : (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// -----

// Linear Resize is separable: the last axis (W 4 -> 2, half_pixel at scale
// 0.5: x = 2o + 0.5, weights 0.5 and 0.5) is the data [2, 4] times M^T; then
// H (2 -> 4 at scale 2: x = (o + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25,
// clamped to [0, 1]) is M [4, 2] times the data [2, 2].
// CHECK-LABEL: func.func @linear_resize
// CHECK-DAG: %[[MH:.*]] = graph.constant dense<{{\[}}[1.000000e+00, 0.000000e+00], [7.500000e-01, 2.500000e-01], [2.500000e-01, 7.500000e-01], [0.000000e+00, 1.000000e+00]]> : tensor<4x2xf32>
// CHECK-DAG: %[[MW:.*]] = graph.constant dense<{{\[}}[5.000000e-01, 0.000000e+00], [5.000000e-01, 0.000000e+00], [0.000000e+00, 5.000000e-01], [0.000000e+00, 5.000000e-01]]> : tensor<4x2xf32>
// CHECK: %[[R:.*]] = graph.reshape %arg0 : (tensor<1x1x2x4xf32>) -> tensor<2x4xf32>
// CHECK: %[[W:.*]] = graph.matmul %[[R]], %[[MW]] : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
// CHECK: graph.matmul %[[MH]], %{{.*}} : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
// CHECK-NOT: graph.resize
func.func @linear_resize(%x: tensor<1x1x2x4xf32>) -> tensor<1x1x4x2xf32> {
  %y = graph.resize %x {coordinate_transformation_mode = "half_pixel", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = false, mode = "linear", nearest_mode = "round_prefer_floor", scales = array<f32: 1.0, 1.0, 2.0, 0.5>} : (tensor<1x1x2x4xf32>) -> tensor<1x1x4x2xf32>
  return %y : tensor<1x1x4x2xf32>
}

// -----

// align_corners uses ONNX's resized length in * scale, 2.4 here, not the
// whole 2: output 1 samples x = 1 * 3 / 1.4 = 2.142857 (weights about 6/7
// and 1/7; the scale is the f32 0.60000002, so not exactly).
// A middle axis (C, 3 -> 3 at scale 1) is the identity and left alone.
// CHECK-LABEL: func.func @linear_align_corners
// CHECK: graph.constant dense<{{\[}}[1.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00], [0.000000e+00, 0.857142984], [0.000000e+00, 1.428570e-01]]> : tensor<4x2xf32>
// CHECK: graph.matmul {{.*}} : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
// CHECK-NOT: graph.matmul
func.func @linear_align_corners(%x: tensor<1x3x4xf32>) -> tensor<1x3x2xf32> {
  %y = graph.resize %x {coordinate_transformation_mode = "align_corners", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = false, mode = "linear", nearest_mode = "round_prefer_floor", scales = array<f32: 1.0, 1.0, 0.6>} : (tensor<1x3x4xf32>) -> tensor<1x3x2xf32>
  return %y : tensor<1x3x2xf32>
}

// -----

// antialias halving 4 -> 2 (linear): the triangle stretched to 4 taps, x0 - 1
// .. x0 + 2 around x = 2o + 0.5, weighted 0.25, 0.75, 0.75, 0.25 and
// normalized (/2); the tap left of 0 and right of 3 clamp to the edge.
// Transposed: column o of the [4, 2] matrix is output o's weights.
// CHECK-LABEL: func.func @linear_antialias
// CHECK: graph.constant dense<{{\[}}[5.000000e-01, 0.000000e+00], [3.750000e-01, 1.250000e-01], [1.250000e-01, 3.750000e-01], [0.000000e+00, 5.000000e-01]]> : tensor<4x2xf32>
func.func @linear_antialias(%x: tensor<1x3x4xf32>) -> tensor<1x3x2xf32> {
  %y = graph.resize %x {antialias = true, coordinate_transformation_mode = "half_pixel", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = false, mode = "linear", nearest_mode = "round_prefer_floor", scales = array<f32: 1.0, 1.0, 0.5>} : (tensor<1x3x4xf32>) -> tensor<1x3x2xf32>
  return %y : tensor<1x3x2xf32>
}

// -----

// tf_crop_and_resize along the last axis (4 -> 3, roi [0.5, 1.5]): outputs
// at x = 1.5, 3 and 4.5; the last leaves [0, 3], so its matrix column is 0
// and a constant mask selects extrapolation_value there.
// CHECK-LABEL: func.func @crop_extrapolation
// CHECK-DAG: %[[M:.*]] = graph.constant dense<{{\[}}[0.000000e+00, 0.000000e+00, 0.000000e+00], [5.000000e-01, 0.000000e+00, 0.000000e+00], [5.000000e-01, 0.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 0.000000e+00]]> : tensor<4x3xf32>
// CHECK-DAG: %[[MASK:.*]] = graph.constant dense<{{\[\[\[}}false, false, true]]]> : tensor<1x1x3xi1>
// CHECK-DAG: %[[E:.*]] = graph.constant dense<7.000000e+00> : tensor<1xf32>
// CHECK: %[[P:.*]] = graph.matmul {{.*}}, %[[M]]
// CHECK: %[[R:.*]] = graph.reshape %[[P]]
// CHECK: graph.where %[[MASK]], %[[E]], %[[R]] : (tensor<1x1x3xi1>, tensor<1xf32>, tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
func.func @crop_extrapolation(%x: tensor<1x2x4xf32>) -> tensor<1x2x3xf32> {
  %y = graph.resize %x {coordinate_transformation_mode = "tf_crop_and_resize", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = false, extrapolation_value = 7.0 : f32, mode = "linear", nearest_mode = "round_prefer_floor", roi = array<f32: 0.0, 0.0, 0.5, 1.0, 1.0, 1.5>, scales = array<f32: 1.0, 1.0, 0.75>} : (tensor<1x2x4xf32>) -> tensor<1x2x3xf32>
  return %y : tensor<1x2x3xf32>
}

// -----

// Nearest Resize is a copy at lowering, not a product.
// CHECK-LABEL: func.func @nearest_resize
// CHECK: graph.resize
// CHECK-NOT: graph.matmul
func.func @nearest_resize(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %y = graph.resize %x {coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = false, mode = "nearest", nearest_mode = "floor", scales = array<f32: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}

// -----

// Cubic (a = -0.75), half_pixel, 4 -> 2: x = 0.5 and 2.5 take Keys's weights
// -0.09375, 0.59375, 0.59375, -0.09375 at x0 - 1 .. x0 + 2; index -1 and 4
// clamp to the edge, adding their weight to 0 and 3.
// CHECK-LABEL: func.func @cubic_resize
// CHECK: %[[M:.*]] = graph.constant dense<{{\[}}[5.000000e-01, 0.000000e+00], [5.937500e-01, -9.375000e-02], [-9.375000e-02, 5.937500e-01], [0.000000e+00, 5.000000e-01]]> : tensor<4x2xf32>
// CHECK: graph.matmul %{{.*}}, %[[M]] : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
func.func @cubic_resize(%x: tensor<1x1x1x4xf32>) -> tensor<1x1x1x2xf32> {
  %y = graph.resize %x {coordinate_transformation_mode = "half_pixel", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = false, mode = "cubic", nearest_mode = "round_prefer_floor", scales = array<f32: 1.0, 1.0, 1.0, 0.5>} : (tensor<1x1x1x4xf32>) -> tensor<1x1x1x2xf32>
  return %y : tensor<1x1x1x2xf32>
}

// -----

// exclude_outside drops index -1 (and 4) and renormalizes the other three
// weights by their sum 1.09375.
// CHECK-LABEL: func.func @cubic_resize_exclude_outside
// CHECK: graph.constant dense<{{\[}}[0.54285717, 0.000000e+00], [0.54285717, -0.085714288], [-0.085714288, 0.54285717], [0.000000e+00, 0.54285717]]> : tensor<4x2xf32>
func.func @cubic_resize_exclude_outside(%x: tensor<1x1x1x4xf32>) -> tensor<1x1x1x2xf32> {
  %y = graph.resize %x {coordinate_transformation_mode = "half_pixel", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = true, mode = "cubic", nearest_mode = "round_prefer_floor", scales = array<f32: 1.0, 1.0, 1.0, 0.5>} : (tensor<1x1x1x4xf32>) -> tensor<1x1x1x2xf32>
  return %y : tensor<1x1x1x2xf32>
}
