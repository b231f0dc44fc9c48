// RUN: npuc-opt %s -split-input-file -verify-diagnostics -graph-compute-f16 | FileCheck %s

// Both products of x share one cast to f16; the weights become an fp16
// constant (0.1 rounds to 0.0999755859 in fp16, 1e5 beyond 65504 to inf)
// and the f32 constant is gone; Gemm's C and both results stay f32.
// CHECK-LABEL: func.func @products
// CHECK-DAG: %[[X:.*]] = graph.cast %arg0 : (tensor<4x2xf32>) -> tensor<4x2xf16>
// CHECK-DAG: %[[W:.*]] = graph.constant dense<{{\[}}[9.997550e-02, 1.500000e+00, 0x7C00], [-2.000000e+00, 6.550400e+04, 0.000000e+00]]> : tensor<2x3xf16>
// CHECK-NOT: tensor<2x3xf32>
// CHECK: %[[Y:.*]] = graph.matmul %[[X]], %[[W]] : (tensor<4x2xf16>, tensor<2x3xf16>) -> tensor<4x3xf32>
// CHECK: %[[G:.*]] = graph.gemm %[[X]], %[[W]], %arg1 {{.*}} : (tensor<4x2xf16>, tensor<2x3xf16>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: return %[[Y]], %[[G]]
func.func @products(%x: tensor<4x2xf32>, %c: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %w = graph.constant dense<[[0.1, 1.5, 1.0e5], [-2.0, 65504.0, 0.0]]> : tensor<2x3xf32>
  %y = graph.matmul %x, %w : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %g = graph.gemm %x, %w, %c {alpha = 1.0 : f32, beta = 1.0 : f32, trans_a = false, trans_b = false} : (tensor<4x2xf32>, tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y, %g : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// A convolution's input and weights go to f16; its bias joins the fp32
// accumulator and stays f32, as does the result. A product of two
// activations casts both.
// CHECK-LABEL: func.func @conv_and_activations
// CHECK-DAG: %[[XC:.*]] = graph.cast %arg0 : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf16>
// CHECK-DAG: %[[A:.*]] = graph.cast %arg1 : (tensor<2x4x8xf32>) -> tensor<2x4x8xf16>
// CHECK-DAG: %[[B:.*]] = graph.cast %arg2 : (tensor<2x8x4xf32>) -> tensor<2x8x4xf16>
// CHECK-DAG: %[[WC:.*]] = graph.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}3.000000e+00]]]]> : tensor<2x1x1x1xf16>
// CHECK-DAG: %[[BIAS:.*]] = graph.constant dense<[5.000000e-01, 2.500000e-01]> : tensor<2xf32>
// CHECK: graph.conv %[[XC]], %[[WC]], %[[BIAS]] {{.*}} : (tensor<1x1x2x2xf16>, tensor<2x1x1x1xf16>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
// CHECK: graph.matmul %[[A]], %[[B]] : (tensor<2x4x8xf16>, tensor<2x8x4xf16>) -> tensor<2x4x4xf32>
func.func @conv_and_activations(%x: tensor<1x1x2x2xf32>, %a: tensor<2x4x8xf32>, %b: tensor<2x8x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<2x4x4xf32>) {
  %w = graph.constant dense<[[[[2.0]]], [[[3.0]]]]> : tensor<2x1x1x1xf32>
  %bias = graph.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %c = graph.conv %x, %w, %bias {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %m = graph.matmul %a, %b : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  return %c, %m : tensor<1x2x2x2xf32>, tensor<2x4x4xf32>
}

// -----

// A product read only by products stores fp16 itself (its accumulator
// rounded once on the way out): no f32 tensor and no cast between them. One
// read by anything else (the Relu, whose result is returned) stays f32 and
// is cast for the product that reads it.
// CHECK-LABEL: func.func @chain
// CHECK: %[[H:.*]] = graph.matmul %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
// CHECK: %[[Y:.*]] = graph.matmul %[[H]], %{{.*}} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf32>
// CHECK-DAG: %[[YC:.*]] = graph.cast %[[Y]] : (tensor<4x8xf32>) -> tensor<4x8xf16>
// CHECK-DAG: graph.relu %[[Y]] : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: graph.matmul %[[YC]], %{{.*}} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf32>
func.func @chain(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %w = graph.constant dense<0.25> : tensor<8x8xf32>
  %h = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %y = graph.matmul %h, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %r = graph.relu %y : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %z = graph.matmul %y, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %r, %z : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// VECTOR ops between two products run in fp16 (the bias Add with its
// constant rounded to fp16, the Relu): the first product stores fp16, the
// last reads fp16. A bias Add whose result goes on to an op without an fp16
// kernel (Softmax) stays f32, and so does the product before it: no cast
// back to f32 is ever inserted after a VECTOR op.
// CHECK-LABEL: func.func @between_products
// CHECK-DAG: %[[B:.*]] = graph.constant dense<1.000980e-01> : tensor<8xf16>
// CHECK-DAG: %[[BF:.*]] = graph.constant dense<1.001000e-01> : tensor<8xf32>
// CHECK: %[[P:.*]] = graph.matmul %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
// CHECK: %[[A:.*]] = graph.add %[[P]], %[[B]] : (tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xf16>
// CHECK: %[[R:.*]] = graph.relu %[[A]] : (tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK: graph.matmul %[[R]], %{{.*}} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf32>
// CHECK: %[[Q:.*]] = graph.matmul %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf32>
// CHECK: %[[A2:.*]] = graph.add %[[Q]], %[[BF]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK: graph.softmax %[[A2]]
func.func @between_products(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %w = graph.constant dense<0.25> : tensor<8x8xf32>
  %b = graph.constant dense<0.1001> : tensor<8xf32>
  %p = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a = graph.add %p, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %r = graph.relu %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = graph.matmul %r, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %q = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a2 = graph.add %q, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %t = graph.softmax %a2 {axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y, %t : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Everything else stays as it is: elementwise ops, and products of other
// types (an int32 matmul here).
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: graph.cast
// CHECK: graph.add %arg0, %arg0 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK: graph.matmul %arg1, %arg1 : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
func.func @untouched(%x: tensor<2x2xf32>, %i: tensor<2x2xi32>) -> (tensor<2x2xf32>, tensor<2x2xi32>) {
  %s = graph.add %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %p = graph.matmul %i, %i : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  return %s, %p : tensor<2x2xf32>, tensor<2x2xi32>
}

// -----

// Verifier: an f16 product's result is f16 or f32, nothing else.
func.func @bad_result(%a: tensor<2x2xf16>) -> tensor<2x2xi32> {
  // expected-error @+1 {{'graph.matmul' op result has element type 'i32', which does not express 'f16' like operands ('f16')}}
  %p = graph.matmul %a, %a : (tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xi32>
  return %p : tensor<2x2xi32>
}
