// convert-elementwise-to-qk: each binary graph op becomes qk.binary with the
// VECTOR function it computes, its operands and result types as they were
// (f32, f16, integers, quantized); PRelu (several functions) becomes qk.prelu.
// Unary ops become qk.map likewise, comparisons qk.compare, And, Or and Xor
// qk.binary's AND, OR and XOR, Not qk.not, Where qk.select, Cast qk.cast,
// QuantizeLinear and DequantizeLinear qk.quantize and qk.dequantize, Reshape
// and the storage casts qk.view.
// RUN: npuc-opt %s -split-input-file --convert-elementwise-to-qk | FileCheck %s

// CHECK-LABEL: func.func @functions
// CHECK: qk.binary %arg0, %arg1 {fn = #qk.binary_fn<ADD>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: qk.binary %{{.*}}, %arg1 {fn = #qk.binary_fn<SUB>}
// CHECK: qk.binary %{{.*}}, %arg1 {fn = #qk.binary_fn<MUL>}
// CHECK: qk.binary %{{.*}}, %arg1 {fn = #qk.binary_fn<DIV>}
// CHECK: qk.binary %{{.*}}, %arg1 {fn = #qk.binary_fn<MAX>}
// CHECK: qk.binary %{{.*}}, %arg1 {fn = #qk.binary_fn<MIN>}
// CHECK: qk.prelu %{{.*}}, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NOT: graph.
func.func @functions(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.sub %0, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = graph.mul %1, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = graph.div %2, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = graph.max %3, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %5 = graph.min %4, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %6 = graph.prelu %5, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %6 : tensor<2x3xf32>
}

// -----

