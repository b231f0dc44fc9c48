// One case per diagnostic of the hand-written graph verifiers (GraphVerifiers.cpp)
// and of the shape functions whose error texts they report (GraphShapes.cpp).
// The shared "result shape ... does not match the expected ..." message gets
// one case per op family, since each computes the expected shape differently.
// RUN: npuc-opt %s -split-input-file -verify-diagnostics

func.func @per_axis_beyond_rank(%x: tensor<2x3x!quant.uniform<i8:f32:2, {0.5:0, 0.25:0}>>) {
  // expected-error @+1 {{'graph.relu' op operand #0 is quantized along axis 2, but has rank 2}}
  %0 = graph.relu %x : (tensor<2x3x!quant.uniform<i8:f32:2, {0.5:0, 0.25:0}>>) -> tensor<2x3xf32>
  return
}

// -----
func.func @per_axis_scale_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.quantize' op result #0 has 2 quantization scales along axis 1, expected one per slice (3)}}
  %0 = graph.quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0}>>
  return
}

// -----
func.func @expressed_type(%x: tensor<2x3xf32>, %y: tensor<2x3xf16>) {
  // expected-error @+1 {{'graph.add' op rhs has element type 'f16', which does not express 'f32' like lhs ('f32')}}
  %0 = graph.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<2x3xf32>
  return
}

// -----
func.func @no_broadcast(%x: tensor<2x3xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{'graph.mul' op shapes 2x3 and 4 do not broadcast: dimension 1 of the result is 3 vs 4}}
  %0 = graph.mul %x, %y : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----
func.func @binary_result_shape(%x: tensor<2x1xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{'graph.sub' op result shape 2x1 does not match the expected 2x3}}
  %0 = graph.sub %x, %y : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x1xf32>
  return
}

// -----
func.func @clip_bounds(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.clip' op min 6.000000e+00 exceeds max 5.000000e-01}}
  %0 = graph.clip %x {min = 6.0 : f64, max = 0.5 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----
func.func @conv_input_rank(%x: tensor<1x4xf32>, %w: tensor<2x4xf32>) {
  // expected-error @+1 {{'graph.conv' op input has rank 2, expected at least 3}}
  %0 = graph.conv %x, %w {strides = array<i64>, pads = array<i64>, dilations = array<i64>, group = 1 : i64} : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<1x2xf32>
  return
}

// -----
func.func @conv_weight_rank(%x: tensor<1x4x8x8xf32>, %w: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'graph.conv' op weight has rank 3, expected 4 like the input}}
  %0 = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<2x4x3xf32>) -> tensor<1x2x6x6xf32>
  return
}

// -----
func.func @conv_group(%x: tensor<1x4x8xf32>, %w: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'graph.conv' op group must be >= 1, got 0}}
  %0 = graph.conv %x, %w {strides = array<i64: 1>, pads = array<i64: 0, 0>, dilations = array<i64: 1>, group = 0 : i64} : (tensor<1x4x8xf32>, tensor<2x4x3xf32>) -> tensor<1x2x6xf32>
  return
}

// -----
func.func @conv_channels(%x: tensor<1x4x8xf32>, %w: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'graph.conv' op input has 4 channels, but the weight expects 4 per group x 2 groups = 8}}
  %0 = graph.conv %x, %w {strides = array<i64: 1>, pads = array<i64: 0, 0>, dilations = array<i64: 1>, group = 2 : i64} : (tensor<1x4x8xf32>, tensor<2x4x3xf32>) -> tensor<1x2x6xf32>
  return
}

// -----
func.func @conv_output_channels(%x: tensor<1x4x8xf32>, %w: tensor<3x2x3xf32>) {
  // expected-error @+1 {{'graph.conv' op weight has 3 output channels, not divisible by group 2}}
  %0 = graph.conv %x, %w {strides = array<i64: 1>, pads = array<i64: 0, 0>, dilations = array<i64: 1>, group = 2 : i64} : (tensor<1x4x8xf32>, tensor<3x2x3xf32>) -> tensor<1x3x6xf32>
  return
}

// -----
func.func @conv_weight_axis(%x: tensor<1x2x8x!quant.uniform<i8:f32, 0.5:-3>>, %w: tensor<3x2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0}>>) {
  // expected-error @+1 {{'graph.conv' op weight is quantized along axis 1, expected axis 0 (output channels)}}
  %0 = graph.conv %x, %w {strides = array<i64: 1>, pads = array<i64: 0, 0>, dilations = array<i64: 1>, group = 1 : i64} : (tensor<1x2x8x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0}>>) -> tensor<1x3x6x!quant.uniform<i8:f32, 0.5:-3>>
  return
}

