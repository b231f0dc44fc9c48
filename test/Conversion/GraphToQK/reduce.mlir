// convert-graph-to-qk: graph.max_pool and graph.average_pool become qk.pool
// with the window's function, the window (kernel, strides, pads,
// dilations, ceil_mode; count_include_pad, false for a max) and the types
// as they were: f32, quantized, plain 8-bit integers. graph.softmax and
// graph.log_softmax become qk.softmax along their axis, graph.argmax and
// graph.argmin qk.arg_reduce (MAX, MIN); graph.layer_norm, batch_norm and
// channel_affine the qk kernels of those names. Every graph.reduce_* and the
// global poolings become qk.reduce: VECTOR's reduction with the steps before
// and after it, the global poolings over the spatial axes, kept.
// RUN: npuc-opt %s -split-input-file --convert-graph-to-qk | FileCheck %s

// CHECK-LABEL: func.func @max
// CHECK: %[[Y:.*]] = qk.pool %arg0 {ceil_mode = true, count_include_pad = false, dilations = array<i64: 1, 2>, fn = #qk.pool_fn<max>, kernel_shape = array<i64: 3, 2>, pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 2>} : (tensor<1x3x7x8xf32>) -> tensor<1x3x4x4xf32>
// CHECK: return %[[Y]]
// CHECK-NOT: graph.max_pool
func.func @max(%x: tensor<1x3x7x8xf32>) -> tensor<1x3x4x4xf32> {
  %y = graph.max_pool %x {kernel_shape = array<i64: 3, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 1, 0>, dilations = array<i64: 1, 2>, ceil_mode = true} : (tensor<1x3x7x8xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @average
// CHECK: qk.pool %arg0 {ceil_mode = false, count_include_pad = true, dilations = array<i64: 1>, fn = #qk.pool_fn<average>, kernel_shape = array<i64: 3>, pads = array<i64: 1, 1>, strides = array<i64: 1>} : (tensor<2x4x9x!quant.uniform<u8:f32, 2.500000e-01:128>>) -> tensor<2x4x9x!quant.uniform<u8:f32, 5.000000e-01:120>>
func.func @average(%x: tensor<2x4x9x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<2x4x9x!quant.uniform<u8:f32, 0.5:120>> {
  %y = graph.average_pool %x {kernel_shape = array<i64: 3>, strides = array<i64: 1>, pads = array<i64: 1, 1>, dilations = array<i64: 1>, ceil_mode = false, count_include_pad = true} : (tensor<2x4x9x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<2x4x9x!quant.uniform<u8:f32, 0.5:120>>
  return %y : tensor<2x4x9x!quant.uniform<u8:f32, 0.5:120>>
}

// -----

// Pooling that has no NPU lowering converts all the same: the lowering's
// selector, not the conversion, refuses it (3-D pooling here).
// CHECK-LABEL: func.func @three_d
// CHECK: qk.pool %arg0 {{.*}}fn = #qk.pool_fn<max>{{.*}} : (tensor<1x1x4x4x4xi8>) -> tensor<1x1x2x2x2xi8>
func.func @three_d(%x: tensor<1x1x4x4x4xi8>) -> tensor<1x1x2x2x2xi8> {
  %y = graph.max_pool %x {kernel_shape = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, ceil_mode = false} : (tensor<1x1x4x4x4xi8>) -> tensor<1x1x2x2x2xi8>
  return %y : tensor<1x1x2x2x2xi8>
}

// -----

// CHECK-LABEL: func.func @softmax
// CHECK: %[[S:.*]] = qk.softmax %arg0 {axis = 1 : i64, log = false} : (tensor<2x10x3x!quant.uniform<i8:f32, 1.000000e-01>>) -> tensor<2x10x3x!quant.uniform<u8:f32, 3.906250e-03>>
// CHECK: qk.softmax %arg1 {axis = 2 : i64, log = true} : (tensor<2x10x3xf32>) -> tensor<2x10x3xf32>
// CHECK-NOT: graph.
func.func @softmax(%x: tensor<2x10x3x!quant.uniform<i8:f32, 0.1>>, %z: tensor<2x10x3xf32>) -> (tensor<2x10x3x!quant.uniform<u8:f32, 0.00390625>>, tensor<2x10x3xf32>) {
  %y = graph.softmax %x {axis = 1 : i64} : (tensor<2x10x3x!quant.uniform<i8:f32, 0.1>>) -> tensor<2x10x3x!quant.uniform<u8:f32, 0.00390625>>
  %l = graph.log_softmax %z {axis = 2 : i64} : (tensor<2x10x3xf32>) -> tensor<2x10x3xf32>
  return %y, %l : tensor<2x10x3x!quant.uniform<u8:f32, 0.00390625>>, tensor<2x10x3xf32>
}

// -----

// CHECK-LABEL: func.func @arg
// CHECK: qk.arg_reduce %arg0 {axis = 1 : i64, fn = #qk.reduce_fn<MAX>, keepdims = true, select_last_index = false} : (tensor<3x5xf32>) -> tensor<3x1xi64>
// CHECK: qk.arg_reduce %arg0 {axis = 0 : i64, fn = #qk.reduce_fn<MIN>, keepdims = false, select_last_index = true} : (tensor<3x5xf32>) -> tensor<5xi64>
// CHECK-NOT: graph.
func.func @arg(%x: tensor<3x5xf32>) -> (tensor<3x1xi64>, tensor<5xi64>) {
  %0 = graph.argmax %x {axis = 1 : i64, keepdims = true, select_last_index = false} : (tensor<3x5xf32>) -> tensor<3x1xi64>
  %1 = graph.argmin %x {axis = 0 : i64, keepdims = false, select_last_index = true} : (tensor<3x5xf32>) -> tensor<5xi64>
  return %0, %1 : tensor<3x1xi64>, tensor<5xi64>
}

// -----

// CHECK-LABEL: func.func @reductions
// CHECK: qk.reduce %arg0 {axes = array<i64: 1>, fn = #qk.reduce_fn<SUM>, keepdims = false, post = #qk.reduce_post<none>, pre = #qk.reduce_pre<none>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// CHECK: qk.reduce %arg0 {axes = array<i64: 1, 2>, fn = #qk.reduce_fn<SUM>, keepdims = true, post = #qk.reduce_post<mean>, pre = #qk.reduce_pre<none>} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
// CHECK: qk.reduce %arg0 {axes = array<i64: 2>, fn = #qk.reduce_fn<MAX>, keepdims = true, post = #qk.reduce_post<none>, pre = #qk.reduce_pre<none>} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
// CHECK: qk.reduce %arg0 {axes = array<i64: 0>, fn = #qk.reduce_fn<MIN>, keepdims = false, post = #qk.reduce_post<none>, pre = #qk.reduce_pre<none>} : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
// CHECK: qk.reduce %arg0 {axes = array<i64: 2>, fn = #qk.reduce_fn<SUM>, keepdims = false, post = #qk.reduce_post<none>, pre = #qk.reduce_pre<abs>} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
// CHECK: qk.reduce %arg0 {axes = array<i64: 2>, fn = #qk.reduce_fn<SUM>, keepdims = false, post = #qk.reduce_post<sqrt>, pre = #qk.reduce_pre<square>} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
// CHECK: qk.reduce %arg0 {axes = array<i64: 2>, fn = #qk.reduce_fn<SUM>, keepdims = false, post = #qk.reduce_post<none>, pre = #qk.reduce_pre<square>} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
// CHECK: qk.reduce %arg0 {axes = array<i64: 2>, fn = #qk.reduce_fn<SUM>, keepdims = false, post = #qk.reduce_post<log>, pre = #qk.reduce_pre<none>} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
// CHECK: qk.reduce %arg0 {axes = array<i64: 2>, fn = #qk.reduce_fn<SUM>, keepdims = false, post = #qk.reduce_post<log_plus_max>, pre = #qk.reduce_pre<shifted_exp>} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
// CHECK-NOT: graph.
func.func @reductions(%x: tensor<2x3x4xf32>) -> (tensor<2x4xf32>, tensor<2x1x1xf32>, tensor<2x3x1xf32>, tensor<3x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = graph.reduce_sum %x {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %1 = graph.reduce_mean %x {axes = array<i64: 1, 2>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %2 = graph.reduce_max %x {axes = array<i64: 2>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %3 = graph.reduce_min %x {axes = array<i64: 0>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
  %4 = graph.reduce_l1 %x {axes = array<i64: 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  %5 = graph.reduce_l2 %x {axes = array<i64: 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  %6 = graph.reduce_sum_square %x {axes = array<i64: 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  %7 = graph.reduce_log_sum %x {axes = array<i64: 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  %8 = graph.reduce_log_sum_exp %x {axes = array<i64: 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2x4xf32>, tensor<2x1x1xf32>, tensor<2x3x1xf32>, tensor<3x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// GlobalAveragePool is the mean, GlobalMaxPool the maximum, over the spatial
// axes (2 to the last) kept as extent 1; quantized types stay.
// CHECK-LABEL: func.func @global_pools
// CHECK: qk.reduce %arg0 {axes = array<i64: 2, 3>, fn = #qk.reduce_fn<SUM>, keepdims = true, post = #qk.reduce_post<mean>, pre = #qk.reduce_pre<none>} : (tensor<1x8x5x7x!quant.uniform<u8:f32, 5.000000e-01:3>>) -> tensor<1x8x1x1x!quant.uniform<u8:f32, 2.500000e-01:1>>
// CHECK: qk.reduce %arg1 {axes = array<i64: 2>, fn = #qk.reduce_fn<MAX>, keepdims = true, post = #qk.reduce_post<none>, pre = #qk.reduce_pre<none>} : (tensor<2x3x9xf32>) -> tensor<2x3x1xf32>
func.func @global_pools(%q: tensor<1x8x5x7x!quant.uniform<u8:f32, 0.5:3>>, %x: tensor<2x3x9xf32>) -> (tensor<1x8x1x1x!quant.uniform<u8:f32, 0.25:1>>, tensor<2x3x1xf32>) {
  %0 = graph.global_average_pool %q : (tensor<1x8x5x7x!quant.uniform<u8:f32, 0.5:3>>) -> tensor<1x8x1x1x!quant.uniform<u8:f32, 0.25:1>>
  %1 = graph.global_max_pool %x : (tensor<2x3x9xf32>) -> tensor<2x3x1xf32>
  return %0, %1 : tensor<1x8x1x1x!quant.uniform<u8:f32, 0.25:1>>, tensor<2x3x1xf32>
}

// -----

// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[Y:.*]], %[[M:.*]], %{{.*}} = qk.layer_norm %arg0, %arg1, %arg2 {axis = 2 : i64, epsilon = 9.99999974E-6 : f32} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<2x4x1xf32>)
// CHECK: %[[Q:.*]], %{{.*}}, %{{.*}} = qk.layer_norm %arg3, %arg1 {axis = 1 : i64, epsilon = 1.000000e-03 : f32} : (tensor<3x8x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<8xf32>) -> (tensor<3x8x!quant.uniform<i8:f32, 2.500000e-01>>, tensor<3x1xf32>, tensor<3x1xf32>)
// CHECK: return %[[Y]], %[[M]], %[[Q]]
func.func @layer_norm(%x: tensor<2x4x8xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>, %q: tensor<3x8x!quant.uniform<i8:f32, 0.5>>) -> (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<3x8x!quant.uniform<i8:f32, 0.25>>) {
  %y, %m, %i = graph.layer_norm %x, %s, %b {axis = 2 : i64, epsilon = 1.0e-5 : f32, stash_type = 1 : i64} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<2x4x1xf32>)
  %z, %m2, %i2 = graph.layer_norm %q, %s {axis = 1 : i64, epsilon = 1.0e-3 : f32, stash_type = 1 : i64} : (tensor<3x8x!quant.uniform<i8:f32, 0.5>>, tensor<8xf32>) -> (tensor<3x8x!quant.uniform<i8:f32, 0.25>>, tensor<3x1xf32>, tensor<3x1xf32>)
  return %y, %m, %z : tensor<2x4x8xf32>, tensor<2x4x1xf32>, tensor<3x8x!quant.uniform<i8:f32, 0.25>>
}

// -----

// CHECK-LABEL: func.func @channel_params
// CHECK: %[[N:.*]] = qk.batch_norm %arg0, %arg1, %arg2, %arg3, %arg4 {epsilon = 9.99999974E-6 : f32} : (tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
// CHECK: qk.channel_affine %[[N]], %arg1, %arg2 : (tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
// CHECK-NOT: graph.
func.func @channel_params(%x: tensor<1x4x3x3xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
  %0 = graph.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-5 : f32} : (tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  %1 = graph.channel_affine %0, %s, %b : (tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  return %1 : tensor<1x4x3x3xf32>
}
