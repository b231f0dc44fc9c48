// One case per diagnostic of the #qk.requant parser and verifier
// (QKDialect.cpp), exercised on qk.matmul, and of the qk op verifiers (QKOps.cpp).
// RUN: npuc-opt %s -split-input-file -verify-diagnostics

func.func @unknown_rounding(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{unknown rounding 'half_up' (expected half_away_from_zero)}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_up>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @clamp_arity(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{clamp needs [min, max], got 3 values}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 0, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @no_multiplier(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{requant needs at least one multiplier}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [], lshift = [], rshift = [], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @shift_counts(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{requant has 2 multipliers, 2 left shifts and 1 right shifts; expected equal counts}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1, 2], lshift = [0, 0], rshift = [3], zp = 0, clamp = [-128, 127], axis = 0, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @negative_axis(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{requant axis -2 must be -1 (per tensor) or >= 0}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -2, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @per_tensor_count(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{per-tensor requant (axis = -1) has 2 multipliers, expected 1}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1, 2], lshift = [0, 0], rshift = [0, 0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @multiplier_range(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{multiplier[1] = 2147483648 is outside the Q31 range [0, 2147483647]}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [2147483647, 2147483648], lshift = [0, 0], rshift = [0, 0], zp = 0, clamp = [-128, 127], axis = 0, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @lshift_range(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{lshift[0] = 32 is outside [0, 31]}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [32], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @rshift_range(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{rshift[1] = -1 is outside [0, 31]}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1, 1], lshift = [0, 0], rshift = [31, -1], zp = 0, clamp = [-128, 127], axis = 0, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @empty_clamp(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{clamp [10, -10] is empty}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [10, -10], axis = -1, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @requant_zp_range(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{'qk.matmul' op requant zero point -1 is outside the range [0, 255] of 'ui8'}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = -1, clamp = [0, 255], axis = -1, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xui8>
  return
}

// -----
func.func @clamp_min_range(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{'qk.matmul' op clamp min -129 is outside the range [-128, 127] of 'i8'}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-129, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @clamp_max_range(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{'qk.matmul' op clamp max 255 is outside the range [-128, 127] of 'i8'}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [0, 255], axis = -1, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @requantize_channels(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{'qk.matmul' op per-channel requant has 2 entries along axis 1, expected 4 along axis 1}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1, 2], lshift = [0, 0], rshift = [0, 0], zp = 0, clamp = [-128, 127], axis = 1, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @conv_rank(%x: tensor<1x4x8xi8>, %w: tensor<2x4x3x3xi8>) {
  // expected-error @+1 {{'qk.conv2d' op input and weight must have rank 4, got 3 and 4}}
  %0 = qk.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 0 : i64, weight_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<1x4x8xi8>, tensor<2x4x3x3xi8>) -> tensor<1x2x6x6xi8>
  return
}

// -----
// NCHW: the channels are input dimension 1 (4 here), and weight 2x8x3x3 with
// one group wants 8.
func.func @conv_groups(%x: tensor<1x4x8x8xi8>, %w: tensor<2x8x3x3xi8>) {
  // expected-error @+1 {{'qk.conv2d' op input has 4 channels and weight 2x8x3x3, which does not fit groups = 1}}
  %0 = qk.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 0 : i64, weight_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<1x4x8x8xi8>, tensor<2x8x3x3xi8>) -> tensor<1x2x6x6xi8>
  return
}
// -----
// The NCHW result is [N, M, H, W], not [N, H, W, M].
func.func @conv_result(%x: tensor<1x4x8x8xi8>, %w: tensor<2x4x3x3xi8>) {
  // expected-error @+1 {{'qk.conv2d' op result shape 1x6x6x2 does not match the expected 1x2x6x6}}
  %0 = qk.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 0 : i64, weight_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<1x4x8x8xi8>, tensor<2x4x3x3xi8>) -> tensor<1x6x6x2xi8>
  return
}
// -----
func.func @conv_window(%x: tensor<1x4x8x8xi8>, %w: tensor<2x4x3x3xi8>) {
  // expected-error @+1 {{'qk.conv2d' op strides has 1 entries, expected 2}}
  %0 = qk.conv2d %x, %w {strides = array<i64: 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 0 : i64, weight_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<1x4x8x8xi8>, tensor<2x4x3x3xi8>) -> tensor<1x2x6x6xi8>
  return
}

// -----
func.func @conv_bias(%x: tensor<1x4x8x8xi8>, %w: tensor<2x4x3x3xi8>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'qk.conv2d' op bias shape 4 does not match the expected 2}}
  %0 = qk.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 0 : i64, weight_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<1x4x8x8xi8>, tensor<2x4x3x3xi8>, tensor<4xi32>) -> tensor<1x2x6x6xi8>
  return
}

// -----
func.func @conv_input_zp(%x: tensor<1x4x8x8xui8>, %w: tensor<2x4x3x3xi8>) {
  // expected-error @+1 {{'qk.conv2d' op input zero point 256 is outside the range [0, 255] of 'ui8'}}
  %0 = qk.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 256 : i64, weight_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<1x4x8x8xui8>, tensor<2x4x3x3xi8>) -> tensor<1x2x6x6xi8>
  return
}

// -----
func.func @conv_weight_zp_count(%x: tensor<1x4x8x8xi8>, %w: tensor<3x4x3x3xi8>) {
  // expected-error @+1 {{'qk.conv2d' op weight zero point has 2 entries, expected 1 or 3}}
  %0 = qk.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 0 : i64, weight_zp = array<i64: 0, 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<1x4x8x8xi8>, tensor<3x4x3x3xi8>) -> tensor<1x3x6x6xi8>
  return
}

// -----
func.func @conv_weight_zp_range(%x: tensor<1x4x8x8xi8>, %w: tensor<2x4x3x3xi8>) {
  // expected-error @+1 {{'qk.conv2d' op weight zero point 128 is outside the range [-128, 127] of 'i8'}}
  %0 = qk.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 0 : i64, weight_zp = array<i64: 0, 128>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<1x4x8x8xi8>, tensor<2x4x3x3xi8>) -> tensor<1x2x6x6xi8>
  return
}

// -----
func.func @conv_accumulator(%x: tensor<1x4x8x8xi8>, %w: tensor<2x4x3x3xi8>) {
  // expected-error @+1 {{'qk.conv2d' op accumulator type 'f32' is not supported for integer kernels (expected i32)}}
  %0 = qk.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 0 : i64, weight_zp = array<i64: 0>, acc_type = f32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<1x4x8x8xi8>, tensor<2x4x3x3xi8>) -> tensor<1x2x6x6xi8>
  return
}

