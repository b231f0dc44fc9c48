// RUN: npuc-opt %s -split-input-file -cse -graph-recognize | FileCheck %s

// The pipeline runs CSE before graph-recognize (lib/Pipeline/Pipeline.cpp):
// exporters that transcribe `(x - u).pow(2).mean()` and `(x - u) / sqrt(..)`
// write x - ReduceMean(x) twice (bert_toy_pt); one value, then one
// graph.layer_norm.
// CHECK-LABEL: func.func @layer_norm_twice_subtracted
// CHECK:      %[[Y:.*]], %{{.*}}, %{{.*}} = graph.layer_norm %arg0, %{{.*}}, %{{.*}} {axis = 2 : i64
// CHECK-NOT:  graph.sub
// CHECK-NOT:  graph.reduce_mean
// CHECK:      return %[[Y]]
func.func @layer_norm_twice_subtracted(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-12> : tensor<f32>
  %beta = graph.constant dense<0.5> : tensor<8xf32>
  %m = graph.reduce_mean %x {axes = array<i64: 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %d1 = graph.sub %x, %m : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %p = graph.pow %d1, %two : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
  %v = graph.reduce_mean %p {axes = array<i64: 2>, keepdims = true} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %a = graph.add %v, %eps : (tensor<2x4x1xf32>, tensor<f32>) -> tensor<2x4x1xf32>
  %s = graph.sqrt %a : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %d2 = graph.sub %x, %m : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %n = graph.div %d2, %s : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %y = graph.add %n, %beta : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// Without CSE's merge the chain stays as written: graph-recognize alone
// needs d to feed only the square and the division.
// CHECK-LABEL: func.func @two_means_kept
// CHECK-COUNT-2: graph.reduce_mean
// CHECK-NOT: graph.layer_norm
func.func @two_means_kept(%x: tensor<2x8xf32>, %z: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-12> : tensor<f32>
  %m = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = true} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %d1 = graph.sub %x, %m : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %p = graph.pow %d1, %two : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %v = graph.reduce_mean %p {axes = array<i64: 1>, keepdims = true} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %a = graph.add %v, %eps : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = graph.sqrt %a : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %d2 = graph.sub %z, %m : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %n = graph.div %d2, %s : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  return %n : tensor<2x8xf32>
}
