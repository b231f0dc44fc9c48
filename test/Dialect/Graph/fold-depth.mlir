// RUN: npuc-opt %s -split-input-file -graph-fold-depth | FileCheck %s

// A grouped 3-D convolution padded along D by [1, 0]: the data depth-major
// and padded with a zero plane, its two depth taps sliced, their channels
// side by side per group ([g0 tap0, g0 tap1, g1 tap0, g1 tap1]), the weights
// [M, Cg, KD, KH, KW] transposed to [M, KD, Cg, KH, KW] and viewed as
// [M, KD * Cg, KH, KW]: one 2-D convolution of N * OD images, then back.
// CHECK-LABEL: func.func @conv3d_groups
// CHECK-DAG:  %[[ZERO:.*]] = graph.constant dense<0.000000e+00> : tensor<1x1x4x5x5xf32>
// CHECK-DAG:  %[[T:.*]] = graph.transpose %arg0 {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x4x3x5x5xf32>) -> tensor<1x3x4x5x5xf32>
// CHECK:      %[[P:.*]] = graph.concat %[[ZERO]], %[[T]] {axis = 1 : i64}
// CHECK:      %[[S0:.*]] = graph.slice %[[P]] {ends = array<i64: 1, 3, 4, 5, 5>, starts = array<i64: 0, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>}
// CHECK:      %[[R0:.*]] = graph.reshape %[[S0]] : (tensor<1x3x4x5x5xf32>) -> tensor<3x4x5x5xf32>
// CHECK:      %[[S1:.*]] = graph.slice %[[P]] {ends = array<i64: 1, 4, 4, 5, 5>, starts = array<i64: 0, 1, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>}
// CHECK:      %[[R1:.*]] = graph.reshape %[[S1]]
// CHECK:      %[[G0T0:.*]] = graph.slice %[[R0]] {ends = array<i64: 3, 2, 5, 5>, starts = array<i64: 0, 0, 0, 0>
// CHECK:      %[[G0T1:.*]] = graph.slice %[[R1]] {ends = array<i64: 3, 2, 5, 5>, starts = array<i64: 0, 0, 0, 0>
// CHECK:      %[[G1T0:.*]] = graph.slice %[[R0]] {ends = array<i64: 3, 4, 5, 5>, starts = array<i64: 0, 2, 0, 0>
// CHECK:      %[[G1T1:.*]] = graph.slice %[[R1]] {ends = array<i64: 3, 4, 5, 5>, starts = array<i64: 0, 2, 0, 0>
// CHECK:      %[[X2:.*]] = graph.concat %[[G0T0]], %[[G0T1]], %[[G1T0]], %[[G1T1]] {axis = 1 : i64} {{.*}} -> tensor<3x8x5x5xf32>
// CHECK:      %[[WT:.*]] = graph.transpose %arg1 {perm = array<i64: 0, 2, 1, 3, 4>}
// CHECK:      %[[W2:.*]] = graph.reshape %[[WT]] : (tensor<6x2x2x3x3xf32>) -> tensor<6x4x3x3xf32>
// CHECK:      %[[Y2:.*]] = graph.conv %[[X2]], %[[W2]] {dilations = array<i64: 1, 1>, group = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<3x8x5x5xf32>, tensor<6x4x3x3xf32>) -> tensor<3x6x5x5xf32>
// CHECK:      %[[Y:.*]] = graph.reshape %[[Y2]] : (tensor<3x6x5x5xf32>) -> tensor<1x3x6x5x5xf32>
// CHECK:      graph.transpose %[[Y]] {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x3x6x5x5xf32>) -> tensor<1x6x3x5x5xf32>
func.func @conv3d_groups(%x: tensor<1x4x3x5x5xf32>, %w: tensor<6x2x2x3x3xf32>) -> tensor<1x6x3x5x5xf32> {
  %y = graph.conv %x, %w {strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 0, 1, 1>, dilations = array<i64: 1, 1, 1>, group = 2 : i64} : (tensor<1x4x3x5x5xf32>, tensor<6x2x2x3x3xf32>) -> tensor<1x6x3x5x5xf32>
  return %y : tensor<1x6x3x5x5xf32>
}

// -----

// An average over D = 5 with window 2, stride 2 and ceil_mode: the last
// window holds one plane, so the data gains a zero plane at the end and the
// third output divides by 1 (count_include_pad false), the others by 2;
// every depth plane is pooled over H and W first.
// CHECK-LABEL: func.func @avgpool3d_ceil
// CHECK-DAG:  %[[COUNTS:.*]] = graph.constant dense<{{\[\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}2.000000e+00]]], {{\[\[\[}}1.000000e+00]]]]]> : tensor<1x3x1x1x1xf32>
// CHECK:      %[[P2:.*]] = graph.average_pool %{{.*}} {ceil_mode = true, count_include_pad = false, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<5x2x4x4xf32>) -> tensor<5x2x2x2xf32>
// CHECK:      graph.concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<1x5x2x2x2xf32>, tensor<1x1x2x2x2xf32>) -> tensor<1x6x2x2x2xf32>
// CHECK:      %[[A:.*]] = graph.slice {{.*}} steps = array<i64: 1, 2, 1, 1, 1>
// CHECK:      %[[B:.*]] = graph.slice {{.*}} steps = array<i64: 1, 2, 1, 1, 1>
// CHECK:      %[[SUM:.*]] = graph.add %[[A]], %[[B]]
// CHECK:      %[[AVG:.*]] = graph.div %[[SUM]], %[[COUNTS]]
// CHECK:      graph.transpose %[[AVG]] {perm = array<i64: 0, 2, 1, 3, 4>}
func.func @avgpool3d_ceil(%x: tensor<1x2x5x4x4xf32>) -> tensor<1x2x3x2x2xf32> {
  %y = graph.average_pool %x {kernel_shape = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, ceil_mode = true, count_include_pad = false} : (tensor<1x2x5x4x4xf32>) -> tensor<1x2x3x2x2xf32>
  return %y : tensor<1x2x3x2x2xf32>
}

// -----

// A max pads with -inf planes and takes the taps' max.
// CHECK-LABEL: func.func @maxpool3d_padded
// CHECK-DAG:  graph.constant dense<0xFF800000> : tensor<1x1x1x3x3xf32>
// CHECK:      graph.max_pool
// CHECK:      graph.max
// CHECK:      graph.max
// CHECK-NOT:  graph.div
func.func @maxpool3d_padded(%x: tensor<1x1x4x3x3xf32>) -> tensor<1x1x4x3x3xf32> {
  %y = graph.max_pool %x {kernel_shape = array<i64: 3, 3, 3>, strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, ceil_mode = false} : (tensor<1x1x4x3x3xf32>) -> tensor<1x1x4x3x3xf32>
  return %y : tensor<1x1x4x3x3xf32>
}