// -----
// NCHW conv requantizes per output channel along axis 1, not 0.
func.func @conv_requant_axis(%x: tensor<1x4x8x8xi8>, %w: tensor<2x4x3x3xi8>) {
  // expected-error @+1 {{'qk.conv2d' op per-channel requant has 2 entries along axis 0, expected 2 along axis 1}}
  %0 = qk.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 0 : i64, weight_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1, 1], lshift = [0, 0], rshift = [0, 0], zp = 0, clamp = [-128, 127], axis = 0, rounding = half_away_from_zero>} : (tensor<1x4x8x8xi8>, tensor<2x4x3x3xi8>) -> tensor<1x2x6x6xi8>
  return
}

// -----
func.func @matmul_rank(%a: tensor<4xi8>, %b: tensor<4x2xi8>) {
  // expected-error @+1 {{'qk.matmul' op lhs and rhs must have rank >= 2, and the same rank when both have batch dimensions, got 1 and 2}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<4xi8>, tensor<4x2xi8>) -> tensor<2xi8>
  return
}

// -----
func.func @matmul_batch_ranks(%a: tensor<2x4x3xi8>, %b: tensor<5x2x3x2xi8>) {
  // expected-error @+1 {{'qk.matmul' op lhs and rhs must have rank >= 2, and the same rank when both have batch dimensions, got 3 and 4}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<2x4x3xi8>, tensor<5x2x3x2xi8>) -> tensor<5x2x4x2xi8>
  return
}

// -----
func.func @matmul_weights_left_result(%a: tensor<4x3xi8>, %b: tensor<5x3x2xi8>) {
  // expected-error @+1 {{'qk.matmul' op result shape 4x2 does not match the expected 5x4x2}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<4x3xi8>, tensor<5x3x2xi8>) -> tensor<4x2xi8>
  return
}