// Bit shifts of unsigned integers, and a quantized Add keeping its types.
// CHECK-LABEL: func.func @shifts_and_quantized
// CHECK: qk.binary %arg0, %arg1 {fn = #qk.binary_fn<SHL>} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
// CHECK: qk.binary %{{.*}}, %arg1 {fn = #qk.binary_fn<SRA>} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
// CHECK: qk.binary %arg2, %arg2 {fn = #qk.binary_fn<ADD>} : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<4x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e+00>>
func.func @shifts_and_quantized(%x: tensor<4xui8>, %n: tensor<4xui8>, %q: tensor<4x!quant.uniform<i8:f32, 0.5>>) -> (tensor<4xui8>, tensor<4x!quant.uniform<i8:f32, 1.0>>) {
  %0 = graph.shift_left %x, %n : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %1 = graph.shift_right %0, %n : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %2 = graph.add %q, %q : (tensor<4x!quant.uniform<i8:f32, 0.5>>, tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 1.0>>
  return %1, %2 : tensor<4xui8>, tensor<4x!quant.uniform<i8:f32, 1.0>>
}

// -----

// The unary ops are qk.map of their VECTOR function; a quantized Relu keeps
// its types (the lowering's integer case reads them).
// CHECK-LABEL: func.func @maps
// CHECK: qk.map %arg0 {fn = #qk.unary_fn<SIGMOID>} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: qk.map %{{.*}} {fn = #qk.unary_fn<RECIP>}
// CHECK: qk.map %{{.*}} {fn = #qk.unary_fn<ROUND>}
// CHECK: qk.map %arg1 {fn = #qk.unary_fn<RELU>} : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:1>>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:1>>
// CHECK-NOT: graph.sigmoid
func.func @maps(%x: tensor<4xf32>, %q: tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> (tensor<4xf32>, tensor<4x!quant.uniform<i8:f32, 0.5:1>>) {
  %0 = graph.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.reciprocal %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.round %1 : (tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.relu %q : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  return %2, %3 : tensor<4xf32>, tensor<4x!quant.uniform<i8:f32, 0.5:1>>
}

// -----

// Comparisons become qk.compare with the V_CMP predicate.
// CHECK-LABEL: func.func @compare
// CHECK: qk.compare %arg0, %arg1 {fn = #qk.compare_fn<EQ>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK: qk.compare %arg0, %arg1 {fn = #qk.compare_fn<LT>}
// CHECK: qk.compare %arg0, %arg1 {fn = #qk.compare_fn<LE>}
// CHECK: qk.compare %arg0, %arg1 {fn = #qk.compare_fn<GT>}
// CHECK: qk.compare %arg0, %arg1 {fn = #qk.compare_fn<GE>}
// CHECK: qk.compare %arg2, %arg2 {fn = #qk.compare_fn<EQ>} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK-NOT: graph.
func.func @compare(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<4xi1>) -> (tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<4xi1>) {
  %0 = graph.equal %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %1 = graph.less %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %2 = graph.less_or_equal %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %3 = graph.greater %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %4 = graph.greater_or_equal %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %5 = graph.equal %c, %c : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<4xi1>
}

// -----

// Where becomes qk.select, Cast qk.cast, operands and types as they were
// (a cast to f64 too: the lowering's selector, not the conversion, refuses it).
// CHECK-LABEL: func.func @select_cast
// CHECK: %[[S:.*]] = qk.select %arg0, %arg1, %arg2 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: %[[C:.*]] = qk.cast %[[S]] : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK: qk.cast %[[S]] : (tensor<2x3xf32>) -> tensor<2x3xf64>
// CHECK-NOT: graph.
func.func @select_cast(%c: tensor<2x3xi1>, %x: tensor<2x3xf32>, %y: tensor<3xf32>) -> (tensor<2x3xi32>, tensor<2x3xf64>) {
  %0 = graph.where %c, %x, %y : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.cast %0 : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %2 = graph.cast %0 : (tensor<2x3xf32>) -> tensor<2x3xf64>
  return %1, %2 : tensor<2x3xi32>, tensor<2x3xf64>
}

// -----

// And, Or and Xor are qk.binary's logical functions, Not is qk.not; a Not
// of i8 (no ONNX model's) converts too, for the lowering to refuse at the
// node.
// CHECK-LABEL: func.func @logic
// CHECK: %[[A:.*]] = qk.binary %arg0, %arg1 {fn = #qk.binary_fn<AND>} : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
// CHECK: %[[O:.*]] = qk.binary %[[A]], %arg0 {fn = #qk.binary_fn<OR>} : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK: %[[X:.*]] = qk.binary %[[O]], %arg0 {fn = #qk.binary_fn<XOR>} : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK: %[[N:.*]] = qk.not %[[X]] : (tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK: qk.not %arg2 : (tensor<4xi8>) -> tensor<4xi8>
// CHECK-NOT: graph.
func.func @logic(%a: tensor<2x3xi1>, %b: tensor<3xi1>, %c: tensor<4xi8>) -> (tensor<2x3xi1>, tensor<4xi8>) {
  %0 = graph.and %a, %b : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %1 = graph.or %0, %a : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %2 = graph.xor %1, %a : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %3 = graph.not %2 : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %4 = graph.not %c : (tensor<4xi8>) -> tensor<4xi8>
  return %3, %4 : tensor<2x3xi1>, tensor<4xi8>
}

// -----

// QuantizeLinear and DequantizeLinear: per tensor and per axis, the types as
// they were.
// CHECK-LABEL: func.func @qdq
// CHECK: %[[Q:.*]] = qk.quantize %arg0 : (tensor<2x8xf32>) -> tensor<2x8x!quant.uniform<i8:f32:0, {5.000000e-01:1,2.500000e-01:2}>>
// CHECK: qk.dequantize %[[Q]] : (tensor<2x8x!quant.uniform<i8:f32:0, {5.000000e-01:1,2.500000e-01:2}>>) -> tensor<2x8xf32>
// CHECK: qk.quantize %arg0 : (tensor<2x8xf32>) -> tensor<2x8x!quant.uniform<u8:f32, 1.250000e-01:128>>
// CHECK-NOT: graph.
func.func @qdq(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8x!quant.uniform<u8:f32, 0.125:128>>) {
  %0 = graph.quantize %x : (tensor<2x8xf32>) -> tensor<2x8x!quant.uniform<i8:f32:0, {0.5:1, 0.25:2}>>
  %1 = graph.dequantize %0 : (tensor<2x8x!quant.uniform<i8:f32:0, {0.5:1, 0.25:2}>>) -> tensor<2x8xf32>
  %2 = graph.quantize %x : (tensor<2x8xf32>) -> tensor<2x8x!quant.uniform<u8:f32, 0.125:128>>
  return %1, %2 : tensor<2x8xf32>, tensor<2x8x!quant.uniform<u8:f32, 0.125:128>>
}

// -----

// The maps composed of several VECTOR functions become the kernels of their
// names, attributes as they were (Gelu's approximate as the enum); Pow too.
// CHECK-LABEL: func.func @composed_maps
// CHECK: %[[C:.*]] = qk.clip %arg0 {max = 6.000000e+00 : f64} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[L:.*]] = qk.leaky_relu %[[C]] {alpha = 1.000000e-01 : f32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[S:.*]] = qk.hard_sigmoid %[[L]] {alpha = 2.000000e-01 : f32, beta = 5.000000e-01 : f32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[W:.*]] = qk.hard_swish %[[S]] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[G:.*]] = qk.gelu %[[W]] {approximate = #qk.gelu_approximation<tanh>} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: qk.pow %[[G]], %arg1 : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
// CHECK-NOT: graph.
func.func @composed_maps(%x: tensor<4xf32>, %e: tensor<i32>) -> tensor<4xf32> {
  %0 = graph.clip %x {max = 6.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.leaky_relu %0 {alpha = 0.1 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.hard_sigmoid %1 {alpha = 0.2 : f32, beta = 0.5 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.hard_swish %2 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.gelu %3 {approximate = "tanh"} : (tensor<4xf32>) -> tensor<4xf32>
  %5 = graph.pow %4, %e : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
  return %5 : tensor<4xf32>
}

// -----

// A Gelu of an approximation ONNX does not define (the importer makes none)
// stays a graph op, for the lowering to refuse at the node.
// CHECK-LABEL: func.func @gelu_other
// CHECK: graph.gelu %arg0 {approximate = "cubic"}
func.func @gelu_other(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.gelu %x {approximate = "cubic"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Reshape and the storage casts are views: qk.view, types as they were (a
// per-axis quantized reshape keeps its axis where the reshape keeps it).
// CHECK-LABEL: func.func @views
// CHECK: %[[Q:.*]] = qk.view %arg0 : (tensor<2x3x4xi8>) -> tensor<2x3x4x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01,1.250000e-01}>>
// CHECK: %[[R:.*]] = qk.view %[[Q]] : (tensor<2x3x4x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01,1.250000e-01}>>) -> tensor<2x3x2x2x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01,1.250000e-01}>>
// CHECK: qk.view %[[R]] : (tensor<2x3x2x2x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01,1.250000e-01}>>) -> tensor<2x3x2x2xi8>
// CHECK-NOT: graph.
func.func @views(%x: tensor<2x3x4xi8>) -> tensor<2x3x2x2xi8> {
  %0 = graph.storage_cast %x : (tensor<2x3x4xi8>) -> tensor<2x3x4x!quant.uniform<i8:f32:1, {0.5, 0.25, 0.125}>>
  %1 = graph.reshape %0 : (tensor<2x3x4x!quant.uniform<i8:f32:1, {0.5, 0.25, 0.125}>>) -> tensor<2x3x2x2x!quant.uniform<i8:f32:1, {0.5, 0.25, 0.125}>>
  %2 = graph.storage_cast %1 : (tensor<2x3x2x2x!quant.uniform<i8:f32:1, {0.5, 0.25, 0.125}>>) -> tensor<2x3x2x2xi8>
  return %2 : tensor<2x3x2x2xi8>
}
