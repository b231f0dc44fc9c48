// RUN: npuc-opt %s -split-input-file -graph-expand-recurrent="gate-align=8" | FileCheck %s
// RUN: not npuc-opt %s -split-input-file -graph-expand-recurrent="gate-align=0" 2>&1 | FileCheck %s --check-prefix=BAD

// An alignment below one column is refused, never used.
// BAD: error: graph-expand-recurrent: gate-align is 0, expected 1 to 1024 columns

// gate-align 8: an LSTM of hidden size 3 lays each gate's 3 columns at
// columns 0, 8, 16 and 24 of the products (zero columns between), in W^T,
// R^T and the biases alike, and slices gate g at [8g, 8g + 3): every gate
// starts 32 bytes apart (VECTOR's alignment in f32).
// CHECK-LABEL: func.func @lstm
// CHECK:      %[[WT:.*]] = graph.transpose %{{.*}} {perm = array<i64: 1, 0>} : (tensor<12x2xf32>) -> tensor<2x12xf32>
// CHECK-NEXT: %[[W0:.*]] = graph.slice %[[WT]] {ends = array<i64: 2, 3>, starts = array<i64: 0, 0>
// CHECK-NEXT: %[[Z:.*]] = graph.constant dense<0.000000e+00> : tensor<2x5xf32>
// CHECK:      %[[W3:.*]] = graph.slice %[[WT]] {ends = array<i64: 2, 12>, starts = array<i64: 0, 9>
// CHECK:      graph.concat %[[W0]], %[[Z]], {{.*}}, %[[W3]], %{{.*}} {axis = 1 : i64} : {{.*}} -> tensor<2x32xf32>
// CHECK:      graph.concat {{.*}} {axis = 1 : i64} : {{.*}} -> tensor<3x32xf32>
// CHECK:      %[[XW:.*]] = graph.matmul %{{.*}}, %{{.*}} : (tensor<1x2xf32>, tensor<2x32xf32>) -> tensor<1x32xf32>
// CHECK:      graph.concat {{.*}} {axis = 0 : i64} : {{.*}} -> tensor<32xf32>
// CHECK:      %[[XWB:.*]] = graph.add %[[XW]], %{{.*}} : (tensor<1x32xf32>, tensor<32xf32>) -> tensor<1x32xf32>
// CHECK:      %[[XT:.*]] = graph.slice %[[XWB]] {ends = array<i64: 1, 32>, starts = array<i64: 0, 0>
// CHECK-NEXT: %[[HR:.*]] = graph.matmul %{{.*}}, %{{.*}} : (tensor<1x3xf32>, tensor<3x32xf32>) -> tensor<1x32xf32>
// CHECK-NEXT: %[[ALL:.*]] = graph.add %[[XT]], %[[HR]]
// CHECK-NEXT: graph.slice %[[ALL]] {ends = array<i64: 1, 3>, starts = array<i64: 0, 0>
// CHECK:      graph.slice %[[ALL]] {ends = array<i64: 1, 19>, starts = array<i64: 0, 16>
// CHECK:      graph.slice %[[ALL]] {ends = array<i64: 1, 27>, starts = array<i64: 0, 24>
// CHECK:      graph.slice %[[ALL]] {ends = array<i64: 1, 11>, starts = array<i64: 0, 8>
func.func @lstm(%x: tensor<1x1x2xf32>, %w: tensor<1x12x2xf32>, %r: tensor<1x12x3xf32>, %b: tensor<1x24xf32>) -> tensor<1x1x3xf32> {
  %y, %h, %c = graph.lstm %x, %w, %r, %b {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>, hidden_size = 3 : i64, direction = "forward", activations = ["Sigmoid", "Tanh", "Tanh"], activation_alpha = array<f32>, activation_beta = array<f32>, clip = 0.0 : f32, layout = 0 : i64, input_forget = false} : (tensor<1x1x2xf32>, tensor<1x12x2xf32>, tensor<1x12x3xf32>, tensor<1x24xf32>) -> (tensor<1x1x1x3xf32>, tensor<1x1x3xf32>, tensor<1x1x3xf32>)
  return %h : tensor<1x1x3xf32>
}

// -----

// A GRU of hidden size 2: z and r at columns 0 and 8 of one recurrent
// product h x R_zr^T [2, 16]; the hidden gate's product takes R_h^T's two
// real columns [2, 2] (it starts at column 0 of its own product).
// CHECK-LABEL: func.func @gru
// CHECK:      graph.matmul %{{.*}}, %{{.*}} : (tensor<1x2xf32>, tensor<2x24xf32>) -> tensor<1x24xf32>
// CHECK:      %[[RZR:.*]] = graph.slice %[[RT:.*]] {ends = array<i64: 2, 16>, starts = array<i64: 0, 0>
// CHECK-NEXT: %[[RH:.*]] = graph.slice %[[RT]] {ends = array<i64: 2, 18>, starts = array<i64: 0, 16>
// CHECK:      %[[ZR:.*]] = graph.add %{{.*}}, %{{.*}} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT: graph.slice %[[ZR]] {ends = array<i64: 1, 2>, starts = array<i64: 0, 0>
// CHECK:      graph.slice %[[ZR]] {ends = array<i64: 1, 10>, starts = array<i64: 0, 8>
// CHECK:      graph.matmul %{{.*}}, %[[RH]] : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
// CHECK:      graph.slice %{{.*}} {ends = array<i64: 1, 18>, starts = array<i64: 0, 16>
func.func @gru(%x: tensor<1x1x2xf32>, %w: tensor<1x6x2xf32>, %r: tensor<1x6x2xf32>) -> tensor<1x1x2xf32> {
  %y, %h = graph.gru %x, %w, %r {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, hidden_size = 2 : i64, direction = "forward", activations = ["Sigmoid", "Tanh"], activation_alpha = array<f32>, activation_beta = array<f32>, clip = 0.0 : f32, layout = 0 : i64, linear_before_reset = false} : (tensor<1x1x2xf32>, tensor<1x6x2xf32>, tensor<1x6x2xf32>) -> (tensor<1x1x1x2xf32>, tensor<1x1x2xf32>)
  return %h : tensor<1x1x2xf32>
}

// -----

// An RNN has one gate, at column 0: nothing is padded.
// CHECK-LABEL: func.func @rnn
// CHECK-NOT:  graph.concat
// CHECK:      graph.matmul %{{.*}}, %{{.*}} : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x3xf32>
func.func @rnn(%x: tensor<1x1x2xf32>, %w: tensor<1x3x2xf32>, %r: tensor<1x3x3xf32>) -> tensor<1x1x3xf32> {
  %y, %h = graph.rnn %x, %w, %r {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, hidden_size = 3 : i64, direction = "forward", activations = ["Tanh"], activation_alpha = array<f32>, activation_beta = array<f32>, clip = 0.0 : f32, layout = 0 : i64} : (tensor<1x1x2xf32>, tensor<1x3x2xf32>, tensor<1x3x3xf32>) -> (tensor<1x1x1x3xf32>, tensor<1x1x3xf32>)
  return %h : tensor<1x1x3xf32>
}
