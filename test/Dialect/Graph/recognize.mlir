// RUN: npuc-opt %s -split-input-file -graph-recognize | FileCheck %s

// x * Clip(x + 3, 0, 6) / 6, as PaddlePaddle exports HardSwish.
// CHECK-LABEL: func.func @hard_swish_div
// CHECK-NEXT:  %[[Y:.*]] = graph.hard_swish %arg0 : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
// CHECK-NEXT:  return %[[Y]]
func.func @hard_swish_div(%x: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %three = graph.constant dense<3.0> : tensor<f32>
  %six = graph.constant dense<6.0> : tensor<f32>
  %a = graph.add %x, %three : (tensor<1x4x2x2xf32>, tensor<f32>) -> tensor<1x4x2x2xf32>
  %c = graph.clip %a {min = 0.0 : f64, max = 6.0 : f64} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %m = graph.mul %x, %c : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %y = graph.div %m, %six : (tensor<1x4x2x2xf32>, tensor<f32>) -> tensor<1x4x2x2xf32>
  return %y : tensor<1x4x2x2xf32>
}

// -----

// The operands the other way round, and times 1/6 instead of / 6.
// CHECK-LABEL: func.func @hard_swish_mul
// CHECK-NEXT:  %[[Y:.*]] = graph.hard_swish %arg0
// CHECK-NEXT:  return %[[Y]]
func.func @hard_swish_mul(%x: tensor<8xf32>) -> tensor<8xf32> {
  %three = graph.constant dense<3.0> : tensor<1xf32>
  %sixth = graph.constant dense<0.166666672> : tensor<f32>
  %a = graph.add %three, %x : (tensor<1xf32>, tensor<8xf32>) -> tensor<8xf32>
  %c = graph.clip %a {min = 0.0 : f64, max = 6.0 : f64} : (tensor<8xf32>) -> tensor<8xf32>
  %m = graph.mul %c, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %y = graph.mul %sixth, %m : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Not HardSwish: a Clip to 5, an Add of 2, and a chain whose Clip is also
// used elsewhere stay as they are.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:   graph.hard_swish
func.func @kept(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %two = graph.constant dense<2.0> : tensor<f32>
  %three = graph.constant dense<3.0> : tensor<f32>
  %six = graph.constant dense<6.0> : tensor<f32>
  %a1 = graph.add %x, %three : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %c1 = graph.clip %a1 {min = 0.0 : f64, max = 5.0 : f64} : (tensor<8xf32>) -> tensor<8xf32>
  %m1 = graph.mul %x, %c1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %y1 = graph.div %m1, %six : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %a2 = graph.add %x, %two : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %c2 = graph.clip %a2 {min = 0.0 : f64, max = 6.0 : f64} : (tensor<8xf32>) -> tensor<8xf32>
  %m2 = graph.mul %x, %c2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %y2 = graph.div %m2, %six : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %a3 = graph.add %x, %three : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %c3 = graph.clip %a3 {min = 0.0 : f64, max = 6.0 : f64} : (tensor<8xf32>) -> tensor<8xf32>
  %m3 = graph.mul %x, %c3 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %y3 = graph.div %m3, %six : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %y1, %y2, %y3, %c3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
