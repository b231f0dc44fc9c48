// RUN: npuc-opt %s -split-input-file -graph-expand-recurrent | FileCheck %s

// An RNN over two steps: the input projection of both steps is one product
// X [2, 3] x W^T [3, 4] (hoisted out of the recurrence); each step slices its
// rows, adds the recurrent product h x R^T and applies Tanh; the steps' h
// are Y in time order, the last is Y_h.
// CHECK-LABEL: func.func @rnn
// CHECK:      %[[W:.*]] = graph.reshape %{{.*}} : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[WT:.*]] = graph.transpose %[[W]] {perm = array<i64: 1, 0>}
// CHECK:      %[[RT:.*]] = graph.transpose %{{.*}} {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[X:.*]] = graph.reshape %arg0 : (tensor<2x1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[XW:.*]] = graph.matmul %[[X]], %[[WT]] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[H0:.*]] = graph.constant dense<0.000000e+00> : tensor<1x4xf32>
// CHECK-NEXT: %[[X0:.*]] = graph.slice %[[XW]] {ends = array<i64: 1, 4>, starts = array<i64: 0, 0>
// CHECK-NEXT: %[[R0:.*]] = graph.matmul %[[H0]], %[[RT]]
// CHECK-NEXT: %[[S0:.*]] = graph.add %[[X0]], %[[R0]]
// CHECK-NEXT: %[[H1:.*]] = graph.tanh %[[S0]]
// CHECK-NEXT: %[[X1:.*]] = graph.slice %[[XW]] {ends = array<i64: 2, 4>, starts = array<i64: 1, 0>
// CHECK-NEXT: %[[R1:.*]] = graph.matmul %[[H1]], %[[RT]]
// CHECK-NEXT: %[[S1:.*]] = graph.add %[[X1]], %[[R1]]
// CHECK-NEXT: %[[H2:.*]] = graph.tanh %[[S1]]
// CHECK-NEXT: %[[Y0:.*]] = graph.reshape %[[H1]] : (tensor<1x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT: %[[Y1:.*]] = graph.reshape %[[H2]] : (tensor<1x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.concat %[[Y0]], %[[Y1]] {axis = 0 : i64}
// CHECK-NEXT: %[[YH:.*]] = graph.reshape %[[H2]] : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
// CHECK-NEXT: return %[[Y]], %[[YH]]
// CHECK-NOT:  graph.rnn
func.func @rnn(%x: tensor<2x1x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> (tensor<2x1x1x4xf32>, tensor<1x1x4xf32>) {
  %y, %h = graph.rnn %x, %w, %r {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, hidden_size = 4 : i64, direction = "forward", activations = ["Tanh"], activation_alpha = array<f32>, activation_beta = array<f32>, clip = 0.0 : f32, layout = 0 : i64} : (tensor<2x1x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<2x1x1x4xf32>, tensor<1x1x4xf32>)
  return %y, %h : tensor<2x1x1x4xf32>, tensor<1x1x4xf32>
}

// -----

// A batch-major GRU (layout 1) with PyTorch's linear_before_reset and
// run-time sequence lengths: X and h0 become sequence-major; the projection
// takes Wb and Rb but the hidden gate's Rb, which is added to h x Rh^T under
// the reset gate; each step masks the batches whose sequence ended (Less of
// the step with the lengths): Y gets zeros, the state is kept; Y and Y_h go
// back to batch-major. The zeros of the masked steps are one constant for
// all steps; 1 - z is -z + 1 (immediates, no constant of ones).
// CHECK-LABEL: func.func @gru
// CHECK:      %[[X:.*]] = graph.transpose %arg0 {perm = array<i64: 1, 0, 2>}
// CHECK-NEXT: %[[H0:.*]] = graph.transpose %arg4 {perm = array<i64: 1, 0, 2>}
// CHECK:      %[[XW:.*]] = graph.matmul %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3x6xf32>) -> tensor<4x6xf32>
// CHECK:      %[[RB:.*]] = graph.slice %{{.*}} {ends = array<i64: 12>, starts = array<i64: 6>
// CHECK-NEXT: %[[RBH:.*]] = graph.slice %[[RB]] {ends = array<i64: 6>, starts = array<i64: 4>
// CHECK-NEXT: %[[RBZR:.*]] = graph.slice %[[RB]] {ends = array<i64: 4>, starts = array<i64: 0>
// CHECK-NEXT: %[[Z2:.*]] = graph.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[RB0:.*]] = graph.concat %[[RBZR]], %[[Z2]] {axis = 0 : i64}
// CHECK-NEXT: %[[BIAS:.*]] = graph.add %{{.*}}, %[[RB0]] : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT: %[[XWB:.*]] = graph.add %[[XW]], %[[BIAS]] : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
// CHECK:      %[[ZY:.*]] = graph.constant dense<0.000000e+00> : tensor<2x2xf32>
// CHECK:      %[[HH:.*]] = graph.matmul %{{.*}}, %{{.*}} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[HB:.*]] = graph.add %[[HH]], %[[RBH]] : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: graph.mul %{{.*}}, %[[HB]]
// CHECK:      %[[M1:.*]] = graph.constant dense<-1.000000e+00> : tensor<1xf32>
// CHECK-NEXT: %[[NZ:.*]] = graph.mul %{{.*}}, %[[M1]] : (tensor<2x2xf32>, tensor<1xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[P1:.*]] = graph.constant dense<1.000000e+00> : tensor<1xf32>
// CHECK-NEXT: graph.add %[[NZ]], %[[P1]] : (tensor<2x2xf32>, tensor<1xf32>) -> tensor<2x2xf32>
// CHECK:      %[[T0:.*]] = graph.constant dense<0> : tensor<1xi32>
// CHECK-NEXT: %[[L0:.*]] = graph.less %[[T0]], %arg5 : (tensor<1xi32>, tensor<2xi32>) -> tensor<2xi1>
// CHECK-NEXT: %[[M0:.*]] = graph.reshape %[[L0]] : (tensor<2xi1>) -> tensor<2x1xi1>
// CHECK-NEXT: graph.where %[[M0]], %{{.*}}, %[[ZY]]
// CHECK-NEXT: graph.where %[[M0]], %{{.*}}, %{{.*}}
// CHECK:      graph.constant dense<1> : tensor<1xi32>
// CHECK:      %[[Y:.*]] = graph.transpose %{{.*}} {perm = array<i64: 2, 0, 1, 3>} : (tensor<2x1x2x2xf32>) -> tensor<2x2x1x2xf32>
// CHECK-NEXT: %[[YH:.*]] = graph.transpose %{{.*}} {perm = array<i64: 1, 0, 2>} : (tensor<1x2x2xf32>) -> tensor<2x1x2xf32>
// CHECK-NEXT: return %[[Y]], %[[YH]]
func.func @gru(%x: tensor<2x2x3xf32>, %w: tensor<1x6x3xf32>, %r: tensor<1x6x2xf32>, %b: tensor<1x12xf32>, %h0: tensor<2x1x2xf32>, %lens: tensor<2xi32>) -> (tensor<2x2x1x2xf32>, tensor<2x1x2xf32>) {
  %y, %h = graph.gru %x, %w, %r, %b, %lens, %h0 {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>, hidden_size = 2 : i64, direction = "forward", activations = ["Sigmoid", "Tanh"], activation_alpha = array<f32>, activation_beta = array<f32>, clip = 0.0 : f32, layout = 1 : i64, linear_before_reset = true} : (tensor<2x2x3xf32>, tensor<1x6x3xf32>, tensor<1x6x2xf32>, tensor<1x12xf32>, tensor<2xi32>, tensor<2x1x2xf32>) -> (tensor<2x2x1x2xf32>, tensor<2x1x2xf32>)
  return %y, %h : tensor<2x2x1x2xf32>, tensor<2x1x2xf32>
}

// -----

// A bidirectional LSTM: one projection per direction; the reverse direction
// starts at the last step's rows; clip bounds every gate's input; Y
// concatenates the directions on axis 1, Y_h and Y_c on axis 0. Sequence
// lengths that are all the sequence's length mask nothing.
// CHECK-LABEL: func.func @lstm
// CHECK:      %[[XW0:.*]] = graph.matmul %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x8xf32>) -> tensor<2x8xf32>
// CHECK:      %[[F0:.*]] = graph.slice %[[XW0]] {ends = array<i64: 1, 8>, starts = array<i64: 0, 0>
// CHECK:      graph.clip %{{.*}} {max = 5.000000e-01 : f64, min = -5.000000e-01 : f64}
// CHECK:      %[[XW1:.*]] = graph.matmul %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x8xf32>) -> tensor<2x8xf32>
// CHECK:      %[[B0:.*]] = graph.slice %[[XW1]] {ends = array<i64: 2, 8>, starts = array<i64: 1, 0>
// CHECK-NOT:  graph.less
// CHECK:      %[[Y:.*]] = graph.concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x1x1x2xf32>, tensor<2x1x1x2xf32>) -> tensor<2x2x1x2xf32>
// CHECK-NEXT: %[[YH:.*]] = graph.concat %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<2x1x2xf32>
// CHECK-NEXT: %[[YC:.*]] = graph.concat %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<2x1x2xf32>
// CHECK-NEXT: return %[[Y]], %[[YH]], %[[YC]]
func.func @lstm(%x: tensor<2x1x3xf32>, %w: tensor<2x8x3xf32>, %r: tensor<2x8x2xf32>) -> (tensor<2x2x1x2xf32>, tensor<2x1x2xf32>, tensor<2x1x2xf32>) {
  %lens = graph.constant dense<2> : tensor<1xi32>
  %y, %h, %c = graph.lstm %x, %w, %r, %lens {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0>, hidden_size = 2 : i64, direction = "bidirectional", activations = ["Sigmoid", "Tanh", "Tanh", "Sigmoid", "Tanh", "Tanh"], activation_alpha = array<f32>, activation_beta = array<f32>, clip = 0.5 : f32, layout = 0 : i64, input_forget = false} : (tensor<2x1x3xf32>, tensor<2x8x3xf32>, tensor<2x8x2xf32>, tensor<1xi32>) -> (tensor<2x2x1x2xf32>, tensor<2x1x2xf32>, tensor<2x1x2xf32>)
  return %y, %h, %c : tensor<2x2x1x2xf32>, tensor<2x1x2xf32>, tensor<2x1x2xf32>
}
