// RUN: npuc-opt %s -split-input-file -graph-recognize | FileCheck %s

// x * Clip(x + 3, 0, 6) / 6, as PaddlePaddle exports HardSwish.
// CHECK-LABEL: func.func @hard_swish_div
// CHECK-NEXT:  %[[Y:.*]] = graph.hard_swish %arg0 : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
// CHECK-NEXT:  return %[[Y]]
func.func @hard_swish_div(%x: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %three = graph.constant dense<3.0> : tensor<f32>
  %six = graph.constant dense<6.0> : tensor<f32>
  %a = graph.add %x, %three : (tensor<1x4x2x2xf32>, tensor<f32>) -> tensor<1x4x2x2xf32>
  %c = graph.clip %a {min = 0.0 : f64, max = 6.0 : f64} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %m = graph.mul %x, %c : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %y = graph.div %m, %six : (tensor<1x4x2x2xf32>, tensor<f32>) -> tensor<1x4x2x2xf32>
  return %y : tensor<1x4x2x2xf32>
}

// -----

// The operands the other way round, and times 1/6 instead of / 6.
// CHECK-LABEL: func.func @hard_swish_mul
// CHECK-NEXT:  %[[Y:.*]] = graph.hard_swish %arg0
// CHECK-NEXT:  return %[[Y]]
func.func @hard_swish_mul(%x: tensor<8xf32>) -> tensor<8xf32> {
  %three = graph.constant dense<3.0> : tensor<1xf32>
  %sixth = graph.constant dense<0.166666672> : tensor<f32>
  %a = graph.add %three, %x : (tensor<1xf32>, tensor<8xf32>) -> tensor<8xf32>
  %c = graph.clip %a {min = 0.0 : f64, max = 6.0 : f64} : (tensor<8xf32>) -> tensor<8xf32>
  %m = graph.mul %c, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %y = graph.mul %sixth, %m : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Not HardSwish: a Clip to 5, an Add of 2, and a chain whose Clip is also
// used elsewhere stay as they are.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:   graph.hard_swish
func.func @kept(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %two = graph.constant dense<2.0> : tensor<f32>
  %three = graph.constant dense<3.0> : tensor<f32>
  %six = graph.constant dense<6.0> : tensor<f32>
  %a1 = graph.add %x, %three : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %c1 = graph.clip %a1 {min = 0.0 : f64, max = 5.0 : f64} : (tensor<8xf32>) -> tensor<8xf32>
  %m1 = graph.mul %x, %c1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %y1 = graph.div %m1, %six : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %a2 = graph.add %x, %two : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %c2 = graph.clip %a2 {min = 0.0 : f64, max = 6.0 : f64} : (tensor<8xf32>) -> tensor<8xf32>
  %m2 = graph.mul %x, %c2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %y2 = graph.div %m2, %six : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %a3 = graph.add %x, %three : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %c3 = graph.clip %a3 {min = 0.0 : f64, max = 6.0 : f64} : (tensor<8xf32>) -> tensor<8xf32>
  %m3 = graph.mul %x, %c3 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %y3 = graph.div %m3, %six : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %y1, %y2, %y3, %c3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// The erf GELU as tf2onnx writes it: (x * 0.5) * (erf(x / 1.4142135) + 1).
// CHECK-LABEL: func.func @gelu_tf2onnx
// CHECK-NEXT:  %[[Y:.*]] = graph.gelu %arg0 {approximate = "none"} : (tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
// CHECK-NEXT:  return %[[Y]]
func.func @gelu_tf2onnx(%x: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
  %sqrt2 = graph.constant dense<1.4142135> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %d = graph.div %x, %sqrt2 : (tensor<1x8x16xf32>, tensor<f32>) -> tensor<1x8x16xf32>
  %e = graph.erf %d : (tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %h = graph.mul %x, %half : (tensor<1x8x16xf32>, tensor<f32>) -> tensor<1x8x16xf32>
  %a = graph.add %e, %one : (tensor<1x8x16xf32>, tensor<f32>) -> tensor<1x8x16xf32>
  %y = graph.mul %h, %a : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  return %y : tensor<1x8x16xf32>
}

// -----

// The other grouping, the division as a product with 1/sqrt(2), and the
// operands of each step the other way round: x * ((1 + erf(0.70710677 * x)) * 0.5).
// CHECK-LABEL: func.func @gelu_grouped
// CHECK-NEXT:  %[[Y:.*]] = graph.gelu %arg0
// CHECK-NEXT:  return %[[Y]]
func.func @gelu_grouped(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = graph.constant dense<0.707106769> : tensor<1xf32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %d = graph.mul %r, %x : (tensor<1xf32>, tensor<8xf32>) -> tensor<8xf32>
  %e = graph.erf %d : (tensor<8xf32>) -> tensor<8xf32>
  %a = graph.add %one, %e : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %h = graph.mul %a, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %y = graph.mul %x, %h : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Not GELU: a factor of 0.6, a division by 2, an erf of another value, and
// a chain whose erf is used elsewhere stay as they are.
// CHECK-LABEL: func.func @gelu_kept
// CHECK-NOT:   graph.gelu
func.func @gelu_kept(%x: tensor<8xf32>, %z: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %sqrt2 = graph.constant dense<1.4142135> : tensor<f32>
  %two = graph.constant dense<2.0> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %six = graph.constant dense<0.6> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %d1 = graph.div %x, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e1 = graph.erf %d1 : (tensor<8xf32>) -> tensor<8xf32>
  %a1 = graph.add %e1, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h1 = graph.mul %x, %six : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %y1 = graph.mul %h1, %a1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %d2 = graph.div %x, %two : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e2 = graph.erf %d2 : (tensor<8xf32>) -> tensor<8xf32>
  %a2 = graph.add %e2, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h2 = graph.mul %x, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %y2 = graph.mul %h2, %a2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %d3 = graph.div %z, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e3 = graph.erf %d3 : (tensor<8xf32>) -> tensor<8xf32>
  %a3 = graph.add %e3, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h3 = graph.mul %x, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %y3 = graph.mul %h3, %a3 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %d4 = graph.div %x, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e4 = graph.erf %d4 : (tensor<8xf32>) -> tensor<8xf32>
  %a4 = graph.add %e4, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h4 = graph.mul %x, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %y4 = graph.mul %h4, %a4 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %y1, %y2, %y3, %y4, %e4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// LayerNormalization as PyTorch exports it: d = x - ReduceMean(x),
// d / Sqrt(ReduceMean(Pow(d, 2)) + eps), times gamma, plus beta, over the
// last axis with keepdims. One graph.layer_norm over axis 2 takes x, gamma
// and beta as constants of the normalized shape ([1, 8] -> [8]) and the
// epsilon; nothing of the chain is left.
// CHECK-LABEL: func.func @layer_norm_pow
// CHECK-NEXT:  %[[G:.*]] = graph.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]> : tensor<8xf32>
// CHECK-NEXT:  %[[B:.*]] = graph.constant dense<2.500000e-01> : tensor<8xf32>
// CHECK-NEXT:  %[[Y:.*]], %{{.*}}, %{{.*}} = graph.layer_norm %arg0, %[[G]], %[[B]] {axis = 2 : i64, epsilon = 9.99999974E-6 : f32, stash_type = 1 : i64} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<2x4x1xf32>)
// CHECK-NEXT:  return %[[Y]]
func.func @layer_norm_pow(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-05> : tensor<f32>
  %gamma = graph.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<1x8xf32>
  %beta = graph.constant dense<0.25> : tensor<8xf32>
  %m = graph.reduce_mean %x {axes = array<i64: 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %d = graph.sub %x, %m : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %p = graph.pow %d, %two : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
  %v = graph.reduce_mean %p {axes = array<i64: 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %a = graph.add %v, %eps : (tensor<2x4x1xf32>, tensor<f32>) -> tensor<2x4x1xf32>
  %s = graph.sqrt %a : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %n = graph.div %d, %s : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %g = graph.mul %gamma, %n : (tensor<1x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %y = graph.add %g, %beta : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// The square as Mul(d, d), the epsilon on the left of the Add, and no gamma
// or beta: the scale is a one-value constant 1.0 and there is no bias.
// CHECK-LABEL: func.func @layer_norm_mul
// CHECK-NEXT:  %[[ONE:.*]] = graph.constant dense<1.000000e+00> : tensor<1xf32>
// CHECK-NEXT:  %[[Y:.*]], %{{.*}}, %{{.*}} = graph.layer_norm %arg0, %[[ONE]] {axis = 1 : i64, epsilon = 1.000000e-03 : f32, stash_type = 1 : i64} : (tensor<3x16xf32>, tensor<1xf32>) -> (tensor<3x16xf32>, tensor<3x1xf32>, tensor<3x1xf32>)
// CHECK-NEXT:  return %[[Y]]
func.func @layer_norm_mul(%x: tensor<3x16xf32>) -> tensor<3x16xf32> {
  %eps = graph.constant dense<1.0e-03> : tensor<1xf32>
  %m = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = true} : (tensor<3x16xf32>) -> tensor<3x1xf32>
  %d = graph.sub %x, %m : (tensor<3x16xf32>, tensor<3x1xf32>) -> tensor<3x16xf32>
  %sq = graph.mul %d, %d : (tensor<3x16xf32>, tensor<3x16xf32>) -> tensor<3x16xf32>
  %v = graph.reduce_mean %sq {axes = array<i64: 1>, keepdims = true} : (tensor<3x16xf32>) -> tensor<3x1xf32>
  %a = graph.add %eps, %v : (tensor<1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  %s = graph.sqrt %a : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %y = graph.div %d, %s : (tensor<3x16xf32>, tensor<3x1xf32>) -> tensor<3x16xf32>
  return %y : tensor<3x16xf32>
}

// -----

// Two trailing axes ([1, 2] of a rank-3 input) normalize from axis 1; the
// statistics are [2, 1, 1]. A beta of shape [1, 4, 8] (a leading 1) is the
// bias over the normalized [4, 8] without a gamma (scale 1.0).
// CHECK-LABEL: func.func @layer_norm_two_axes
// CHECK-NEXT:  %[[B:.*]] = graph.constant dense<5.000000e-01> : tensor<4x8xf32>
// CHECK-NEXT:  %[[ONE:.*]] = graph.constant dense<1.000000e+00> : tensor<1xf32>
// CHECK-NEXT:  %[[Y:.*]], %{{.*}}, %{{.*}} = graph.layer_norm %arg0, %[[ONE]], %[[B]] {axis = 1 : i64, epsilon = 9.99999974E-6 : f32, stash_type = 1 : i64} : (tensor<2x4x8xf32>, tensor<1xf32>, tensor<4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
// CHECK-NEXT:  return %[[Y]]
func.func @layer_norm_two_axes(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-05> : tensor<f32>
  %beta = graph.constant dense<0.5> : tensor<1x4x8xf32>
  %m = graph.reduce_mean %x {axes = array<i64: 1, 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x1x1xf32>
  %d = graph.sub %x, %m : (tensor<2x4x8xf32>, tensor<2x1x1xf32>) -> tensor<2x4x8xf32>
  %p = graph.pow %d, %two : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
  %v = graph.reduce_mean %p {axes = array<i64: 1, 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x1x1xf32>
  %a = graph.add %v, %eps : (tensor<2x1x1xf32>, tensor<f32>) -> tensor<2x1x1xf32>
  %s = graph.sqrt %a : (tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %n = graph.div %d, %s : (tensor<2x4x8xf32>, tensor<2x1x1xf32>) -> tensor<2x4x8xf32>
  %y = graph.add %n, %beta : (tensor<2x4x8xf32>, tensor<1x4x8xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// A gamma over only the last of two normalized axes ([8] of [4, 8]) is not
// one value per normalized element: the normalization is recognized, the
// Mul by gamma stays after it (scale 1.0).
// CHECK-LABEL: func.func @layer_norm_partial_gamma
// CHECK-NEXT:  %[[GAMMA:.*]] = graph.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT:  %[[ONE:.*]] = graph.constant dense<1.000000e+00> : tensor<1xf32>
// CHECK-NEXT:  %[[N:.*]], %{{.*}}, %{{.*}} = graph.layer_norm %arg0, %[[ONE]] {axis = 1 : i64
// CHECK-NEXT:  %[[Y:.*]] = graph.mul %[[N]], %[[GAMMA]]
// CHECK-NEXT:  return %[[Y]]
func.func @layer_norm_partial_gamma(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-05> : tensor<f32>
  %gamma = graph.constant dense<2.0> : tensor<8xf32>
  %m = graph.reduce_mean %x {axes = array<i64: 1, 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x1x1xf32>
  %d = graph.sub %x, %m : (tensor<2x4x8xf32>, tensor<2x1x1xf32>) -> tensor<2x4x8xf32>
  %p = graph.pow %d, %two : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
  %v = graph.reduce_mean %p {axes = array<i64: 1, 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x1x1xf32>
  %a = graph.add %v, %eps : (tensor<2x1x1xf32>, tensor<f32>) -> tensor<2x1x1xf32>
  %s = graph.sqrt %a : (tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %n = graph.div %d, %s : (tensor<2x4x8xf32>, tensor<2x1x1xf32>) -> tensor<2x4x8xf32>
  %y = graph.mul %n, %gamma : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// Not LayerNorm: d = x - mean also used by another op (returned); the chain
// stays as it is.
// CHECK-LABEL: func.func @layer_norm_d_used
// CHECK-NOT:   graph.layer_norm
// CHECK:       graph.div
func.func @layer_norm_d_used(%x: tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>) {
  %two = graph.constant dense<2.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-05> : tensor<f32>
  %m = graph.reduce_mean %x {axes = array<i64: 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %d = graph.sub %x, %m : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %p = graph.pow %d, %two : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
  %v = graph.reduce_mean %p {axes = array<i64: 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %a = graph.add %v, %eps : (tensor<2x4x1xf32>, tensor<f32>) -> tensor<2x4x1xf32>
  %s = graph.sqrt %a : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %y = graph.div %d, %s : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  return %y, %d : tensor<2x4x8xf32>, tensor<2x4x8xf32>
}

// -----

// Not LayerNorm: the mean over axes [1, 2], the variance over [2] only.
// CHECK-LABEL: func.func @layer_norm_axes_differ
// CHECK-NOT:   graph.layer_norm
// CHECK:       graph.div
func.func @layer_norm_axes_differ(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-05> : tensor<f32>
  %m = graph.reduce_mean %x {axes = array<i64: 1, 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x1x1xf32>
  %d = graph.sub %x, %m : (tensor<2x4x8xf32>, tensor<2x1x1xf32>) -> tensor<2x4x8xf32>
  %p = graph.pow %d, %two : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
  %v = graph.reduce_mean %p {axes = array<i64: 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %a = graph.add %v, %eps : (tensor<2x4x1xf32>, tensor<f32>) -> tensor<2x4x1xf32>
  %s = graph.sqrt %a : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %y = graph.div %d, %s : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// Not LayerNorm: the mean without keepdims ([4] broadcasts along the last
// axis of the square [4, 4], not per row).
// CHECK-LABEL: func.func @layer_norm_no_keepdims
// CHECK-NOT:   graph.layer_norm
// CHECK:       graph.div
func.func @layer_norm_no_keepdims(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-05> : tensor<f32>
  %m = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = false} : (tensor<4x4xf32>) -> tensor<4xf32>
  %d = graph.sub %x, %m : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %p = graph.pow %d, %two : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  %v = graph.reduce_mean %p {axes = array<i64: 1>, keepdims = true} : (tensor<4x4xf32>) -> tensor<4x1xf32>
  %a = graph.add %v, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %s = graph.sqrt %a : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %y = graph.div %d, %s : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

// Not LayerNorm: both reductions over axis 1 of a rank-3 input, not a
// trailing block of axes.
// CHECK-LABEL: func.func @layer_norm_not_trailing
// CHECK-NOT:   graph.layer_norm
// CHECK:       graph.div
func.func @layer_norm_not_trailing(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-05> : tensor<f32>
  %m = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x1x8xf32>
  %d = graph.sub %x, %m : (tensor<2x4x8xf32>, tensor<2x1x8xf32>) -> tensor<2x4x8xf32>
  %p = graph.pow %d, %two : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
  %v = graph.reduce_mean %p {axes = array<i64: 1>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x1x8xf32>
  %a = graph.add %v, %eps : (tensor<2x1x8xf32>, tensor<f32>) -> tensor<2x1x8xf32>
  %s = graph.sqrt %a : (tensor<2x1x8xf32>) -> tensor<2x1x8xf32>
  %y = graph.div %d, %s : (tensor<2x4x8xf32>, tensor<2x1x8xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// Not LayerNorm: Pow(d, 3) is not the variance's square.
// CHECK-LABEL: func.func @layer_norm_cube
// CHECK-NOT:   graph.layer_norm
// CHECK:       graph.pow
// CHECK:       graph.div
func.func @layer_norm_cube(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %three = graph.constant dense<3.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-05> : tensor<f32>
  %m = graph.reduce_mean %x {axes = array<i64: 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %d = graph.sub %x, %m : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %p = graph.pow %d, %three : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
  %v = graph.reduce_mean %p {axes = array<i64: 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %a = graph.add %v, %eps : (tensor<2x4x1xf32>, tensor<f32>) -> tensor<2x4x1xf32>
  %s = graph.sqrt %a : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %y = graph.div %d, %s : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}