// -----
func.func @conv_bias(%x: tensor<1x4x8xf32>, %w: tensor<2x4x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'graph.conv' op bias shape 4 does not match the expected 2}}
  %0 = graph.conv %x, %w, %b {strides = array<i64: 1>, pads = array<i64: 0, 0>, dilations = array<i64: 1>, group = 1 : i64} : (tensor<1x4x8xf32>, tensor<2x4x3xf32>, tensor<4xf32>) -> tensor<1x2x6xf32>
  return
}

// -----
func.func @conv_result(%x: tensor<1x4x8x8xf32>, %w: tensor<2x4x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op result shape 1x2x8x8 does not match the expected 1x2x4x8}}
  %0 = graph.conv %x, %w {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x8x8xf32>
  return
}

// -----
func.func @window_entries(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{'graph.max_pool' op kernel has 1 entries, expected 2}}
  %0 = graph.max_pool %x {kernel_shape = array<i64: 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = false} : (tensor<1x4x8x8xf32>) -> tensor<1x4x7x7xf32>
  return
}

// -----
func.func @window_pads_entries(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{'graph.average_pool' op pads (begins then ends) has 2 entries, expected 4}}
  %0 = graph.average_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = false, count_include_pad = false} : (tensor<1x4x8x8xf32>) -> tensor<1x4x7x7xf32>
  return
}

// -----
func.func @window_stride(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{'graph.max_pool' op spatial axis 1: kernel, stride and dilation must be >= 1, got 2, 0, 1}}
  %0 = graph.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 1, 0>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = false} : (tensor<1x4x8x8xf32>) -> tensor<1x4x7x7xf32>
  return
}

// -----
func.func @window_pads(%x: tensor<1x4x8xf32>, %w: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'graph.conv' op spatial axis 0: pads must be >= 0, got 1 and -1}}
  %0 = graph.conv %x, %w {strides = array<i64: 1>, pads = array<i64: 1, -1>, dilations = array<i64: 1>, group = 1 : i64} : (tensor<1x4x8xf32>, tensor<2x4x3xf32>) -> tensor<1x2x6xf32>
  return
}

// -----
func.func @window_extent(%x: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'graph.max_pool' op spatial axis 0: window extent 7 exceeds the padded input size 5}}
  %0 = graph.max_pool %x {kernel_shape = array<i64: 4>, strides = array<i64: 1>, pads = array<i64: 1, 0>, dilations = array<i64: 2>, ceil_mode = false} : (tensor<1x4x4xf32>) -> tensor<1x4x1xf32>
  return
}

// -----
// With ceil_mode the last window may stick out of the input, so 7 -> 4, not 3.
func.func @pool_result(%x: tensor<1x3x7x7xf32>) {
  // expected-error @+1 {{'graph.max_pool' op result shape 1x3x3x3 does not match the expected 1x3x4x4}}
  %0 = graph.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = true} : (tensor<1x3x7x7xf32>) -> tensor<1x3x3x3xf32>
  return
}

// -----
func.func @global_pool(%x: tensor<1x3x7x7xf32>) {
  // expected-error @+1 {{'graph.global_max_pool' op result shape 1x3 does not match the expected 1x3x1x1}}
  %0 = graph.global_max_pool %x : (tensor<1x3x7x7xf32>) -> tensor<1x3xf32>
  return
}

// -----
func.func @gemm_rank(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'graph.gemm' op operands must have rank 2, got 3 and 2}}
  %0 = graph.gemm %a, %b {trans_a = false, trans_b = false, alpha = 1.0 : f32, beta = 1.0 : f32} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return
}

// -----
func.func @gemm_contraction(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'graph.gemm' op contraction dimensions differ: op(a) is 4x3, op(b) is 4x5}}
  %0 = graph.gemm %a, %b {trans_a = true, trans_b = false, alpha = 1.0 : f32, beta = 1.0 : f32} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----
// c broadcasts, but to a larger shape than the product's.
func.func @gemm_c(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<2x3x5xf32>) {
  // expected-error @+1 {{'graph.gemm' op c of shape 2x3x5 does not broadcast to 3x5}}
  %0 = graph.gemm %a, %b, %c {trans_a = false, trans_b = false, alpha = 1.0 : f32, beta = 1.0 : f32} : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<2x3x5xf32>) -> tensor<3x5xf32>
  return
}