// -----
func.func @matmul_contraction(%a: tensor<4x3xi8>, %b: tensor<4x2xi8>) {
  // expected-error @+1 {{'qk.matmul' op contraction dimensions differ: 4x3 x 4x2}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<4x3xi8>, tensor<4x2xi8>) -> tensor<4x2xi8>
  return
}

// -----
func.func @matmul_result(%a: tensor<4x3xi8>, %b: tensor<3x2xi8>) {
  // expected-error @+1 {{'qk.matmul' op result shape 2x4 does not match the expected 4x2}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<4x3xi8>, tensor<3x2xi8>) -> tensor<2x4xi8>
  return
}

// -----
func.func @matmul_lhs_zp(%a: tensor<4x3xi8>, %b: tensor<3x2xi8>) {
  // expected-error @+1 {{'qk.matmul' op lhs zero point -129 is outside the range [-128, 127] of 'i8'}}
  %0 = qk.matmul %a, %b {lhs_zp = -129 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<4x3xi8>, tensor<3x2xi8>) -> tensor<4x2xi8>
  return
}

// -----
func.func @matmul_rhs_zp(%a: tensor<4x3xi8>, %b: tensor<3x2xi8>) {
  // expected-error @+1 {{'qk.matmul' op rhs zero point has 3 entries, expected 1 or 2}}
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0, 0, 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<4x3xi8>, tensor<3x2xi8>) -> tensor<4x2xi8>
  return
}


// -----
func.func @tiling_no_buffers() attributes {t = #qk.tiling<tile = [1, 2]>} {
  // expected-error@-1 {{a tiling needs tile and buffers}}
  return
}

// -----
func.func @tiling_empty_tile() attributes {t = #qk.tiling<tile = [], buffers = 1>} {
  // expected-error@-1 {{a tiling needs at least one tile extent}}
  return
}

// -----
func.func @tiling_zero_extent() attributes {t = #qk.tiling<tile = [4, 0], buffers = 1>} {
  // expected-error@-1 {{tile extent 0 is not positive}}
  return
}

// -----
func.func @tiling_buffers() attributes {t = #qk.tiling<tile = [4], buffers = 0>} {
  // expected-error@-1 {{buffers 0 is not positive}}
  return
}

// -----
func.func @tiling_space() attributes {t = #qk.tiling<space = [1, 1, 8], tile = [1, 1, 4, 8], buffers = 1>} {
  // expected-error@-1 {{tile has 4 extents for a space of 3 dimensions}}
  return
}

// -----
func.func @tiling_estimate() attributes {t = #qk.tiling<tile = [4], buffers = 1, cycles = -1>} {
  // expected-error@-1 {{a negative estimate (cycles -1, gm_bytes 0)}}
  return
}

// -----
func.func @tiling_entry() attributes {t = #qk.tiling<tile = [4], buffers = 1, order = 2>} {
  // expected-error@-1 {{unknown tiling entry 'order' (expected space, tile, buffers, cycles, gm_bytes, resident, stacked or matrix)}}
  return
}

// -----

