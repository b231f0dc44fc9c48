// Round trip of every graph op, in the custom form and through the generic
// form. Each op appears at least once; the CHECK lines pin operands,
// attributes and the functional type, so a printer that drops an attribute or
// a quantization parameter fails.
// RUN: npuc-opt %s -split-input-file | npuc-opt -split-input-file | FileCheck %s
// RUN: npuc-opt %s -split-input-file --mlir-print-op-generic | npuc-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3xf32>)
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: graph.add %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.sub %[[B]], %[[A]] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.sub %b, %a : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.mul %[[A]], %[[A]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.mul %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.div %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = graph.div %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.pow %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = graph.pow %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.max %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %5 = graph.max %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.min %[[B]], %[[A]] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = graph.min %b, %a : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %6 : tensor<2x3xf32>
}

// -----

// Broadcasting of size-1 and rank-0 operands, with an integer element type.
// CHECK-LABEL: func.func @binary_broadcast
func.func @binary_broadcast(%a: tensor<4x1xi32>, %b: tensor<1x5xi32>, %s: tensor<i32>) -> tensor<4x5xi32> {
  // CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<4x1xi32>, tensor<1x5xi32>) -> tensor<4x5xi32>
  %0 = graph.add %a, %b : (tensor<4x1xi32>, tensor<1x5xi32>) -> tensor<4x5xi32>
  // CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<4x5xi32>, tensor<i32>) -> tensor<4x5xi32>
  %1 = graph.mul %0, %s : (tensor<4x5xi32>, tensor<i32>) -> tensor<4x5xi32>
  return %1 : tensor<4x5xi32>
}

// -----

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.*]]: tensor<1x8xf32>)
func.func @unary(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // CHECK: graph.relu %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %0 = graph.relu %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.sigmoid %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %1 = graph.sigmoid %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.tanh %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %2 = graph.tanh %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.exp %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %3 = graph.exp %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.log %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %4 = graph.log %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.neg %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %5 = graph.neg %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.abs %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %6 = graph.abs %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.sign %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %7 = graph.sign %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.sqrt %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %8 = graph.sqrt %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.reciprocal %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %9 = graph.reciprocal %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.erf %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %10 = graph.erf %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.floor %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %11 = graph.floor %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.ceil %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %12 = graph.ceil %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.identity %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %13 = graph.identity %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.leaky_relu %[[X]] {alpha = 1.000000e-01 : f32} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %14 = graph.leaky_relu %x {alpha = 0.1 : f32} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.clip %[[X]] {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %15 = graph.clip %x {min = 0.0 : f64, max = 6.0 : f64} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // Both bounds are optional.
  // CHECK: graph.clip %[[X]] {min = -1.000000e+00 : f64} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %16 = graph.clip %x {min = -1.0 : f64} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: graph.clip %[[X]] : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %17 = graph.clip %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return %17 : tensor<1x8xf32>
}

// -----

