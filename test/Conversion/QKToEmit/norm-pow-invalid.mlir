// select-lowering-cases refuses, at the op, the LayerNormalization, Pow and
// ReduceLogSumExp cases that have no lowering (NormKernels.cpp,
// PowKernels.cpp, selectReduce in ElementwiseKernels.cpp).
// RUN: npuc-opt %s -split-input-file -select-lowering-cases -verify-diagnostics

// Pow of integer bases (ONNX's test_pow_types_int32_int32): f32 bases only.
func.func @pow_int_bases(%x: tensor<3xi32>, %y: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'qk.pow' op Pow of 'i32' bases has no NPU lowering yet (f32 bases only)}}
  %0 = qk.pow %x, %y : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// An i64 exponent (ONNX's test_pow_types_float32_int64): the exponent is f32
// or an integer of at most 32 bits.
func.func @pow_i64_exponent(%x: tensor<3xf32>, %y: tensor<3xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{'qk.pow' op Pow with a 'i64' exponent has no NPU lowering yet (f32 or a 32-bit or narrower integer)}}
  %0 = qk.pow %x, %y : (tensor<3xf32>, tensor<3xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A scale that broadcasts along the normalized axes: [1, 8] over the
// normalized [4, 8] (r = 32) is valid ONNX but has 8 values, neither r nor 1.
func.func @layer_norm_partial_scale(%x: tensor<2x4x8xf32>, %s: tensor<1x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'qk.layer_norm' op scale of 8 elements broadcasts along the normalized axes; only one value per normalized element (32) or a single value has a lowering yet}}
  %y, %m, %i = qk.layer_norm %x, %s {axis = 1 : i64, epsilon = 9.99999974E-6 : f32} : (tensor<2x4x8xf32>, tensor<1x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  return %y : tensor<2x4x8xf32>
}

// -----

// The same for the bias ([4, 1]: 4 values), the scale being one per element.
func.func @layer_norm_partial_bias(%x: tensor<2x4x8xf32>, %s: tensor<4x8xf32>, %b: tensor<4x1xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'qk.layer_norm' op bias of 4 elements broadcasts along the normalized axes; only one value per normalized element (32) or a single value has a lowering yet}}
  %y, %m, %i = qk.layer_norm %x, %s, %b {axis = 1 : i64, epsilon = 9.99999974E-6 : f32} : (tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>) -> (tensor<2x4x8xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  return %y : tensor<2x4x8xf32>
}

// -----

// Log-sum-exp over a row longer than one tile: 262,144 f32 elements take two
// passes on npu-v1 (beyond VECTOR's 65,535 columns), and exp(x - max) needs
// the whole row's max before the first partial.
func.func @log_sum_exp_long_row(%x: tensor<1x1x262144xf32>) -> tensor<1x1x1xf32> {
  // expected-error @+1 {{'qk.reduce' op reduces rows of 262144 elements, more than one tile holds; log-sum-exp takes no two-pass lowering yet}}
  %0 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<shifted_exp>, post = #qk.reduce_post<log_plus_max>, axes = array<i64: 2>, keepdims = true} : (tensor<1x1x262144xf32>) -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}

// -----

// The row is the whole block of reduced axes: [2, 32768] of [4, 2, 32768] is
// 65,536 elements, one more than VECTOR's extent.
func.func @log_sum_exp_two_axes(%x: tensor<4x2x32768xf32>) -> tensor<4x1x1xf32> {
  // expected-error @+1 {{'qk.reduce' op reduces rows of 65536 elements, more than one tile holds; log-sum-exp takes no two-pass lowering yet}}
  %0 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<shifted_exp>, post = #qk.reduce_post<log_plus_max>, axes = array<i64: 1, 2>, keepdims = true} : (tensor<4x2x32768xf32>) -> tensor<4x1x1xf32>
  return %0 : tensor<4x1x1xf32>
}

// -----

// Normalized axes [4, 32768] from axis 1: rows of 131,072, beyond VECTOR.
func.func @layer_norm_long_row_vector(%x: tensor<2x4x32768xf32>, %s: tensor<1xf32>) -> tensor<2x4x32768xf32> {
  // expected-error @+1 {{'qk.layer_norm' op normalizes rows of 131072 elements, more than one tile holds (its tiles are 1 x 131072; VECTOR takes at most 65535 x 65535); a two-pass LayerNormalization has no lowering yet}}
  %y, %m, %i = qk.layer_norm %x, %s {axis = 1 : i64, epsilon = 9.99999974E-6 : f32} : (tensor<2x4x32768xf32>, tensor<1xf32>) -> (tensor<2x4x32768xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  return %y : tensor<2x4x32768xf32>
}
