// RUN: npuc-opt %s -split-input-file -graph-expand-recurrent -verify-diagnostics

// Operands of another element type than f32 have no expansion: an error at
// the op, never a silent skip.
func.func @f16(%x: tensor<1x1x3xf16>, %w: tensor<1x4x3xf16>, %r: tensor<1x4x4xf16>) -> tensor<1x1x4xf16> {
  // expected-error @+1 {{'graph.rnn' op has no NPU lowering for 'tensor<1x1x3xf16>' operands (f32, or quantized weights dequantized to f32)}}
  %y, %h = graph.rnn %x, %w, %r {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, hidden_size = 4 : i64, direction = "forward", activations = ["Tanh"], activation_alpha = array<f32>, activation_beta = array<f32>, clip = 0.0 : f32, layout = 0 : i64} : (tensor<1x1x3xf16>, tensor<1x4x3xf16>, tensor<1x4x4xf16>) -> (tensor<1x1x1x4xf16>, tensor<1x1x4xf16>)
  return %h : tensor<1x1x4xf16>
}

// -----

// The unrolled program grows with the steps: more than 4096 is refused.
func.func @long(%x: tensor<2049x1x3xf32>, %w: tensor<2x4x3xf32>, %r: tensor<2x4x4xf32>) -> tensor<2x1x4xf32> {
  // expected-error @+1 {{'graph.rnn' op runs 4098 time steps (sequence length 2049 x 2 direction(s)); npuc unrolls at most 4096}}
  %y, %h = graph.rnn %x, %w, %r {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, hidden_size = 4 : i64, direction = "bidirectional", activations = ["Tanh", "Tanh"], activation_alpha = array<f32>, activation_beta = array<f32>, clip = 0.0 : f32, layout = 0 : i64} : (tensor<2049x1x3xf32>, tensor<2x4x3xf32>, tensor<2x4x4xf32>) -> (tensor<2049x2x1x4xf32>, tensor<2x1x4xf32>)
  return %h : tensor<2x1x4xf32>
}