// A unary op may change the quantization (scale, zero point), not the shape.
// CHECK-LABEL: func.func @unary_quantized
func.func @unary_quantized(%x: tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25:7>> {
  // CHECK: graph.relu %{{.*}} : (tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<2x3x!quant.uniform<i8:f32, 2.500000e-01:7>>
  %0 = graph.relu %x : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25:7>>
  return %0 : tensor<2x3x!quant.uniform<i8:f32, 0.25:7>>
}

// -----

// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x8x8xf32>, %[[W:.*]]: tensor<6x2x3x3xf32>, %[[B:.*]]: tensor<6xf32>)
func.func @conv(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x4x8xf32> {
  // CHECK: graph.conv %[[X]], %[[W]], %[[B]] {dilations = array<i64: 1, 1>, group = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 1>} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x8xf32>
  %0 = graph.conv %x, %w, %b {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x8xf32>
  return %0 : tensor<1x6x4x8xf32>
}

// -----

// Without bias, with a per-axis quantized weight (axis 0, one scale per output channel).
// CHECK-LABEL: func.func @conv_quantized
func.func @conv_quantized(%xq: tensor<1x2x5x!quant.uniform<i8:f32, 0.5:-3>>, %w: tensor<2x2x3x!quant.uniform<i8:f32:0, {0.5:0, 0.25:0}>>) {
  // CHECK: graph.conv %{{.*}}, %{{.*}} {dilations = array<i64: 2>, group = 1 : i64, pads = array<i64: 2, 0>, strides = array<i64: 1>} : (tensor<1x2x5x!quant.uniform<i8:f32, 5.000000e-01:-3>>, tensor<2x2x3x!quant.uniform<i8:f32:0, {5.000000e-01,2.500000e-01}>>) -> tensor<1x2x3x!quant.uniform<i8:f32, 1.000000e+00:2>>
  %0 = graph.conv %xq, %w {strides = array<i64: 1>, pads = array<i64: 2, 0>, dilations = array<i64: 2>, group = 1 : i64} : (tensor<1x2x5x!quant.uniform<i8:f32, 0.5:-3>>, tensor<2x2x3x!quant.uniform<i8:f32:0, {0.5:0, 0.25:0}>>) -> tensor<1x2x3x!quant.uniform<i8:f32, 1.0:2>>
  return
}

// -----

// CHECK-LABEL: func.func @gemm_matmul
func.func @gemm_matmul(%a: tensor<4x3xf32>, %b: tensor<5x4xf32>, %c: tensor<5xf32>, %m: tensor<2x3x4xf32>, %v: tensor<4xf32>) {
  // CHECK: graph.gemm %{{.*}}, %{{.*}}, %{{.*}} {alpha = 1.000000e+00 : f32, beta = 5.000000e-01 : f32, trans_a = true, trans_b = true} : (tensor<4x3xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  %0 = graph.gemm %a, %b, %c {trans_a = true, trans_b = true, alpha = 1.0 : f32, beta = 0.5 : f32} : (tensor<4x3xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  // CHECK: graph.gemm %{{.*}}, %{{.*}} {alpha = 2.000000e+00 : f32, beta = 0.000000e+00 : f32, trans_a = false, trans_b = false} : (tensor<5x4xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  %1 = graph.gemm %b, %a {trans_a = false, trans_b = false, alpha = 2.0 : f32, beta = 0.0 : f32} : (tensor<5x4xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  // Batched by broadcasting, and with a 1-D rhs promoted then dropped.
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<4x3xf32>) -> tensor<2x3x3xf32>
  %2 = graph.matmul %m, %a : (tensor<2x3x4xf32>, tensor<4x3xf32>) -> tensor<2x3x3xf32>
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  %3 = graph.matmul %m, %v : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

// CHECK-LABEL: func.func @pooling
func.func @pooling(%x: tensor<1x3x7x7xf32>) {
  // CHECK: graph.max_pool %{{.*}} {ceil_mode = true, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x3x7x7xf32>) -> tensor<1x3x3x3xf32>
  %0 = graph.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = true} : (tensor<1x3x7x7xf32>) -> tensor<1x3x3x3xf32>
  // CHECK: graph.average_pool %{{.*}} {ceil_mode = false, count_include_pad = true, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x3x7x7xf32>) -> tensor<1x3x4x4xf32>
  %1 = graph.average_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = false, count_include_pad = true} : (tensor<1x3x7x7xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: graph.global_average_pool %{{.*}} : (tensor<1x3x7x7xf32>) -> tensor<1x3x1x1xf32>
  %2 = graph.global_average_pool %x : (tensor<1x3x7x7xf32>) -> tensor<1x3x1x1xf32>
  // CHECK: graph.global_max_pool %{{.*}} : (tensor<1x3x7x7xf32>) -> tensor<1x3x1x1xf32>
  %3 = graph.global_max_pool %x : (tensor<1x3x7x7xf32>) -> tensor<1x3x1x1xf32>
  return
}

// -----

// CHECK-LABEL: func.func @normalization
func.func @normalization(%x: tensor<2x3x4xf32>, %p: tensor<3xf32>) {
  // CHECK: graph.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 9.99999974E-6 : f32} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  %0 = graph.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-5 : f32} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  // CHECK: graph.softmax %{{.*}} {axis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %1 = graph.softmax %x {axis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: graph.channel_affine %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  %2 = graph.channel_affine %x, %p, %p : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<2x3x4xf32>) {
  // CHECK: graph.reduce_mean %{{.*}} {axes = array<i64: 1, 2>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %0 = graph.reduce_mean %x {axes = array<i64: 1, 2>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  // CHECK: graph.reduce_sum %{{.*}} {axes = array<i64: 0, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %1 = graph.reduce_sum %x {axes = array<i64: 0, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  // CHECK: graph.reduce_max %{{.*}} {axes = array<i64: 0, 1, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<f32>
  %2 = graph.reduce_max %x {axes = array<i64: 0, 1, 2>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<f32>
  // CHECK: graph.reduce_min %{{.*}} {axes = array<i64: 1>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %3 = graph.reduce_min %x {axes = array<i64: 1>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return
}

// -----

// CHECK-LABEL: func.func @tensor_ops
func.func @tensor_ops(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>) {
  // CHECK: graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>{{$}}
  %0 = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: graph.reshape %{{.*}} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = graph.reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // CHECK: graph.transpose %{{.*}} {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %2 = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // CHECK: graph.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x3x4xf32>) -> tensor<2x11x4xf32>
  %3 = graph.concat %x, %y, %x {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x3x4xf32>) -> tensor<2x11x4xf32>
  return
}

// -----

// Quantized constants store their storage type; concat inputs may carry
// different quantization.
// CHECK-LABEL: func.func @quantized_tensor_ops
func.func @quantized_tensor_ops() {
  // CHECK: %[[C:.*]] = graph.constant dense<{{\[}}[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8> -> tensor<2x3x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01,1.000000e+00:1}>>
  %c = graph.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8> -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 1.0:1}>>
  // CHECK: %[[D:.*]] = graph.constant dense<-3> : tensor<1x3xi8> -> tensor<1x3x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  %d = graph.constant dense<-3> : tensor<1x3xi8> -> tensor<1x3x!quant.uniform<i8:f32, 0.5:-3>>
  // CHECK: graph.concat %[[C]], %[[D]] {axis = 0 : i64} : (tensor<2x3x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01,1.000000e+00:1}>>, tensor<1x3x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<3x3x!quant.uniform<i8:f32, 1.000000e+00>>
  %0 = graph.concat %c, %d {axis = 0 : i64} : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 1.0:1}>>, tensor<1x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<3x3x!quant.uniform<i8:f32, 1.0>>
  // CHECK: graph.reshape %[[D]] : (tensor<1x3x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<3x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  %1 = graph.reshape %d : (tensor<1x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<3x!quant.uniform<i8:f32, 0.5:-3>>
  return
}

// -----

// CHECK-LABEL: func.func @quant
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @quant(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[Q:.*]] = graph.quantize %[[X]] : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  %q = graph.quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>
  // CHECK: %[[P:.*]] = graph.quantize %[[X]] : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:0, {5.000000e-01,2.500000e-01}>>
  %p = graph.quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:0, {0.5:0, 0.25:0}>>
  // CHECK: graph.dequantize %[[Q]] : (tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<2x3xf32>
  %d = graph.dequantize %q : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3xf32>
  // CHECK: graph.dequantize %[[P]] : (tensor<2x3x!quant.uniform<i8:f32:0, {5.000000e-01,2.500000e-01}>>) -> tensor<2x3xf32>
  %e = graph.dequantize %p : (tensor<2x3x!quant.uniform<i8:f32:0, {0.5:0, 0.25:0}>>) -> tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}

// -----

// Data movement carries per-axis quantization along with the axis it names.
// CHECK-LABEL: func.func @moves_quantized_axis
// CHECK: graph.transpose %{{.*}} {perm = array<i64: 1, 0>} : (tensor<2x3x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01,1.250000e-01}>>) -> tensor<3x2x!quant.uniform<i8:f32:0, {5.000000e-01,2.500000e-01,1.250000e-01}>>
// CHECK: graph.reshape %{{.*}} : (tensor<2x3x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01,1.250000e-01}>>) -> tensor<1x2x3x!quant.uniform<i8:f32:2, {5.000000e-01,2.500000e-01,1.250000e-01}>>
func.func @moves_quantized_axis(%x: tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 0.125:0}>>) {
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 0.125:0}>>) -> tensor<3x2x!quant.uniform<i8:f32:0, {0.5:0, 0.25:0, 0.125:0}>>
  %1 = graph.reshape %x : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:0, 0.125:0}>>) -> tensor<1x2x3x!quant.uniform<i8:f32:2, {0.5:0, 0.25:0, 0.125:0}>>
  return
}
