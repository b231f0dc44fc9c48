// Round trip of every qk op and of the #qk.requant attribute,
// in the custom form and through the generic form.
// RUN: npuc-opt %s -split-input-file | npuc-opt -split-input-file | FileCheck %s
// RUN: npuc-opt %s -split-input-file --mlir-print-op-generic | npuc-opt -split-input-file | FileCheck %s

// Grouped NCHW convolution with bias and per-output-channel requantization.
// CHECK-LABEL: func.func @conv2d_nchw
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x8x8xi8>, %[[W:.*]]: tensor<6x2x3x3xi8>, %[[B:.*]]: tensor<6xi32>)
func.func @conv2d_nchw(%x: tensor<1x4x8x8xi8>, %w: tensor<6x2x3x3xi8>, %b: tensor<6xi32>) -> tensor<1x6x4x8xi8> {
  // CHECK: qk.conv2d %[[X]], %[[W]], %[[B]] {acc_type = i32, dilations = array<i64: 1, 1>, groups = 2 : i64, input_zp = -3 : i64, pads = array<i64: 1, 1, 1, 1>,
  // CHECK-SAME: requant = #qk.requant<multiplier = [1073741824, 1, 2, 3, 4, 2147483647], lshift = [0, 1, 2, 3, 4, 31], rshift = [7, 7, 7, 7, 0, 31], zp = -3, clamp = [-128, 127], axis = 1, rounding = half_away_from_zero>,
  // CHECK-SAME: strides = array<i64: 2, 1>, weight_zp = array<i64: 0, 1, 2, 3, 4, -5>}
  // CHECK-SAME: : (tensor<1x4x8x8xi8>, tensor<6x2x3x3xi8>, tensor<6xi32>) -> tensor<1x6x4x8xi8>
  %0 = qk.conv2d %x, %w, %b {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64, input_zp = -3 : i64, weight_zp = array<i64: 0, 1, 2, 3, 4, -5>, acc_type = i32, requant = #qk.requant<multiplier = [1073741824, 1, 2, 3, 4, 2147483647], lshift = [0, 1, 2, 3, 4, 31], rshift = [7, 7, 7, 7, 0, 31], zp = -3, clamp = [-128, 127], axis = 1, rounding = half_away_from_zero>} : (tensor<1x4x8x8xi8>, tensor<6x2x3x3xi8>, tensor<6xi32>) -> tensor<1x6x4x8xi8>
  return %0 : tensor<1x6x4x8xi8>
}

// -----

// Unsigned storage, dilated, no bias, per-tensor requantization and weight zero point.
// CHECK-LABEL: func.func @conv2d_ui8
func.func @conv2d_ui8(%x: tensor<1x3x5x5xui8>, %w: tensor<8x3x2x2xui8>) -> tensor<1x8x2x2xui8> {
  // CHECK: qk.conv2d %{{.*}}, %{{.*}} {acc_type = i32, dilations = array<i64: 2, 2>, groups = 1 : i64, input_zp = 128 : i64, pads = array<i64: 0, 0, 0, 0>,
  // CHECK-SAME: requant = #qk.requant<multiplier = [1518500250], lshift = [2], rshift = [9], zp = 10, clamp = [0, 255], axis = -1, rounding = half_away_from_zero>,
  // CHECK-SAME: strides = array<i64: 2, 2>, weight_zp = array<i64: 255>}
  // CHECK-SAME: : (tensor<1x3x5x5xui8>, tensor<8x3x2x2xui8>) -> tensor<1x8x2x2xui8>
  %0 = qk.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 2, 2>, groups = 1 : i64, input_zp = 128 : i64, weight_zp = array<i64: 255>, acc_type = i32, requant = #qk.requant<multiplier = [1518500250], lshift = [2], rshift = [9], zp = 10, clamp = [0, 255], axis = -1, rounding = half_away_from_zero>} : (tensor<1x3x5x5xui8>, tensor<8x3x2x2xui8>) -> tensor<1x8x2x2xui8>
  return %0 : tensor<1x8x2x2xui8>
}

// -----

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<4x3xi8>, %[[B:.*]]: tensor<3x2xi8>, %[[C:.*]]: tensor<2xi32>)
func.func @matmul(%a: tensor<4x3xi8>, %b: tensor<3x2xi8>, %c: tensor<2xi32>) -> (tensor<4x2xi8>, tensor<4x2xui8>) {
  // CHECK: qk.matmul %[[A]], %[[B]], %[[C]] {acc_type = i32, lhs_zp = 5 : i64,
  // CHECK-SAME: requant = #qk.requant<multiplier = [100, 200], lshift = [1, 0], rshift = [3, 4], zp = 0, clamp = [-100, 100], axis = 1, rounding = half_away_from_zero>,
  // CHECK-SAME: rhs_zp = array<i64: -1, 1>} : (tensor<4x3xi8>, tensor<3x2xi8>, tensor<2xi32>) -> tensor<4x2xi8>
  %0 = qk.matmul %a, %b, %c {lhs_zp = 5 : i64, rhs_zp = array<i64: -1, 1>, acc_type = i32, requant = #qk.requant<multiplier = [100, 200], lshift = [1, 0], rshift = [3, 4], zp = 0, clamp = [-100, 100], axis = 1, rounding = half_away_from_zero>} : (tensor<4x3xi8>, tensor<3x2xi8>, tensor<2xi32>) -> tensor<4x2xi8>
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

// #qk.tiling, as select-tiling writes it on a kernel and on its loop nests.
// CHECK-LABEL: func.func @tilings
func.func @tilings(%a: tensor<4x3xi8>, %b: tensor<3x2xi8>) -> tensor<4x2xi8> {
  // CHECK: npuc.loop_tiling = [#qk.tiling<space = [1, 1, 4, 2], tile = [1, 1, 2, 2], buffers = 2, cycles = 100, gm_bytes = 64>]
  // CHECK-SAME: npuc.tiling = #qk.tiling<tile = [4, 2, 3], buffers = 1, resident, stacked>
  %0 = qk.matmul %a, %b {lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, acc_type = i32, requant = #qk.requant<multiplier = [1], lshift = [0], rshift = [0], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>, npuc.tiling = #qk.tiling<stacked, tile = [4, 2, 3], resident, buffers = 1>, npuc.loop_tiling = [#qk.tiling<space = [1, 1, 4, 2], tile = [1, 1, 2, 2], buffers = 2, cycles = 100, gm_bytes = 64>]} : (tensor<4x3xi8>, tensor<3x2xi8>) -> tensor<4x2xi8>
  return %0 : tensor<4x2xi8>
}

// -----

// Both forms of qk.requantize.
// CHECK-LABEL: func.func @requantize
// CHECK: qk.requantize %{{.*}} {form = #qk.requantize_form<top_bit>} : (tensor<4x!quant.uniform<u8:f32, 2.500000e-01:128>>) -> tensor<4x!quant.uniform<i8:f32, 2.500000e-01>>
// CHECK: qk.requantize %{{.*}} {form = #qk.requantize_form<f32>} : (tensor<4x!quant.uniform<i8:f32, 2.500000e-01>>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>
func.func @requantize(%x: tensor<4x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:3>> {
  %y = qk.requantize %x {form = #qk.requantize_form<top_bit>} : (tensor<4x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<4x!quant.uniform<i8:f32, 0.25>>
  %z = qk.requantize %y {form = #qk.requantize_form<f32>} : (tensor<4x!quant.uniform<i8:f32, 0.25>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:3>>
  return %z : tensor<4x!quant.uniform<i8:f32, 0.5:3>>
}

// -----

// qk.binary: the ISA's function names, broadcasting operands.
// CHECK-LABEL: func.func @binary
// CHECK: qk.binary %{{.*}}, %{{.*}} {fn = #qk.binary_fn<SRA>} : (tensor<2x4xui16>, tensor<4xui16>) -> tensor<2x4xui16>
func.func @binary(%a: tensor<2x4xui16>, %b: tensor<4xui16>) -> tensor<2x4xui16> {
  %0 = qk.binary %a, %b {fn = #qk.binary_fn<SRA>} : (tensor<2x4xui16>, tensor<4xui16>) -> tensor<2x4xui16>
  return %0 : tensor<2x4xui16>
}

// -----

// CHECK-LABEL: func.func @map
// CHECK: qk.map %{{.*}} {fn = #qk.unary_fn<TANH>} : (tensor<2x4xf16>) -> tensor<2x4xf16>
func.func @map(%a: tensor<2x4xf16>) -> tensor<2x4xf16> {
  %0 = qk.map %a {fn = #qk.unary_fn<TANH>} : (tensor<2x4xf16>) -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

// CHECK-LABEL: func.func @pool
// CHECK: qk.pool %{{.*}} {ceil_mode = true, count_include_pad = true, dilations = array<i64: 1, 1>, fn = #qk.pool_fn<average>
// CHECK: qk.pool %{{.*}} {ceil_mode = false, count_include_pad = false, dilations = array<i64: 2>, fn = #qk.pool_fn<max>
func.func @pool(%a: tensor<1x3x6x7x!quant.uniform<i8:f32, 0.5:-3>>, %b: tensor<2x4x9xui8>) -> (tensor<1x3x3x4x!quant.uniform<i8:f32, 0.25>>, tensor<2x4x6xui8>) {
  %0 = qk.pool %a {fn = #qk.pool_fn<average>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = true, count_include_pad = true} : (tensor<1x3x6x7x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x3x3x4x!quant.uniform<i8:f32, 0.25>>
  %1 = qk.pool %b {fn = #qk.pool_fn<max>, kernel_shape = array<i64: 3>, strides = array<i64: 1>, pads = array<i64: 1, 0>, dilations = array<i64: 2>, ceil_mode = false, count_include_pad = false} : (tensor<2x4x9xui8>) -> tensor<2x4x6xui8>
  return %0, %1 : tensor<1x3x3x4x!quant.uniform<i8:f32, 0.25>>, tensor<2x4x6xui8>
}

// -----

// CHECK-LABEL: func.func @softmax
// CHECK: qk.softmax %{{.*}} {axis = 0 : i64, log = true} : (tensor<5x3xf32>) -> tensor<5x3xf32>
func.func @softmax(%a: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %0 = qk.softmax %a {axis = 0 : i64, log = true} : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

// CHECK-LABEL: func.func @compare
// CHECK: qk.compare %{{.*}}, %{{.*}} {fn = #qk.compare_fn<GE>} : (tensor<2x4xi32>, tensor<4xi32>) -> tensor<2x4xi1>
func.func @compare(%a: tensor<2x4xi32>, %b: tensor<4xi32>) -> tensor<2x4xi1> {
  %0 = qk.compare %a, %b {fn = #qk.compare_fn<GE>} : (tensor<2x4xi32>, tensor<4xi32>) -> tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}

// -----

// CHECK-LABEL: func.func @arg_reduce
// CHECK: qk.arg_reduce %{{.*}} {axis = 2 : i64, fn = #qk.reduce_fn<MIN>, keepdims = false, select_last_index = true} : (tensor<2x3x4xi8>) -> tensor<2x3xi64>
func.func @arg_reduce(%a: tensor<2x3x4xi8>) -> tensor<2x3xi64> {
  %0 = qk.arg_reduce %a {fn = #qk.reduce_fn<MIN>, axis = 2 : i64, keepdims = false, select_last_index = true} : (tensor<2x3x4xi8>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// CHECK-LABEL: func.func @reduce
// CHECK: qk.reduce %{{.*}} {axes = array<i64: 1, 2>, fn = #qk.reduce_fn<SUM>, keepdims = false, post = #qk.reduce_post<log_plus_max>, pre = #qk.reduce_pre<shifted_exp>} : (tensor<2x3x4xf32>) -> tensor<2xf32>
// CHECK: qk.reduce %{{.*}} {axes = array<i64: 2>, fn = #qk.reduce_fn<MIN>, keepdims = true, post = #qk.reduce_post<none>, pre = #qk.reduce_pre<none>} : (tensor<2x3x4x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<2x3x1x!quant.uniform<i8:f32, 5.000000e-01>>
func.func @reduce(%a: tensor<2x3x4xf32>, %q: tensor<2x3x4x!quant.uniform<i8:f32, 0.5>>) -> (tensor<2xf32>, tensor<2x3x1x!quant.uniform<i8:f32, 0.5>>) {
  %0 = qk.reduce %a {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<shifted_exp>, post = #qk.reduce_post<log_plus_max>, axes = array<i64: 1, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2xf32>
  %1 = qk.reduce %q {fn = #qk.reduce_fn<MIN>, pre = #qk.reduce_pre<none>, post = #qk.reduce_post<none>, axes = array<i64: 2>, keepdims = true} : (tensor<2x3x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x3x1x!quant.uniform<i8:f32, 0.5>>
  return %0, %1 : tensor<2xf32>, tensor<2x3x1x!quant.uniform<i8:f32, 0.5>>
}

// -----

// CHECK-LABEL: func.func @layer_norm
// CHECK: qk.layer_norm %{{.*}}, %{{.*}} {axis = 1 : i64, epsilon = 9.99999974E-6 : f32} : (tensor<2x8xf32>, tensor<1xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
func.func @layer_norm(%x: tensor<2x8xf32>, %s: tensor<1xf32>) -> tensor<2x8xf32> {
  %y:3 = qk.layer_norm %x, %s {axis = 1 : i64, epsilon = 1.0e-5 : f32} : (tensor<2x8xf32>, tensor<1xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return %y#0 : tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @channel_params
// CHECK: qk.batch_norm
// CHECK: qk.channel_affine %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
func.func @channel_params(%x: tensor<2x3xf32>, %p: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = qk.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-3 : f32} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = qk.channel_affine %0, %p, %p : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @select_cast
// CHECK: qk.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<2x4xi8>, tensor<1xi8>) -> tensor<2x4xi8>
// CHECK: qk.cast %{{.*}} : (tensor<2x4xi8>) -> tensor<2x4xf16>
func.func @select_cast(%c: tensor<4xi1>, %x: tensor<2x4xi8>, %y: tensor<1xi8>) -> tensor<2x4xf16> {
  %0 = qk.select %c, %x, %y : (tensor<4xi1>, tensor<2x4xi8>, tensor<1xi8>) -> tensor<2x4xi8>
  %1 = qk.cast %0 : (tensor<2x4xi8>) -> tensor<2x4xf16>
  return %1 : tensor<2x4xf16>
}

// -----

// CHECK-LABEL: func.func @copy
// CHECK: qk.copy %{{.*}} [#qk.address_plan<shape = [2, 1], source = (d0, d1) -> (d0, 1), dest = (d0, d1) -> (d0, d1)>, #qk.address_plan<shape = [2, 1], source = (d0, d1) -> (d0, 0), dest = (d0, d1) -> (d0, d1 + 1)>] : (tensor<2x2xi8>) -> tensor<2x2xi8>
// CHECK: qk.copy %{{.*}} [#qk.address_plan<shape = [2, 3, 2], source = (d0, d1, d2) -> (d1, 0), dest = (d0, d1, d2) -> (d0 * 3 + d1, d2)>] : (tensor<3x1xf32>) -> tensor<6x2xf32>
func.func @copy(%x: tensor<2x2xi8>, %y: tensor<3x1xf32>) -> (tensor<2x2xi8>, tensor<6x2xf32>) {
  %0 = qk.copy %x [#qk.address_plan<shape = [2, 1], source = (d0, d1) -> (d0, 1), dest = (d0, d1) -> (d0, d1)>,
                   #qk.address_plan<shape = [2, 1], source = (d0, d1) -> (d0, 0), dest = (d0, d1) -> (d0, d1 + 1)>] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  %1 = qk.copy %y [#qk.address_plan<shape = [2, 3, 2], source = (d0, d1, d2) -> (d1, 0), dest = (d0, d1, d2) -> (d0 * 3 + d1, d2)>] : (tensor<3x1xf32>) -> tensor<6x2xf32>
  return %0, %1 : tensor<2x2xi8>, tensor<6x2xf32>
}

// -----

// The float form of qk.matmul: f32 accumulation, no integer contract.
// CHECK-LABEL: func.func @float_matmul
// CHECK: qk.matmul %{{.*}}, %{{.*}} {acc_type = f32} : (tensor<4x8xf16>, tensor<8x3xf16>) -> tensor<4x3xf32>
func.func @float_matmul(%a: tensor<4x8xf16>, %b: tensor<8x3xf16>) -> tensor<4x3xf32> {
  %y = qk.matmul %a, %b {acc_type = f32} : (tensor<4x8xf16>, tensor<8x3xf16>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

// The float form of qk.conv2d: an f32 bias, f32 accumulation, a fused
// activation.
// CHECK-LABEL: func.func @float_conv
// CHECK: qk.conv2d %{{.*}}, %{{.*}}, %{{.*}} {acc_type = f32, activation = #qk.activation<clip>, activation_max = 6.000000e+00 : f64, activation_min = 0.000000e+00 : f64, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
func.func @float_conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %y = qk.conv2d %x, %w, %b {acc_type = f32, activation = #qk.activation<clip>, activation_min = 0.0 : f64, activation_max = 6.0 : f64, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}

// -----

// CHECK-LABEL: func.func @conv_transpose
// CHECK: qk.conv_transpose %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, group = 1 : i64, output_padding = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>, tensor<2x4x2x2xf32>) -> tensor<1x4x7x7xf32>
func.func @conv_transpose(%x: tensor<1x2x3x3xf32>, %w: tensor<2x4x2x2xf32>) -> tensor<1x4x7x7xf32> {
  %y = qk.conv_transpose %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, output_padding = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>, tensor<2x4x2x2xf32>) -> tensor<1x4x7x7xf32>
  return %y : tensor<1x4x7x7xf32>
}

// -----

// Gemm's form of qk.matmul: transposes, scales, the addend C.
// CHECK-LABEL: func.func @gemm
// CHECK: qk.matmul %{{.*}}, %{{.*}}, %{{.*}} {acc_type = f32, alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32, trans_a = true} : (tensor<8x4xf32>, tensor<8x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
func.func @gemm(%a: tensor<8x4xf32>, %b: tensor<8x3xf32>, %c: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %y = qk.matmul %a, %b, %c {acc_type = f32, alpha = 0.5 : f32, beta = 2.0 : f32, trans_a = true} : (tensor<8x4xf32>, tensor<8x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}
