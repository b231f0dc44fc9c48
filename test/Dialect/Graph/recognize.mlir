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

// -----

// The erf GELU as tf2onnx writes it: (x * 0.5) * (erf(x / 1.4142135) + 1).
// CHECK-LABEL: func.func @gelu_tf2onnx
// CHECK-NEXT:  %[[Y:.*]] = graph.gelu %arg0 {approximate = "none"} : (tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
// CHECK-NEXT:  return %[[Y]]
func.func @gelu_tf2onnx(%x: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
  %sqrt2 = graph.constant dense<1.4142135> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %d = graph.div %x, %sqrt2 : (tensor<1x8x16xf32>, tensor<f32>) -> tensor<1x8x16xf32>
  %e = graph.erf %d : (tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %h = graph.mul %x, %half : (tensor<1x8x16xf32>, tensor<f32>) -> tensor<1x8x16xf32>
  %a = graph.add %e, %one : (tensor<1x8x16xf32>, tensor<f32>) -> tensor<1x8x16xf32>
  %y = graph.mul %h, %a : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  return %y : tensor<1x8x16xf32>
}

// -----

// The other grouping, the division as a product with 1/sqrt(2), and the
// operands of each step the other way round: x * ((1 + erf(0.70710677 * x)) * 0.5).
// CHECK-LABEL: func.func @gelu_grouped
// CHECK-NEXT:  %[[Y:.*]] = graph.gelu %arg0
// CHECK-NEXT:  return %[[Y]]
func.func @gelu_grouped(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = graph.constant dense<0.707106769> : tensor<1xf32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %d = graph.mul %r, %x : (tensor<1xf32>, tensor<8xf32>) -> tensor<8xf32>
  %e = graph.erf %d : (tensor<8xf32>) -> tensor<8xf32>
  %a = graph.add %one, %e : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %h = graph.mul %a, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %y = graph.mul %x, %h : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Not GELU: a factor of 0.6, a division by 2, an erf of another value, and
// a chain whose erf is used elsewhere stay as they are.
// CHECK-LABEL: func.func @gelu_kept
// CHECK-NOT:   graph.gelu
func.func @gelu_kept(%x: tensor<8xf32>, %z: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %sqrt2 = graph.constant dense<1.4142135> : tensor<f32>
  %two = graph.constant dense<2.0> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %six = graph.constant dense<0.6> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %d1 = graph.div %x, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e1 = graph.erf %d1 : (tensor<8xf32>) -> tensor<8xf32>
  %a1 = graph.add %e1, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h1 = graph.mul %x, %six : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %y1 = graph.mul %h1, %a1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %d2 = graph.div %x, %two : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e2 = graph.erf %d2 : (tensor<8xf32>) -> tensor<8xf32>
  %a2 = graph.add %e2, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h2 = graph.mul %x, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %y2 = graph.mul %h2, %a2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %d3 = graph.div %z, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e3 = graph.erf %d3 : (tensor<8xf32>) -> tensor<8xf32>
  %a3 = graph.add %e3, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h3 = graph.mul %x, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %y3 = graph.mul %h3, %a3 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %d4 = graph.div %x, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %e4 = graph.erf %d4 : (tensor<8xf32>) -> tensor<8xf32>
  %a4 = graph.add %e4, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %h4 = graph.mul %x, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %y4 = graph.mul %h4, %a4 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %y1, %y2, %y3, %y4, %e4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
