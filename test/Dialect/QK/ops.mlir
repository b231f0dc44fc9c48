// Round trip of every qk op and of the #qk.requant and #qk<layout> attributes,
// in the custom form and through the generic form.
// RUN: npuc-opt %s -split-input-file | npuc-opt -split-input-file | FileCheck %s
// RUN: npuc-opt %s -split-input-file --mlir-print-op-generic | npuc-opt -split-input-file | FileCheck %s

// Grouped NCHW convolution with bias and per-output-channel requantization.
// CHECK-LABEL: func.func @conv2d_nchw
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x8x8xi8>, %[[W:.*]]: tensor<6x2x3x3xi8>, %[[B:.*]]: tensor<6xi32>)
func.func @conv2d_nchw(%x: tensor<1x4x8x8xi8>, %w: tensor<6x2x3x3xi8>, %b: tensor<6xi32>) -> tensor<1x6x4x8xi8> {
  // CHECK: qk.conv2d %[[X]], %[[W]], %[[B]] {acc_type = i32, dilations = array<i64: 1, 1>, groups = 2 : i64, input_zp = -3 : i64, layout = #qk<layout nchw>, pads = array<i64: 1, 1, 1, 1>,
  // CHECK-SAME: requant = #qk.requant<multiplier = [1073741824, 1, 2, 3, 4, 2147483647], lshift = [0, 1, 2, 3, 4, 31], rshift = [7, 7, 7, 7, 0, 31], zp = -3, clamp = [-128, 127], axis = 1, rounding = half_to_even>,
  // CHECK-SAME: strides = array<i64: 2, 1>, weight_zp = array<i64: 0, 1, 2, 3, 4, -5>}
  // CHECK-SAME: : (tensor<1x4x8x8xi8>, tensor<6x2x3x3xi8>, tensor<6xi32>) -> tensor<1x6x4x8xi8>
  %0 = qk.conv2d %x, %w, %b {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64, input_zp = -3 : i64, weight_zp = array<i64: 0, 1, 2, 3, 4, -5>, acc_type = i32, requant = #qk.requant<multiplier = [1073741824, 1, 2, 3, 4, 2147483647], lshift = [0, 1, 2, 3, 4, 31], rshift = [7, 7, 7, 7, 0, 31], zp = -3, clamp = [-128, 127], axis = 1, rounding = half_to_even>, layout = #qk<layout nchw>} : (tensor<1x4x8x8xi8>, tensor<6x2x3x3xi8>, tensor<6xi32>) -> tensor<1x6x4x8xi8>
  return %0 : tensor<1x6x4x8xi8>
}

// -----

// NHWC, unsigned storage, no bias, per-tensor requantization and weight zero point.
// CHECK-LABEL: func.func @conv2d_nhwc
func.func @conv2d_nhwc(%x: tensor<1x5x5x3xui8>, %w: tensor<8x3x2x2xui8>) -> tensor<1x2x2x8xui8> {
  // CHECK: qk.conv2d %{{.*}}, %{{.*}} {acc_type = i32, dilations = array<i64: 2, 2>, groups = 1 : i64, input_zp = 128 : i64, layout = #qk<layout nhwc>, pads = array<i64: 0, 0, 0, 0>,
  // CHECK-SAME: requant = #qk.requant<multiplier = [1518500250], lshift = [2], rshift = [9], zp = 10, clamp = [0, 255], axis = -1, rounding = half_away_from_zero>,
  // CHECK-SAME: strides = array<i64: 2, 2>, weight_zp = array<i64: 255>}
  // CHECK-SAME: : (tensor<1x5x5x3xui8>, tensor<8x3x2x2xui8>) -> tensor<1x2x2x8xui8>
  %0 = qk.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 2, 2>, groups = 1 : i64, input_zp = 128 : i64, weight_zp = array<i64: 255>, acc_type = i32, requant = #qk.requant<multiplier = [1518500250], lshift = [2], rshift = [9], zp = 10, clamp = [0, 255], axis = -1, rounding = half_away_from_zero>, layout = #qk<layout nhwc>} : (tensor<1x5x5x3xui8>, tensor<8x3x2x2xui8>) -> tensor<1x2x2x8xui8>
  return %0 : tensor<1x2x2x8xui8>
}

// -----

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<4x3xi8>, %[[B:.*]]: tensor<3x2xi8>, %[[C:.*]]: tensor<2xi32>)
func.func @matmul(%a: tensor<4x3xi8>, %b: tensor<3x2xi8>, %c: tensor<2xi32>) -> (tensor<4x2xi8>, tensor<4x2xui8>) {
  // CHECK: qk.matmul %[[A]], %[[B]], %[[C]] {acc_type = i32, lhs_zp = 5 : i64,
  // CHECK-SAME: requant = #qk.requant<multiplier = [100, 200], lshift = [1, 0], rshift = [3, 4], zp = 0, clamp = [-100, 100], axis = 1, rounding = half_to_even>,
  // CHECK-SAME: rhs_zp = array<i64: -1, 1>} : (tensor<4x3xi8>, tensor<3x2xi8>, tensor<2xi32>) -> tensor<4x2xi8>
  %0 = qk.matmul %a, %b, %c {lhs_zp = 5 : i64, rhs_zp = array<i64: -1, 1>, acc_type = i32, requant = #qk.requant<multiplier = [100, 200], lshift = [1, 0], rshift = [3, 4], zp = 0, clamp = [-100, 100], axis = 1, rounding = half_to_even>} : (tensor<4x3xi8>, tensor<3x2xi8>, tensor<2xi32>) -> tensor<4x2xi8>
  // CHECK: qk.matmul %[[A]], %[[B]] {acc_type = i32, lhs_zp = 0 : i64,
  // CHECK-SAME: requant = #qk.requant<multiplier = [0], lshift = [0], rshift = [0], zp = 255, clamp = [0, 255], axis = -1, rounding = half_away_from_zero>,
  // CHECK-SAME: rhs_zp = array<i64: 0>} : (tensor<4x3xi8>, tensor<3x2xi8>) -> tensor<4x2xui8>
  %1 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [0], lshift = [0], rshift = [0], zp = 255, clamp = [0, 255], axis = -1, rounding = half_away_from_zero>} : (tensor<4x3xi8>, tensor<3x2xi8>) -> tensor<4x2xui8>
  return %0, %1 : tensor<4x2xi8>, tensor<4x2xui8>
}