// top_bit only where flipping the top bit is the requantization: here the
// zero points are 127 apart.
func.func @requantize_top_bit_zero_points(%x: tensor<4x!quant.uniform<u8:f32, 0.25:127>>) -> tensor<4x!quant.uniform<i8:f32, 0.25>> {
  // expected-error @+1 {{form top_bit needs per-tensor 8-bit types of one scale, opposite signedness and zero points 128 apart, got '!quant.uniform<u8:f32, 2.500000e-01:127>' -> '!quant.uniform<i8:f32, 2.500000e-01>'}}
  %y = qk.requantize %x {form = #qk.requantize_form<top_bit>} : (tensor<4x!quant.uniform<u8:f32, 0.25:127>>) -> tensor<4x!quant.uniform<i8:f32, 0.25>>
  return %y : tensor<4x!quant.uniform<i8:f32, 0.25>>
}

// -----

func.func @requantize_top_bit_scales(%x: tensor<4x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{form top_bit needs per-tensor 8-bit types of one scale}}
  %y = qk.requantize %x {form = #qk.requantize_form<top_bit>} : (tensor<4x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  return %y : tensor<4x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @requantize_shape(%x: tensor<4x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.25>> {
  // expected-error @+1 {{result shape 2x2 differs from the input's 4}}
  %y = qk.requantize %x {form = #qk.requantize_form<f32>} : (tensor<4x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.25>>
  return %y : tensor<2x2x!quant.uniform<i8:f32, 0.25>>
}

// -----

func.func @requantize_form_unknown(%x: tensor<4x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<4x!quant.uniform<i8:f32, 0.25>> {
  // expected-error @+2 {{expected ::npuc::qk::RequantizeForm to be one of: f32, top_bit}}
  // expected-error @+1 {{failed to parse QK_RequantizeFormAttr parameter 'value'}}
  %y = qk.requantize %x {form = #qk.requantize_form<half>} : (tensor<4x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<4x!quant.uniform<i8:f32, 0.25>>
  return %y : tensor<4x!quant.uniform<i8:f32, 0.25>>
}

// -----

func.func @binary_shapes(%a: tensor<2x4xf32>, %b: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{operand shapes 2x4 and 3 do not broadcast}}
  %0 = qk.binary %a, %b {fn = #qk.binary_fn<ADD>} : (tensor<2x4xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @binary_result(%a: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{result shape 4 is not the operands' broadcast shape 2x4}}
  %0 = qk.binary %a, %b {fn = #qk.binary_fn<ADD>} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @binary_fn(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{expected ::npuc::qk::BinaryFn to be one of: ADD, SUB, MUL, DIV, MAX, MIN, AND, OR, XOR, SHL, SRA}}
  // expected-error @+1 {{failed to parse QK_BinaryFnAttr parameter 'value'}}
  %0 = qk.binary %a, %b {fn = #qk.binary_fn<POW>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @map_shape(%a: tensor<2x4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{result shape 8 differs from the input's 2x4}}
  %0 = qk.map %a {fn = #qk.unary_fn<EXP>} : (tensor<2x4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @pool_shape(%a: tensor<1x3x6x7xf32>) -> tensor<1x3x3x4xf32> {
  // expected-error @+1 {{result shape 1x3x3x4 does not match the expected 1x3x3x3}}
  %0 = qk.pool %a {fn = #qk.pool_fn<max>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = false, count_include_pad = false} : (tensor<1x3x6x7xf32>) -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

// -----

func.func @pool_count_include_pad(%a: tensor<1x3x6x6xf32>) -> tensor<1x3x3x3xf32> {
  // expected-error @+1 {{count_include_pad is an average pooling's}}
  %0 = qk.pool %a {fn = #qk.pool_fn<max>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = false, count_include_pad = true} : (tensor<1x3x6x6xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

func.func @pool_rank(%a: tensor<3x6xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{input has rank 2, expected at least 3}}
  %0 = qk.pool %a {fn = #qk.pool_fn<max>, kernel_shape = array<i64: 2>, strides = array<i64: 2>, pads = array<i64: 0, 0>, dilations = array<i64: 1>, ceil_mode = false, count_include_pad = false} : (tensor<3x6xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @pool_window(%a: tensor<1x3x6x6xf32>) -> tensor<1x3x3x3xf32> {
  // expected-error @+1 {{kernel has 1 entries, expected 2}}
  %0 = qk.pool %a {fn = #qk.pool_fn<average>, kernel_shape = array<i64: 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = false, count_include_pad = false} : (tensor<1x3x6x6xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

func.func @softmax_axis(%a: tensor<5x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{axis -1 is outside [0, 2)}}
  %0 = qk.softmax %a {axis = -1 : i64, log = false} : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @softmax_shape(%a: tensor<5x3xf32>) -> tensor<15xf32> {
  // expected-error @+1 {{result shape 15 does not match the expected 5x3}}
  %0 = qk.softmax %a {axis = 1 : i64, log = false} : (tensor<5x3xf32>) -> tensor<15xf32>
  return %0 : tensor<15xf32>
}

// -----

func.func @compare_result(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi8> {
  // expected-error @+1 {{result elements are 'i8', expected i1}}
  %0 = qk.compare %a, %b {fn = #qk.compare_fn<EQ>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @compare_shape(%a: tensor<2x4xf32>, %b: tensor<3xf32>) -> tensor<2x4xi1> {
  // expected-error @+1 {{operand shapes 2x4 and 3 do not broadcast}}
  %0 = qk.compare %a, %b {fn = #qk.compare_fn<LT>} : (tensor<2x4xf32>, tensor<3xf32>) -> tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}

// -----

func.func @arg_reduce_sum(%a: tensor<2x3xf32>) -> tensor<2x1xi64> {
  // expected-error @+1 {{fn SUM selects no element; an arg reduction is MAX or MIN}}
  %0 = qk.arg_reduce %a {fn = #qk.reduce_fn<SUM>, axis = 1 : i64, keepdims = true, select_last_index = false} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// -----

func.func @arg_reduce_shape(%a: tensor<2x3xf32>) -> tensor<2x1xi64> {
  // expected-error @+1 {{result shape 2x1 does not match the expected 2}}
  %0 = qk.arg_reduce %a {fn = #qk.reduce_fn<MAX>, axis = 1 : i64, keepdims = false, select_last_index = false} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// -----

func.func @arg_reduce_axis(%a: tensor<2x3xf32>) -> tensor<2x1xi64> {
  // expected-error @+1 {{axis 2 is outside [0, 2)}}
  %0 = qk.arg_reduce %a {fn = #qk.reduce_fn<MAX>, axis = 2 : i64, keepdims = true, select_last_index = false} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// -----

func.func @layer_norm_statistics(%x: tensor<2x8xf32>, %s: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{mean is 'f16'; the statistics are f32 (stash_type 1)}}
  %y:3 = qk.layer_norm %x, %s {axis = 1 : i64, epsilon = 1.0e-5 : f32} : (tensor<2x8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x1xf16>, tensor<2x1xf32>)
  return %y#0 : tensor<2x8xf32>
}

// -----

func.func @layer_norm_scale(%x: tensor<2x8xf32>, %s: tensor<4xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{shapes 4 and 8 do not broadcast: dimension 0 of the result is 4 vs 8}}
  %y:3 = qk.layer_norm %x, %s {axis = 1 : i64, epsilon = 1.0e-5 : f32} : (tensor<2x8xf32>, tensor<4xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return %y#0 : tensor<2x8xf32>
}

// -----

func.func @batch_norm_epsilon(%x: tensor<2x3xf32>, %p: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{epsilon must be finite and >= 0, got -1}}
  %0 = qk.batch_norm %x, %p, %p, %p, %p {epsilon = -1.0 : f32} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @channel_affine_params(%x: tensor<2x3xf32>, %p: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{scale shape 2 does not match the expected 3}}
  %0 = qk.channel_affine %x, %p, %p : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @select_shape(%c: tensor<3xi1>, %x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{do not broadcast}}
  %0 = qk.select %c, %x, %x : (tensor<3xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @cast_quantized(%x: tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xf32> {
  // expected-error @+1 {{casts plain values; quantize, dequantize or storage_cast change quantized ones}}
  %0 = qk.cast %x : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_max_with_steps(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{fn MAX takes no step before or after it, got pre square and post none}}
  %0 = qk.reduce %x {fn = #qk.reduce_fn<MAX>, pre = #qk.reduce_pre<square>, post = #qk.reduce_post<none>, axes = array<i64: 1>, keepdims = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_exp_without_log(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{pre shifted_exp and post log_plus_max come together, got pre shifted_exp and post log}}
  %0 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<shifted_exp>, post = #qk.reduce_post<log>, axes = array<i64: 1>, keepdims = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_shape(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{result shape 2x1 does not match the expected 2}}
  %0 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<none>, post = #qk.reduce_post<mean>, axes = array<i64: 1>, keepdims = false} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @not_type(%x: tensor<4xi1>) -> tensor<4xi8> {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = qk.not %x : (tensor<4xi1>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @quantize_shape(%x: tensor<2x8xf32>) -> tensor<8x2x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{result shape 8x2 does not match the expected 2x8}}
  %0 = qk.quantize %x : (tensor<2x8xf32>) -> tensor<8x2x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<8x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @dequantize_result(%x: tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xi8> {
  // expected-error @+1 {{result #0 must be statically shaped tensor of floating-point values}}
  %0 = qk.dequantize %x : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @clip_bounds(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{min 2.000000e+00 exceeds max 1.000000e+00}}
  %0 = qk.clip %x {min = 2.0 : f64, max = 1.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @prelu_shape(%x: tensor<2x3xf32>, %s: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{do not broadcast}}
  %0 = qk.prelu %x, %s : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @view_elements(%x: tensor<2x3xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{input 2x3 has 6 elements, result 7 has 7}}
  %0 = qk.view %x : (tensor<2x3xf32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

func.func @view_storage(%x: tensor<4xi8>) -> tensor<4x!quant.uniform<u8:f32, 0.5>> {
  // expected-error @+1 {{storage}}
  %0 = qk.view %x : (tensor<4xi8>) -> tensor<4x!quant.uniform<u8:f32, 0.5>>
  return %0 : tensor<4x!quant.uniform<u8:f32, 0.5>>
}

// -----

func.func @copy_rank(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{piece 0's source map has 1 coordinates for a tensor of rank 2}}
  %0 = qk.copy %x [#qk.address_plan<shape = [3, 2], source = (d0, d1) -> (d1), dest = (d0, d1) -> (d0, d1)>] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @copy_bounds(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{piece 0's source reaches index 3 of dimension 1, which has 3}}
  %0 = qk.copy %x [#qk.address_plan<shape = [3, 2], source = (d0, d1) -> (d1, d0 + 1), dest = (d0, d1) -> (d0, d1)>] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @copy_dest_bounds(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{piece 0's dest reaches index 2 of dimension 1, which has 2}}
  %0 = qk.copy %x [#qk.address_plan<shape = [3, 2], source = (d0, d1) -> (d1, d0), dest = (d0, d1) -> (d0, d1 + 1)>] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @copy_count(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{pieces write 3 elements; the result has 6}}
  %0 = qk.copy %x [#qk.address_plan<shape = [3, 1], source = (d0, d1) -> (d1, d0), dest = (d0, d1) -> (d0, d1)>] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @copy_none(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{needs at least one piece}}
  %0 = qk.copy %x [] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @copy_type(%x: tensor<2x3xf32>) -> tensor<2x3xf16> {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = qk.copy %x [#qk.address_plan<shape = [2, 3], source = (d0, d1) -> (d0, d1), dest = (d0, d1) -> (d0, d1)>] : (tensor<2x3xf32>) -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// -----

func.func @plan_mod(%x: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{the source coordinate d0 mod 3 is not a constant plus multiples of the indices}}
  %0 = qk.copy %x [#qk.address_plan<shape = [6], source = (d0) -> (d0 mod 3), dest = (d0) -> (d0)>] : (tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @plan_negative(%x: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{the source coordinate -d0 + 5 has a negative term (a strided view has no negative stride)}}
  %0 = qk.copy %x [#qk.address_plan<shape = [6], source = (d0) -> (5 - d0), dest = (d0) -> (d0)>] : (tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @plan_dims(%x: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{the dest map takes 2 indices and 0 symbols; the box has 1 indices and there are no symbols}}
  %0 = qk.copy %x [#qk.address_plan<shape = [6], source = (d0) -> (d0), dest = (d0, d1) -> (d0)>] : (tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @plan_extent(%x: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{address plan extent 0 is not positive}}
  %0 = qk.copy %x [#qk.address_plan<shape = [0], source = (d0) -> (d0), dest = (d0) -> (d0)>] : (tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @float_matmul_types(%a: tensor<4x8xf32>, %b: tensor<8x3xf16>) -> tensor<4x3xf32> {
  // expected-error @+1 {{a float product takes operands of one float type and gives that type (or f32 of f16 operands), got 'f32' x 'f16' -> 'f32'}}
  %y = qk.matmul %a, %b {acc_type = f32} : (tensor<4x8xf32>, tensor<8x3xf16>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @float_matmul_zp(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{a float product has no zero points or requantization}}
  %y = qk.matmul %a, %b {acc_type = f32, lhs_zp = 0 : i64} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @float_matmul_acc(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{accumulator type 'i32' is not supported for float products (expected f32)}}
  %y = qk.matmul %a, %b {acc_type = i32} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @float_matmul_shape(%a: tensor<4x8xf32>, %b: tensor<7x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{contraction dimensions differ}}
  %y = qk.matmul %a, %b {acc_type = f32} : (tensor<4x8xf32>, tensor<7x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @integer_matmul_zp(%a: tensor<4x8xi8>, %b: tensor<8x3xi8>) -> tensor<4x3xi32> {
  // expected-error @+1 {{an integer product states its zero points (lhs_zp, rhs_zp)}}
  %y = qk.matmul %a, %b {acc_type = i32} : (tensor<4x8xi8>, tensor<8x3xi8>) -> tensor<4x3xi32>
  return %y : tensor<4x3xi32>
}

// -----

func.func @integer_matmul_float_result(%a: tensor<4x8xi8>, %b: tensor<8x3xi8>) -> tensor<4x3xf32> {
  // expected-error @+1 {{an integer product gives integers, not 'f32'}}
  %y = qk.matmul %a, %b {acc_type = i32, lhs_zp = 0 : i64, rhs_zp = array<i64: 0>} : (tensor<4x8xi8>, tensor<8x3xi8>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @float_conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xi32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{a float convolution's bias is f32, not 'i32'}}
  %y = qk.conv2d %x, %w, %b {acc_type = f32, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xi32>) -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}

// -----

func.func @float_conv_zp(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{a float convolution has no zero points or requantization}}
  %y = qk.conv2d %x, %w {acc_type = f32, input_zp = 0 : i64, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}

// -----

func.func @float_conv_bounds(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{activation bounds belong to a clip}}
  %y = qk.conv2d %x, %w {acc_type = f32, activation = #qk.activation<relu>, activation_max = 6.0 : f64, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}

// -----

func.func @float_conv_types(%x: tensor<1x3x8x8xf16>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{a float convolution takes input and weight of one float type and gives that type (or f32 of f16 operands), got 'f16' x 'f32' -> 'f32'}}
  %y = qk.conv2d %x, %w {acc_type = f32, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf16>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}

// -----

func.func @integer_conv_activation(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>) -> tensor<1x4x8x8xi32> {
  // expected-error @+1 {{an integer convolution clamps in its requantization, not by an activation}}
  %y = qk.conv2d %x, %w {acc_type = i32, activation = #qk.activation<relu>, input_zp = 0 : i64, weight_zp = array<i64: 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>) -> tensor<1x4x8x8xi32>
  return %y : tensor<1x4x8x8xi32>
}

// -----

func.func @integer_conv_zp(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>) -> tensor<1x4x8x8xi32> {
  // expected-error @+1 {{an integer convolution states its zero points (input_zp, weight_zp)}}
  %y = qk.conv2d %x, %w {acc_type = i32, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>) -> tensor<1x4x8x8xi32>
  return %y : tensor<1x4x8x8xi32>
}

// -----

func.func @conv_transpose_shape(%x: tensor<1x2x3x3xf32>, %w: tensor<2x4x2x2xf32>) -> tensor<1x4x5x5xf32> {
  // expected-error @+1 {{'qk.conv_transpose' op result}}
  %y = qk.conv_transpose %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, output_padding = array<i64: 0, 0>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>, tensor<2x4x2x2xf32>) -> tensor<1x4x5x5xf32>
  return %y : tensor<1x4x5x5xf32>
}

// -----

func.func @gemm_addend_type(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>, %c: tensor<3xi32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{a float product's addend is f32, not 'i32'}}
  %y = qk.matmul %a, %b, %c {acc_type = f32} : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<3xi32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @gemm_transposed_shape(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{contraction dimensions differ: op(a) is 8x4, op(b) is 8x3}}
  %y = qk.matmul %a, %b {acc_type = f32, trans_a = true} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @integer_gemm(%a: tensor<4x8xi8>, %b: tensor<8x3xi8>) -> tensor<4x3xi32> {
  // expected-error @+1 {{an integer product has no transposes or scales (Gemm's are float)}}
  %y = qk.matmul %a, %b {acc_type = i32, alpha = 2.0 : f32, lhs_zp = 0 : i64, rhs_zp = array<i64: 0>} : (tensor<4x8xi8>, tensor<8x3xi8>) -> tensor<4x3xi32>
  return %y : tensor<4x3xi32>
}

// -----

func.func @pad_shape(%x: tensor<2x4xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{result axis 1 has 6 elements, expected 4 + 1 + 2}}
  %y = qk.pad %x {low = array<i64: 0, 1>, high = array<i64: 0, 2>, fill = 0.0 : f32} : (tensor<2x4xf32>) -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

// -----

func.func @pad_counts(%x: tensor<2x4xf32>) -> tensor<2x7xf32> {
  // expected-error @+1 {{low and high need one count per axis (2), not 1 and 2}}
  %y = qk.pad %x {low = array<i64: 1>, high = array<i64: 0, 2>, fill = 0.0 : f32} : (tensor<2x4xf32>) -> tensor<2x7xf32>
  return %y : tensor<2x7xf32>
}

// -----

func.func @pad_fill_type(%x: tensor<2x4xf16>) -> tensor<2x7xf16> {
  // expected-error @+1 {{fill has type 'f32', expected 'f16'}}
  %y = qk.pad %x {low = array<i64: 0, 1>, high = array<i64: 0, 2>, fill = 0.0 : f32} : (tensor<2x4xf16>) -> tensor<2x7xf16>
  return %y : tensor<2x7xf16>
}

// -----

// A quantized result's fill is its stored integer (ui8 for an unsigned
// storage), inside the type's stored range (a narrow range included).
func.func @pad_quantized_fill(%x: tensor<4x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<5x!quant.uniform<u8:f32, 0.5:128>> {
  // expected-error @+1 {{fill has type 'i8', expected 'ui8'}}
  %y = qk.pad %x {low = array<i64: 1>, high = array<i64: 0>, fill = 3 : i8} : (tensor<4x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<5x!quant.uniform<u8:f32, 0.5:128>>
  return %y : tensor<5x!quant.uniform<u8:f32, 0.5:128>>
}

// -----

func.func @pad_quantized_range(%x: tensor<4x!quant.uniform<i8<-127:127>:f32, 0.5>>) -> tensor<5x!quant.uniform<i8<-127:127>:f32, 0.5>> {
  // expected-error @+1 {{fill -128 is outside [-127, 127], the stored range of}}
  %y = qk.pad %x {low = array<i64: 1>, high = array<i64: 0>, fill = -128 : i8} : (tensor<4x!quant.uniform<i8<-127:127>:f32, 0.5>>) -> tensor<5x!quant.uniform<i8<-127:127>:f32, 0.5>>
  return %y : tensor<5x!quant.uniform<i8<-127:127>:f32, 0.5>>
}

// -----

func.func @concat_shape(%a: tensor<1x2xf32>, %b: tensor<2x3xf32>) -> tensor<1x5xf32> {
  // expected-error @+1 {{input #1 has shape 2x3, which differs from input #0 outside axis 1}}
  %y = qk.concat %a, %b {axis = 1 : i64} : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x5xf32>
  return %y : tensor<1x5xf32>
}

// -----

func.func @gather_shape(%d: tensor<5x3xf32>, %i: tensor<2xi64>) -> tensor<3x3xf32> {
  // expected-error @+1 {{result shape 3x3 is not 2x3 (data before the axis, the indices, data after it)}}
  %y = qk.gather %d, %i {axis = 0 : i64} : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<3x3xf32>
  return %y : tensor<3x3xf32>
}

// -----

func.func @gather_indices(%d: tensor<5x3xf32>, %i: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{indices must be i32 or i64}}
  %y = qk.gather %d, %i {axis = 0 : i64} : (tensor<5x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

func.func @scatter_indices(%d: tensor<5x3xf32>, %i: tensor<2x2xi64>, %u: tensor<2x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{indices must be i32 or i64 [..., 1]}}
  %y = qk.scatter %d, %i, %u {reduction = "add"} : (tensor<5x3xf32>, tensor<2x2xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}
