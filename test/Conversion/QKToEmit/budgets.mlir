// Tiles are sized with their padded row pitches, so thin or size-1-heavy
// shapes fit the smaller target (review findings; each failed before with
// "needs N bytes of lm"). The whole pipeline runs to machine code.
// RUN: npuc-opt %s -split-input-file --npuc-pipeline="target=npu-v1-tiny allow-unverified=true" | FileCheck %s

// A layout change [1,3,224,224] -> [1,224,224,3] (an NCHW -> NHWC copy, 3
// bytes per row of the result).
// CHECK-LABEL: enc.program target "npu-v1-tiny"
// CHECK: enc.end
func.func @main(%x: tensor<1x3x224x224xi8>) -> tensor<1x224x224x3xi8> {
  %y = graph.transpose %x {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x3x224x224xi8>) -> tensor<1x224x224x3xi8>
  return %y : tensor<1x224x224x3xi8>
}

// -----

// Size-1 dimensions are dropped before tiling: BatchNorm on [32,512,1,1].
// CHECK-LABEL: enc.program target "npu-v1-tiny"
// CHECK: enc.end
func.func @main(%x: tensor<32x512x1x1xf32>) -> tensor<32x512x1x1xf32> {
  %s = graph.constant dense<2.0> : tensor<512xf32>
  %b = graph.constant dense<0.5> : tensor<512xf32>
  %m = graph.constant dense<0.25> : tensor<512xf32>
  %v = graph.constant dense<4.0> : tensor<512xf32>
  %y = qk.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-5 : f32} : (tensor<32x512x1x1xf32>, tensor<512xf32>, tensor<512xf32>, tensor<512xf32>, tensor<512xf32>) -> tensor<32x512x1x1xf32>
  return %y : tensor<32x512x1x1xf32>
}

// -----

// A reduction whose rows are one element long: [65536, 1] summed over axis 1.
// CHECK-LABEL: enc.program target "npu-v1-tiny"
// CHECK: enc.end
func.func @main(%x: tensor<65536x1xf32>) -> tensor<65536xf32> {
  %y = graph.reduce_sum %x {axes = array<i64: 1>, keepdims = false} : (tensor<65536x1xf32>) -> tensor<65536xf32>
  return %y : tensor<65536xf32>
}
