// RUN: npuc-opt %s -split-input-file -graph-fuse-activation -mlir-print-debuginfo | FileCheck %s

// A Relu, or a Clip with its bounds, after an f32 convolution becomes its
// activation; the fused op stands at both nodes (its result is the
// activation's output: the name of the last location).
// CHECK-LABEL: func.func @relu
// CHECK-NOT: graph.relu
// CHECK: %[[Y:.*]] = graph.conv %arg0, %arg1 {activation = "relu", {{.*}}} : {{.*}} loc(#[[FUSED:loc[0-9]+]])
// CHECK: return %[[Y]]
// CHECK: #[[CONV:loc[0-9]+]] = loc("conv")
// CHECK: #[[RELU:loc[0-9]+]] = loc("relu")
// CHECK: #[[FUSED]] = loc(fused[#[[CONV]], #[[RELU]]])
func.func @relu(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32> {
  %c = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32> loc("conv")
  %y = graph.relu %c : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> loc("relu")
  return %y : tensor<1x3x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @clip
// CHECK-NOT: graph.clip
// CHECK: graph.conv %arg0, %arg1 {activation = "clip", activation_max = 6.000000e+00 : f64, activation_min = 0.000000e+00 : f64
// CHECK-LABEL: func.func @clip_max
// CHECK: graph.conv %arg0, %arg1 {activation = "clip", activation_max = 1.000000e+00 : f64, dilations
func.func @clip(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32> {
  %c = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  %y = graph.clip %c {min = 0.0 : f64, max = 6.0 : f64} : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %y : tensor<1x3x2x2xf32>
}
func.func @clip_max(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32> {
  %c = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  %y = graph.clip %c {max = 1.0 : f64} : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %y : tensor<1x3x2x2xf32>
}

// -----

// Left alone: a conv result with another user, a NaN bound, a second
// activation after a fused one, a quantized convolution.
// CHECK-LABEL: func.func @kept
// CHECK: graph.relu
// CHECK: graph.clip
// CHECK: graph.conv {{.*}}activation = "relu"
// CHECK: graph.relu
// CHECK-LABEL: func.func @quantized
// CHECK: graph.relu
func.func @kept(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> (tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>) {
  %c = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  %y = graph.relu %c : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %d = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  %z = graph.clip %d {min = 0x7FF8000000000000 : f64} : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %e = graph.conv %x, %w {activation = "relu", strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  %v = graph.relu %e : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %c, %y, %z, %v : tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>
}
func.func @quantized(%x: tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>>, %w: tensor<3x2x3x3x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x3x2x2x!quant.uniform<i8:f32, 1.0>> {
  %c = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>>, tensor<3x2x3x3x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x3x2x2x!quant.uniform<i8:f32, 1.0>>
  %y = graph.relu %c : (tensor<1x3x2x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<1x3x2x2x!quant.uniform<i8:f32, 1.0>>
  return %y : tensor<1x3x2x2x!quant.uniform<i8:f32, 1.0>>
}
