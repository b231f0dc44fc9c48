// --graph-simplify evaluates an op whose operands are all constants through
// the op's own folder (lib/Dialect/Graph/IR/GraphFolds.cpp), exactly as it
// would run; the importer folds through the same folders (test/e2e's
// constant-folds suite runs each against npu-sim and numpy). Values worked by
// hand. What does not evaluate exactly (transcendental functions, f16,
// quantized values) stays an op.
// RUN: npuc-opt %s -split-input-file --graph-simplify | FileCheck %s

// f32 arithmetic in f32: 2^24 + 1 = 2^24 = 0x4B800000 (f32 has no 16777217);
// int32 saturates (2^31 - 1 + 1), int8 wraps
// (127 + 1 = -128), integer division truncates toward zero (-7 / 2 = -3).
// CHECK-LABEL: func.func @arithmetic
// CHECK-DAG: graph.constant dense<0x4B800000> : tensor<1xf32>
// CHECK-DAG: graph.constant dense<2147483647> : tensor<1xi32>
// CHECK-DAG: graph.constant dense<-128> : tensor<1xi8>
// CHECK-DAG: graph.constant dense<[-3, 3]> : tensor<2xi64>
// CHECK-NOT: graph.add
// CHECK-NOT: graph.div
func.func @arithmetic() -> (tensor<1xf32>, tensor<1xi32>, tensor<1xi8>, tensor<2xi64>) {
  %a = graph.constant dense<16777216.0> : tensor<1xf32>
  %b = graph.constant dense<1.0> : tensor<1xf32>
  %s = graph.add %a, %b : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %m = graph.constant dense<2147483647> : tensor<1xi32>
  %one = graph.constant dense<1> : tensor<1xi32>
  %t = graph.add %m, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %c = graph.constant dense<127> : tensor<1xi8>
  %d = graph.constant dense<1> : tensor<1xi8>
  %w = graph.add %c, %d : (tensor<1xi8>, tensor<1xi8>) -> tensor<1xi8>
  %n = graph.constant dense<[-7, 7]> : tensor<2xi64>
  %two = graph.constant dense<2> : tensor<1xi64>
  %q = graph.div %n, %two : (tensor<2xi64>, tensor<1xi64>) -> tensor<2xi64>
  return %s, %t, %w, %q : tensor<1xf32>, tensor<1xi32>, tensor<1xi8>, tensor<2xi64>
}

// -----

// Comparisons give booleans; Max with a NaN is NaN; Cast f32 -> i32
// truncates toward zero (-2.7 -> -2, 2.7 -> 2); Where picks per element.
// CHECK-LABEL: func.func @compare_cast_where
// CHECK-DAG: graph.constant dense<[true, false]> : tensor<2xi1>
// CHECK-DAG: graph.constant dense<[0x7FC00000, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: graph.constant dense<[-2, 2]> : tensor<2xi32>
// CHECK-DAG: graph.constant dense<[1.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK-NOT: graph.less
// CHECK-NOT: graph.max
// CHECK-NOT: graph.cast
// CHECK-NOT: graph.where
func.func @compare_cast_where() -> (tensor<2xi1>, tensor<2xf32>, tensor<2xi32>, tensor<2xf32>) {
  %a = graph.constant dense<[1.0, 3.0]> : tensor<2xf32>
  %b = graph.constant dense<[2.0, 2.0]> : tensor<2xf32>
  %l = graph.less %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %nan = graph.constant dense<[0x7FC00000, 1.0]> : tensor<2xf32>
  %x = graph.max %nan, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %f = graph.constant dense<[-2.7, 2.7]> : tensor<2xf32>
  %i = graph.cast %f : (tensor<2xf32>) -> tensor<2xi32>
  %y = graph.constant dense<[4.0, 4.0]> : tensor<2xf32>
  %s = graph.where %l, %a, %y : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %l, %x, %i, %s : tensor<2xi1>, tensor<2xf32>, tensor<2xi32>, tensor<2xf32>
}

// -----

// Data movement: the transpose of [[0, 1, 2], [3, 4, 5]] is [[0, 3], [1, 4],
// [2, 5]]; the slice 1:3:1 of [0..5) along the only axis; Gather with a
// negative index (-1 is the last row); Concat along axis 0.
// CHECK-LABEL: func.func @data_movement
// CHECK-DAG: graph.constant dense<{{\[}}[0, 3], [1, 4], [2, 5]]> : tensor<3x2xi32>
// CHECK-DAG: graph.constant dense<[1, 2]> : tensor<2xi32>
// CHECK-DAG: graph.constant dense<{{\[}}[3, 4, 5], [0, 1, 2]]> : tensor<2x3xi32>
// CHECK-DAG: graph.constant dense<[1, 2, 9]> : tensor<3xi32>
// CHECK-NOT: graph.transpose
// CHECK-NOT: graph.slice
// CHECK-NOT: graph.gather
// CHECK-NOT: graph.concat
func.func @data_movement() -> (tensor<3x2xi32>, tensor<2xi32>, tensor<2x3xi32>, tensor<3xi32>) {
  %m = graph.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
  %t = graph.transpose %m {perm = array<i64: 1, 0>} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %v = graph.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi32>
  %s = graph.slice %v {starts = array<i64: 1>, ends = array<i64: 3>, steps = array<i64: 1>} : (tensor<5xi32>) -> tensor<2xi32>
  %idx = graph.constant dense<[-1, 0]> : tensor<2xi64>
  %g = graph.gather %m, %idx {axis = 0 : i64} : (tensor<2x3xi32>, tensor<2xi64>) -> tensor<2x3xi32>
  %nine = graph.constant dense<9> : tensor<1xi32>
  %c = graph.concat %s, %nine {axis = 0 : i64} : (tensor<2xi32>, tensor<1xi32>) -> tensor<3xi32>
  return %t, %s, %g, %c : tensor<3x2xi32>, tensor<2xi32>, tensor<2x3xi32>, tensor<3xi32>
}

