// RUN: npuc-opt %s -split-input-file -graph-fold-pad | FileCheck %s

// A zero pad of H and W folds into the convolution's pads:
// [top 1 + 0, left 0 + 2, bottom 1 + 1, right 0 + 3].
// CHECK-LABEL: func.func @f32
// CHECK-NOT: graph.pad
// CHECK: graph.conv %arg0, %arg1 {{.*}}pads = array<i64: 1, 2, 2, 3>
// CHECK-SAME: (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x8xf32>
func.func @f32(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x6x8xf32> {
  %p = graph.pad %x {mode = "constant", pads = array<i64: 0, 0, 0, 2, 0, 0, 1, 3>, value = 0.0 : f64} : (tensor<1x2x5x5xf32>) -> tensor<1x2x6x10xf32>
  %y = graph.conv %p, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 0, 1, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x6x10xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x8xf32>
  return %y : tensor<1x4x6x8xf32>
}

// -----

// Quantized: real 0.0 is the zero point, what the conv pads with.
// CHECK-LABEL: func.func @quantized
// CHECK-NOT: graph.pad
// CHECK: graph.conv %arg0, %arg1 {{.*}}pads = array<i64: 0, 0, 1, 1>
func.func @quantized(%x: tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5:-128>>, %w: tensor<2x2x3x3x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x2x2x2x!quant.uniform<i8:f32, 1.0:3>> {
  %p = graph.pad %x {mode = "constant", pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 1>, value = 0.0 : f64} : (tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5:-128>>) -> tensor<1x2x5x5x!quant.uniform<i8:f32, 0.5:-128>>
  %y = graph.conv %p, %w {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x5x5x!quant.uniform<i8:f32, 0.5:-128>>, tensor<2x2x3x3x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x2x2x2x!quant.uniform<i8:f32, 1.0:3>>
  return %y : tensor<1x2x2x2x!quant.uniform<i8:f32, 1.0:3>>
}

// -----

// Pads that are not what a conv pads with stay: a value of 1.0, -0.0, a
// quantized 1.0 (2 steps above the zero point), a channel pad, reflect mode.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: graph.pad
func.func @kept(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>, %q: tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5:-128>>, %wq: tensor<2x2x3x3x!quant.uniform<i8:f32, 0.25>>, %w3: tensor<2x3x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3x!quant.uniform<i8:f32, 1.0>>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %p1 = graph.pad %x {mode = "constant", pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 1>, value = 1.0 : f64} : (tensor<1x2x4x4xf32>) -> tensor<1x2x5x5xf32>
  %y1 = graph.conv %p1, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p2 = graph.pad %x {mode = "constant", pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 1>, value = -0.0 : f64} : (tensor<1x2x4x4xf32>) -> tensor<1x2x5x5xf32>
  %y2 = graph.conv %p2, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p3 = graph.pad %q {mode = "constant", pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 1>, value = 1.0 : f64} : (tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5:-128>>) -> tensor<1x2x5x5x!quant.uniform<i8:f32, 0.5:-128>>
  %y3 = graph.conv %p3, %wq {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x5x5x!quant.uniform<i8:f32, 0.5:-128>>, tensor<2x2x3x3x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x2x3x3x!quant.uniform<i8:f32, 1.0>>
  %p4 = graph.pad %x {mode = "constant", pads = array<i64: 0, 0, 0, 0, 0, 1, 0, 0>, value = 0.0 : f64} : (tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32>
  %y4 = graph.conv %p4, %w3 {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p5 = graph.pad %x {mode = "reflect", pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 1>, value = 0.0 : f64} : (tensor<1x2x4x4xf32>) -> tensor<1x2x5x5xf32>
  %y5 = graph.conv %p5, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %y1, %y2, %y3, %y4, %y5 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3x!quant.uniform<i8:f32, 1.0>>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}

// -----

// A pad with another user stays for it; the conv reads the unpadded input.
// CHECK-LABEL: func.func @shared
// CHECK: %[[P:.*]] = graph.pad %arg0
// CHECK: graph.conv %arg0, %arg1 {{.*}}pads = array<i64: 0, 0, 1, 1>
// CHECK: return %{{.*}}, %[[P]]
func.func @shared(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x5x5xf32>) {
  %p = graph.pad %x {mode = "constant", pads = array<i64: 0, 0, 0, 0, 0, 0, 1, 1>, value = 0.0 : f64} : (tensor<1x2x4x4xf32>) -> tensor<1x2x5x5xf32>
  %y = graph.conv %p, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %y, %p : tensor<1x2x3x3xf32>, tensor<1x2x5x5xf32>
}