// -----
func.func @gemm_result(%a: tensor<3x4xf32>, %b: tensor<5x4xf32>) {
  // expected-error @+1 {{'graph.gemm' op result shape 3x4 does not match the expected 3x5}}
  %0 = graph.gemm %a, %b {trans_a = false, trans_b = true, alpha = 1.0 : f32, beta = 1.0 : f32} : (tensor<3x4xf32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  return
}

// -----
func.func @matmul_scalar(%a: tensor<f32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'graph.matmul' op matmul operands must have rank >= 1}}
  %0 = graph.matmul %a, %b : (tensor<f32>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----
func.func @matmul_contraction(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'graph.matmul' op contraction dimensions differ: 2x3 x 4x5 (3 vs 4)}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----
func.func @batch_norm_param(%x: tensor<2x3x4xf32>, %p: tensor<3xf32>, %v: tensor<4xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op var shape 4 does not match the expected 3}}
  %0 = graph.batch_norm %x, %p, %p, %p, %v {epsilon = 1.0e-5 : f32} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----
// Hostile sizes are refused, not overflowed (found by the importer fuzzer).
func.func @pool_pads_overflow(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{spatial axis 0: the padded input (8 + 9223372036854775807 + 0) or the window (dilation 1, kernel 2) overflows 64 bits}}
  %0 = graph.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 9223372036854775807, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = false} : (tensor<1x4x8x8xf32>) -> tensor<1x4x7x7xf32>
  return
}

// -----
func.func @pool_dilation_overflow(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{overflows 64 bits}}
  %0 = graph.max_pool %x {kernel_shape = array<i64: 3, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 9223372036854775807, 1>, ceil_mode = false} : (tensor<1x4x8x8xf32>) -> tensor<1x4x7x7xf32>
  return
}

// -----
func.func @channel_affine_param(%x: tensor<2x3x4xf32>, %p: tensor<3xf32>, %b: tensor<1x3xf32>) {
  // expected-error @+1 {{'graph.channel_affine' op bias shape 1x3 does not match the expected 3}}
  %0 = graph.channel_affine %x, %p, %b : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<1x3xf32>) -> tensor<2x3x4xf32>
  return
}

// -----
func.func @channel_affine_rank(%x: tensor<3xf32>, %p: tensor<3xf32>) {
  // expected-error @+1 {{'graph.channel_affine' op input has rank 1, expected at least 2}}
  %0 = graph.channel_affine %x, %p, %p : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----
func.func @batch_norm_epsilon(%x: tensor<2x3x4xf32>, %p: tensor<3xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op epsilon must be finite and >= 0, got -5.000000e-01}}
  %0 = graph.batch_norm %x, %p, %p, %p, %p {epsilon = -0.5 : f32} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return
}

// -----
func.func @softmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.softmax' op axis -1 is outside [0, 2) (normal form has non-negative axes)}}
  %0 = graph.softmax %x {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----
func.func @reduce_empty(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reduce_sum' op reduction axes are empty (normal form lists them explicitly)}}
  %0 = graph.reduce_sum %x {axes = array<i64>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----
func.func @reduce_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reduce_max' op axis 2 is outside [0, 2)}}
  %0 = graph.reduce_max %x {axes = array<i64: 2>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----
func.func @reduce_order(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reduce_min' op axes must be strictly increasing}}
  %0 = graph.reduce_min %x {axes = array<i64: 1, 0>, keepdims = false} : (tensor<2x3xf32>) -> tensor<f32>
  return
}

// -----
func.func @reduce_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reduce_mean' op result shape 2 does not match the expected 2x1}}
  %0 = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----
func.func @constant_shape() {
  // expected-error @+1 {{'graph.constant' op value shape 3 does not match the result shape 1x3}}
  %0 = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32> -> tensor<1x3xf32>
  return
}

// -----
func.func @constant_storage() {
  // expected-error @+1 {{'graph.constant' op value element type 'f32' does not match 'i8' (a quantized constant stores its storage type)}}
  %0 = graph.constant dense<1.0> : tensor<3xf32> -> tensor<3x!quant.uniform<i8:f32, 0.5:-3>>
  return
}

// -----
func.func @reshape_overflow(%x: tensor<1099511627776x1099511627776xf32>) {
  // expected-error @+1 {{'graph.reshape' op input: element count of 1099511627776x1099511627776 overflows 64 bits}}
  %0 = graph.reshape %x : (tensor<1099511627776x1099511627776xf32>) -> tensor<1xf32>
  return
}

// -----
func.func @reshape_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reshape' op input 2x3 has 6 elements, result 4x2 has 8}}
  %0 = graph.reshape %x : (tensor<2x3xf32>) -> tensor<4x2xf32>
  return
}

// -----
func.func @reshape_element(%x: tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) {
  // expected-error @+1 {{'graph.reshape' op changes the element type from '!quant.uniform<i8:f32, 5.000000e-01:-3>' to '!quant.uniform<i8:f32, 2.500000e-01:-3>' (a reshape moves values unchanged)}}
  %0 = graph.reshape %x : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<6x!quant.uniform<i8:f32, 0.25:-3>>
  return
}

// -----
func.func @transpose_size(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'graph.transpose' op perm has 2 entries, expected the rank 3}}
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return
}

// -----
func.func @transpose_perm(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'graph.transpose' op perm is not a permutation of [0, 3)}}
  %0 = graph.transpose %x {perm = array<i64: 1, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<3x2x3xf32>
  return
}