// -----

// Not evaluated: Exp (transcendental), f16 arithmetic, a quantized operand,
// and integer division by zero (a fault at run time, left to it).
// CHECK-LABEL: func.func @stays
// CHECK: graph.exp
// CHECK: graph.add {{.*}} -> tensor<1xf16>
// CHECK: graph.add {{.*}} -> tensor<1x!quant.uniform
// CHECK: graph.div {{.*}} -> tensor<1xi32>
func.func @stays() -> (tensor<1xf32>, tensor<1xf16>, tensor<1x!quant.uniform<i8:f32, 0.5>>, tensor<1xi32>) {
  %a = graph.constant dense<1.0> : tensor<1xf32>
  %e = graph.exp %a : (tensor<1xf32>) -> tensor<1xf32>
  %h = graph.constant dense<1.0> : tensor<1xf16>
  %hh = graph.add %h, %h : (tensor<1xf16>, tensor<1xf16>) -> tensor<1xf16>
  %q = graph.constant dense<2> : tensor<1xi8> -> tensor<1x!quant.uniform<i8:f32, 0.5>>
  %qq = graph.add %q, %q : (tensor<1x!quant.uniform<i8:f32, 0.5>>, tensor<1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x!quant.uniform<i8:f32, 0.5>>
  %i = graph.constant dense<7> : tensor<1xi32>
  %z = graph.constant dense<0> : tensor<1xi32>
  %d = graph.div %i, %z : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  return %e, %hh, %qq, %d : tensor<1xf32>, tensor<1xf16>, tensor<1x!quant.uniform<i8:f32, 0.5>>, tensor<1xi32>
}

// -----

// And, Or, Xor and Not of integers (ONNX's Bitwise ops) are bitwise, each
// result wrapped to its type: ~5 of uint8 is 250, ~5 of int16 is -6;
// 12 & 10 = 8, 12 | 10 = 14, 12 ^ 10 = 6; of bools they stay the logic.
// CHECK-LABEL: func.func @bitwise
// CHECK-DAG: graph.constant dense<250> : tensor<1xui8>
// CHECK-DAG: graph.constant dense<-6> : tensor<1xi16>
// CHECK-DAG: graph.constant dense<[8, 14, 6]> : tensor<3xi32>
// CHECK-DAG: graph.constant dense<false> : tensor<1xi1>
// CHECK-NOT: graph.not
// CHECK-NOT: graph.and
func.func @bitwise() -> (tensor<1xui8>, tensor<1xi16>, tensor<3xi32>, tensor<1xi1>) {
  %a = graph.constant dense<5> : tensor<1xui8>
  %na = graph.not %a : (tensor<1xui8>) -> tensor<1xui8>
  %b = graph.constant dense<5> : tensor<1xi16>
  %nb = graph.not %b : (tensor<1xi16>) -> tensor<1xi16>
  %x = graph.constant dense<12> : tensor<1xi32>
  %y = graph.constant dense<10> : tensor<1xi32>
  %and = graph.and %x, %y : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %or = graph.or %x, %y : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %xor = graph.xor %x, %y : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %r = graph.concat %and, %or, %xor {axis = 0 : i64} : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %t = graph.constant dense<true> : tensor<1xi1>
  %nt = graph.not %t : (tensor<1xi1>) -> tensor<1xi1>
  return %na, %nb, %r, %nt : tensor<1xui8>, tensor<1xi16>, tensor<3xi32>, tensor<1xi1>
}

// -----

// BitCast of a constant: its bits (1.0f is 0x3F800000 = 1065353216; -2 as
// uint8 is 254).
// CHECK-LABEL: func.func @bitcast
// CHECK-DAG: graph.constant dense<[1065353216, 0]> : tensor<2xi32>
// CHECK-DAG: graph.constant dense<254> : tensor<1xui8>
// CHECK-NOT: graph.bitcast
func.func @bitcast() -> (tensor<2xi32>, tensor<1xui8>) {
  %f = graph.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %a = graph.bitcast %f : (tensor<2xf32>) -> tensor<2xi32>
  %i = graph.constant dense<-2> : tensor<1xi8>
  %b = graph.bitcast %i : (tensor<1xi8>) -> tensor<1xui8>
  return %a, %b : tensor<2xi32>, tensor<1xui8>
}
