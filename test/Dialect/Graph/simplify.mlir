// --graph-simplify applies the graph folders: x - 0, x + 0, 0 + x, x * 1 and
// identity become x when that keeps the result type exactly (and the value:
// a float x + 0 only for -0, since -0 + +0 is +0). Quantized values,
// broadcasting folds and the wrong operand direction are left alone.
// RUN: npuc-opt %s -split-input-file --graph-simplify | FileCheck %s

// CHECK-LABEL: func.func @sub_zero
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: graph.sub
// CHECK: return %[[X]] : tensor<2x3xf32>
func.func @sub_zero(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %z = graph.constant dense<0.0> : tensor<2x3xf32>
  %0 = graph.sub %x, %z : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// 0 - x is -x, not x.
// CHECK-LABEL: func.func @zero_sub
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[Z:.*]] = graph.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK: %[[R:.*]] = graph.sub %[[Z]], %[[X]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @zero_sub(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %z = graph.constant dense<0.0> : tensor<2x3xf32>
  %0 = graph.sub %z, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Sub is not commutative: the constant stays on the left.
// CHECK-LABEL: func.func @const_sub
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[C:.*]] = graph.constant dense<2.000000e+00> : tensor<2x3xf32>
// CHECK: %[[R:.*]] = graph.sub %[[C]], %[[X]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @const_sub(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = graph.constant dense<2.0> : tensor<2x3xf32>
  %0 = graph.sub %c, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// x + (+0.0) is +0 for x = -0: not x, so it stays.
// CHECK-LABEL: func.func @add_positive_zero
// CHECK: %[[R:.*]] = graph.add
// CHECK: %[[S:.*]] = graph.add
// CHECK: return %[[R]], %[[S]]
func.func @add_positive_zero(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %z = graph.constant dense<0.0> : tensor<2x3xf32>
  %0 = graph.add %x, %z : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.add %z, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @add_zero
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xi32>)
// CHECK-NOT: graph.add
// CHECK: return %[[X]], %[[X]], %[[Y]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>
func.func @add_zero(%x: tensor<2x3xf32>, %y: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>) {
  %z = graph.constant dense<-0.0> : tensor<2x3xf32>
  %zi = graph.constant dense<0> : tensor<2x3xi32>
  %0 = graph.add %x, %z : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.add %z, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.add %zi, %y : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @mul_one
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NOT: graph.mul
// CHECK-NOT: graph.div
// CHECK: return %[[X]], %[[X]], %[[X]] : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
func.func @mul_one(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %one = graph.constant dense<1.0> : tensor<4xf32>
  %0 = graph.mul %x, %one : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.mul %one, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.div %x, %one : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A quantized x * 1 requantizes even when the types match: it stays.
// CHECK-LABEL: func.func @mul_one_quantized
// CHECK-SAME: (%[[X:.*]]: tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>)
// CHECK: %[[ONE:.*]] = graph.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK: %[[R:.*]] = graph.mul %[[X]], %[[ONE]] : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>, tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK: return %[[R]]
func.func @mul_one_quantized(%x: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>> {
  %one = graph.constant dense<1.0> : tensor<4xf32>
  %0 = graph.mul %x, %one : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
}

// -----

// A quantized constant 1 (stored as 2 with scale 0.5) is not matched either.
// CHECK-LABEL: func.func @mul_quantized_one
// CHECK: %[[ONE:.*]] = graph.constant dense<2> : tensor<4xi8> -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01>>
// CHECK: %[[R:.*]] = graph.mul %{{.*}}, %[[ONE]] : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<4x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01>>
// CHECK: return %[[R]]
func.func @mul_quantized_one(%x: tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>> {
  %one = graph.constant dense<2> : tensor<4xi8> -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  %0 = graph.mul %x, %one : (tensor<4x!quant.uniform<i8:f32, 0.5>>, tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// x + 0 where the zero broadcasts x to a larger shape: folding would change
// the result type.
// CHECK-LABEL: func.func @add_zero_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK: %[[Z:.*]] = graph.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK: %[[R:.*]] = graph.add %[[X]], %[[Z]] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]] : tensor<2x3xf32>
func.func @add_zero_broadcast(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %z = graph.constant dense<0.0> : tensor<2x3xf32>
  %0 = graph.add %x, %z : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A zero that broadcasts to x's own shape does fold.
// CHECK-LABEL: func.func @add_zero_scalar
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: graph.add
// CHECK: return %[[X]] : tensor<2x3xf32>
func.func @add_zero_scalar(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %z = graph.constant dense<-0.0> : tensor<f32>
  %0 = graph.add %x, %z : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: graph.identity
// CHECK: return %[[X]] : tensor<2x3xf32>
func.func @identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.identity %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.identity %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// An identity that changes the quantization is a requantization: it stays.
// CHECK-LABEL: func.func @identity_requantize
// CHECK: %[[R:.*]] = graph.identity %{{.*}} : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<4x!quant.uniform<i8:f32, 2.500000e-01>>
// CHECK: return %[[R]]
func.func @identity_requantize(%x: tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 0.25>> {
  %0 = graph.identity %x : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 0.25>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 0.25>>
}

// -----

// A reduction over axes that are not one block (MVN's [0, 2, 3]): the kept
// axis first, the reduced ones last as one block, then the op's shape.
// CHECK-LABEL: func.func @reduce_non_adjacent
// CHECK:      %[[T:.*]] = graph.transpose %arg0 {perm = array<i64: 1, 0, 2, 3>} : (tensor<2x3x4x5xf32>) -> tensor<3x2x4x5xf32>
// CHECK-NEXT: %[[R:.*]] = graph.reduce_mean %[[T]] {axes = array<i64: 1, 2, 3>, keepdims = true} : (tensor<3x2x4x5xf32>) -> tensor<3x1x1x1xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.reshape %[[R]] : (tensor<3x1x1x1xf32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT: return %[[Y]]
func.func @reduce_non_adjacent(%x: tensor<2x3x4x5xf32>) -> tensor<1x3x1x1xf32> {
  %y = graph.reduce_mean %x {axes = array<i64: 0, 2, 3>, keepdims = true} : (tensor<2x3x4x5xf32>) -> tensor<1x3x1x1xf32>
  return %y : tensor<1x3x1x1xf32>
}

// -----

// Without keepdims the reduced block's result is the op's already.
// CHECK-LABEL: func.func @reduce_max_non_adjacent_dropped
// CHECK:      %[[T:.*]] = graph.transpose %arg0 {perm = array<i64: 1, 3, 0, 2>}
// CHECK-NEXT: %[[R:.*]] = graph.reduce_max %[[T]] {axes = array<i64: 2, 3>, keepdims = false} : (tensor<3x5x2x4xf32>) -> tensor<3x5xf32>
// CHECK-NEXT: return %[[R]]
func.func @reduce_max_non_adjacent_dropped(%x: tensor<2x3x4x5xf32>) -> tensor<3x5xf32> {
  %y = graph.reduce_max %x {axes = array<i64: 0, 2>, keepdims = false} : (tensor<2x3x4x5xf32>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// -----

// A Concat's empty parts (a KV cache with no past yet) drop out; one part
// left is the result itself.
// CHECK-LABEL: func.func @concat_empty_past
// CHECK-NEXT: return %arg1
func.func @concat_empty_past(%past: tensor<1x2x0x4xf32>, %new: tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32> {
  %y = graph.concat %past, %new {axis = 2 : i64} : (tensor<1x2x0x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  return %y : tensor<1x2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @concat_empty_middle
// CHECK-NEXT: %[[Y:.*]] = graph.concat %arg0, %arg2 {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @concat_empty_middle(%a: tensor<2x3xf32>, %b: tensor<2x0xf32>, %c: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %y = graph.concat %a, %b, %c {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x0xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