// -----
func.func @transpose_result(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'graph.transpose' op result shape 2x3x4 does not match the expected 4x2x3}}
  %0 = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----
func.func @transpose_element(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.transpose' op changes the element type from 'f32' to '!quant.uniform<i8:f32, 5.000000e-01:-3>' (a transpose moves values unchanged)}}
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>
  return
}

// -----
func.func @concat_empty() {
  // expected-error @+1 {{'graph.concat' op needs at least one input}}
  %0 = graph.concat {axis = 0 : i64} : () -> tensor<2xf32>
  return
}

// -----
func.func @concat_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.concat' op axis 2 is outside [0, 2)}}
  %0 = graph.concat %x, %x {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----
func.func @concat_input(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>) {
  // expected-error @+1 {{'graph.concat' op input #1 has shape 3x4, which differs from input #0 outside axis 1}}
  %0 = graph.concat %x, %y {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x7xf32>
  return
}

// -----
func.func @concat_result(%x: tensor<2x3xf32>, %y: tensor<2x4xf32>) {
  // expected-error @+1 {{'graph.concat' op result shape 2x8 does not match the expected 2x7}}
  %0 = graph.concat %x, %y {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  return
}

// -----

// A transpose moves a per-axis quantized axis with the data.
func.func @transpose_per_axis_wrong_axis(%x: tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 0.125:0}>>) {
  // expected-error @+1 {{moves the quantized axis 1 to 0, but the result element type is '!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01}>'}}
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 0.125:0}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0}>>
  return
}

// -----

// A square transpose with the same element type would silently apply the
// scales to the wrong axis.
func.func @transpose_per_axis_square(%x: tensor<3x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 0.125:0}>>) {
  // expected-error @+1 {{moves the quantized axis 1 to 0}}
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<3x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 0.125:0}>>) -> tensor<3x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 0.125:0}>>
  return
}

// -----

func.func @reshape_merges_quantized_axis(%x: tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 0.125:0}>>) {
  // expected-error @+1 {{splits or merges axis 1, along which the input is quantized}}
  %0 = graph.reshape %x : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 0.125:0}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0}>>
  return
}

// -----

func.func @reshape_changes_per_axis_scales(%x: tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 0.125:0}>>) {
  // expected-error @+1 {{changes the per-axis quantization parameters (a reshape moves values unchanged)}}
  %0 = graph.reshape %x : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 0.125:0}>>) -> tensor<1x2x3x!quant.uniform<i8:f32:2, {0.5:0, 0.25:0, 1.0:0}>>
  return
}

// -----

// One message, not two, when c does not broadcast.
func.func @gemm_c_single_error(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{c of shape 4 does not broadcast to 3x5}}
  %0 = graph.gemm %a, %b, %c {trans_a = false, trans_b = false, alpha = 1.0 : f32, beta = 1.0 : f32} : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<4xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @conv_activation_unknown(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op activation 'tanh' is not relu or clip}}
  %0 = graph.conv %x, %w {activation = "tanh", strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  return
}

// -----

func.func @conv_activation_bounds_on_relu(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op activation bounds belong to a clip}}
  %0 = graph.conv %x, %w {activation = "relu", activation_max = 6.0 : f64, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  return
}

// -----

func.func @conv_activation_bounds_alone(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op activation bounds without an activation}}
  %0 = graph.conv %x, %w {activation_min = 0.0 : f64, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  return
}

// -----