// -----

// 2-D weights on the left of a batched rhs: [5, 4, 2], per-row requantization
// along the result's rows (axis rank - 2).
// CHECK-LABEL: func.func @matmul_weights_left
func.func @matmul_weights_left(%w: tensor<4x3xi8>, %x: tensor<5x3x2xi8>) -> tensor<5x4x2xi8> {
  // CHECK: qk.matmul {{.*}} : (tensor<4x3xi8>, tensor<5x3x2xi8>) -> tensor<5x4x2xi8>
  %0 = qk.matmul %w, %x {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1, 2, 3, 4], lshift = [0, 0, 0, 0], rshift = [0, 0, 0, 0], zp = 0, clamp = [-128, 127], axis = 1, rounding = half_away_from_zero>} : (tensor<4x3xi8>, tensor<5x3x2xi8>) -> tensor<5x4x2xi8>
  return %0 : tensor<5x4x2xi8>
}

// -----

// CHECK-LABEL: func.func @requantize
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi32>)
func.func @requantize(%x: tensor<2x3xi32>) -> (tensor<2x3xi8>, tensor<2x3xui8>) {
  // CHECK: qk.requantize %[[X]] {requant = #qk.requant<multiplier = [1073741824], lshift = [0], rshift = [7], zp = -3, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  %0 = qk.requantize %x {requant = #qk.requant<multiplier = [1073741824], lshift = [0], rshift = [7], zp = -3, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<2x3xi32>) -> tensor<2x3xi8>
  // Per channel along axis 0 of the input.
  // CHECK: qk.requantize %[[X]] {requant = #qk.requant<multiplier = [1, 2], lshift = [3, 4], rshift = [5, 6], zp = 7, clamp = [8, 9], axis = 0, rounding = half_to_even>} : (tensor<2x3xi32>) -> tensor<2x3xui8>
  %1 = qk.requantize %x {requant = #qk.requant<multiplier = [1, 2], lshift = [3, 4], rshift = [5, 6], zp = 7, clamp = [8, 9], axis = 0, rounding = half_to_even>} : (tensor<2x3xi32>) -> tensor<2x3xui8>
  return %0, %1 : tensor<2x3xi8>, tensor<2x3xui8>
}

// -----

// CHECK-LABEL: func.func @lut
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xi8>)
func.func @lut(%x: tensor<2x8xi8>) -> (tensor<2x8xui8>, tensor<2x8xi8>) {
  // CHECK: qk.lut %[[X]] {table = dense<7> : tensor<256xui8>} : (tensor<2x8xi8>) -> tensor<2x8xui8>
  %0 = qk.lut %x {table = dense<7> : tensor<256xui8>} : (tensor<2x8xi8>) -> tensor<2x8xui8>
  // CHECK: qk.lut %[[X]] {table = dense<"0x808182{{[0-9A-F]*}}7D7E7F"> : tensor<256xi8>} : (tensor<2x8xi8>) -> tensor<2x8xi8>
  %1 = qk.lut %x {table = dense<"0x808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F"> : tensor<256xi8>} : (tensor<2x8xi8>) -> tensor<2x8xi8>
  return %0, %1 : tensor<2x8xui8>, tensor<2x8xi8>
}