func.func @conv_activation_quantized(%x: tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>>, %w: tensor<3x2x3x3x!quant.uniform<i8:f32, 0.25>>) {
  // expected-error @+1 {{'graph.conv' op a fused activation needs an f32 or f16 result}}
  %0 = graph.conv %x, %w {activation = "relu", strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>>, tensor<3x2x3x3x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x3x2x2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----
func.func @requantize_shape(%x: tensor<2x3x!quant.uniform<u8:f32, 0.5:127>>) {
  // expected-error @+1 {{'graph.requantize' op result shape 3x2 does not match the expected 2x3}}
  %0 = graph.requantize %x : (tensor<2x3x!quant.uniform<u8:f32, 0.5:127>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:-1>>
  return
}

// -----
// Steps of INT64_MIN and INT64_MAX (no 64-bit negation, no rounding sum):
// one element each, so a claimed 2x5 result is wrong and named.
func.func @slice_extreme_steps(%x: tensor<4x5xf32>) {
  // expected-error @+1 {{'graph.slice' op result shape 2x5 does not match the expected 1x1}}
  %0 = graph.slice %x {starts = array<i64: 3, 0>, ends = array<i64: -1, 5>, steps = array<i64: -9223372036854775808, 9223372036854775807>} : (tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

// A recurrence names ONNX's activations, as many as its directions take.
func.func @rnn_activation(%x: tensor<1x1x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x1x4xf32> {
  // expected-error @+1 {{'graph.rnn' op activation 'Swish' is not one of ONNX's recurrent activations}}
  %y, %h = graph.rnn %x, %w, %r {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, hidden_size = 4 : i64, direction = "forward", activations = ["Swish"], activation_alpha = array<f32>, activation_beta = array<f32>, clip = 0.0 : f32, layout = 0 : i64} : (tensor<1x1x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<1x1x1x4xf32>, tensor<1x1x4xf32>)
  return %h : tensor<1x1x4xf32>
}

// -----

func.func @gru_activations(%x: tensor<1x1x3xf32>, %w: tensor<2x6x3xf32>, %r: tensor<2x6x2xf32>) -> tensor<2x1x2xf32> {
  // expected-error @+1 {{'graph.gru' op has 2 activations; 2 direction(s) take 4}}
  %y, %h = graph.gru %x, %w, %r {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, hidden_size = 2 : i64, direction = "bidirectional", activations = ["Sigmoid", "Tanh"], activation_alpha = array<f32>, activation_beta = array<f32>, clip = 0.0 : f32, layout = 0 : i64, linear_before_reset = false} : (tensor<1x1x3xf32>, tensor<2x6x3xf32>, tensor<2x6x2xf32>) -> (tensor<1x2x1x2xf32>, tensor<2x1x2xf32>)
  return %h : tensor<2x1x2xf32>
}

// -----

// The optional operands' shapes follow the op's sizes.
func.func @lstm_peephole(%x: tensor<1x1x3xf32>, %w: tensor<1x8x3xf32>, %r: tensor<1x8x2xf32>, %p: tensor<1x4xf32>) -> tensor<1x1x2xf32> {
  // expected-error @+1 {{'graph.lstm' op P shape 1x4 does not match the expected 1x6}}
  %y, %h, %c = graph.lstm %x, %w, %r, %p {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 1>, hidden_size = 2 : i64, direction = "forward", activations = ["Sigmoid", "Tanh", "Tanh"], activation_alpha = array<f32>, activation_beta = array<f32>, clip = 0.0 : f32, layout = 0 : i64, input_forget = false} : (tensor<1x1x3xf32>, tensor<1x8x3xf32>, tensor<1x8x2xf32>, tensor<1x4xf32>) -> (tensor<1x1x1x2xf32>, tensor<1x1x2xf32>, tensor<1x1x2xf32>)
  return %h : tensor<1x1x2xf32>
}

// -----

func.func @scatter_nd_mul(%d: tensor<5x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{reduction 'mul' is not none, add, max or min}}
  %y = graph.scatter_nd %d, %i, %u {reduction = "mul"} : (tensor<5x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}

// -----

func.func @scatter_nd_updates(%d: tensor<5x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{updates}}
  %y = graph.scatter_nd %d, %i, %u {reduction = "none"} : (tensor<5x3xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}

// -----

func.func @bitcast_width(%x: tensor<4xf32>) -> tensor<4xi16> {
  // expected-error @+1 {{'graph.bitcast' op bitcast from 'f32' to 'i16' is not between f32 and i32, f16 and i16, or i8 and ui8}}
  %0 = graph.bitcast %x : (tensor<4xf32>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// int64 is stored as int32 on chip: not its own bits.
func.func @bitcast_i64(%x: tensor<4xi64>) -> tensor<4xf64> {
  // expected-error @+1 {{'graph.bitcast' op bitcast from 'i64' to 'f64' is not between f32 and i32, f16 and i16, or i8 and ui8}}
  %0 = graph.bitcast %x : (tensor<4xi64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
