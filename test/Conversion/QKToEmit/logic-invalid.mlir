// select-lowering-cases refuses, at the op, the comparison, logic, Where,
// Cast and ArgMax cases that have no lowering (LogicKernels.cpp). Mixed
// operand types that the graph verifiers already reject never reach it; the
// first case of each such pair pins that. (An int64 constant outside int32
// is refused later, by convert-qk-to-emit: see logic.mlir.)
// RUN: npuc-opt %s -split-input-file -convert-elementwise-to-qk -select-lowering-cases -verify-diagnostics

// f32 against int32 is refused by graph.less's verifier, before any lowering.
func.func @less_f32_i32(%x: tensor<4xf32>, %y: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'graph.less' op rhs has element type 'i32', which does not express 'f32' like lhs ('f32')}}
  %0 = graph.less %x, %y : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// A quantized operand against an f32 one passes the verifier (both express
// f32) but V_CMP compares two operands of one plain storage type.
func.func @less_quant_f32(%x: tensor<4x!quant.uniform<i8:f32, 0.5>>, %y: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'qk.compare' op comparison of '!quant.uniform<i8:f32, 5.000000e-01>' and 'f32' has no NPU lowering yet (two plain operands of one type)}}
  %0 = graph.less %x, %y : (tensor<4x!quant.uniform<i8:f32, 0.5>>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// One type, but not one a model file stores.
func.func @equal_f64(%x: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<4xi1> {
  // expected-error @+1 {{'qk.compare' op comparison of 'f64' and 'f64' has no NPU lowering yet (two plain operands of one type)}}
  %0 = graph.equal %x, %y : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// And, Or, Xor and Not lower for bools and integers (ONNX's And and its
// Bitwise ops), not for floats.
func.func @and_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qk.binary' op AND of 'f32' has no NPU lowering (bools, or integers of up to 32 bits of the result's type 'f32')}}
  %0 = graph.and %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ~x of a uint32 is 2^32 - 1 - x, beyond the int32 it is stored as.
func.func @not_ui32(%x: tensor<4xui32>) -> tensor<4xui32> {
  // expected-error @+1 {{'qk.not' op NOT of 'ui32' has no NPU lowering (~x leaves the int32 it is stored as)}}
  %0 = graph.not %x : (tensor<4xui32>) -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

// Where of f32 and f16 is refused by graph.where's verifier.
func.func @where_f32_f16(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.where' op y has element type 'f16', which does not express 'f32' like x ('f32')}}
  %0 = graph.where %c, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A quantized x with an f32 y reaches the selector, which wants one plain type.
func.func @where_quant_f32(%c: tensor<4xi1>, %x: tensor<4x!quant.uniform<i8:f32, 0.5>>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qk.select' op Where of '!quant.uniform<i8:f32, 5.000000e-01>' and 'f32' has no NPU lowering yet (two plain operands of one type)}}
  %0 = graph.where %c, %x, %y : (tensor<4xi1>, tensor<4x!quant.uniform<i8:f32, 0.5>>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @where_f64(%c: tensor<4xi1>, %x: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'qk.select' op Where of 'f64' and 'f64' has no NPU lowering yet (two plain operands of one type)}}
  %0 = graph.where %c, %x, %y : (tensor<4xi1>, tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// A narrowing integer Cast wraps in ONNX; V_CAST would saturate.
func.func @cast_i32_i8(%x: tensor<4xi32>) -> tensor<4xi8> {
  // expected-error @+1 {{'qk.cast' op narrowing integer Cast from 'i32' to 'i8' has no NPU lowering yet (ONNX wraps; V_CAST saturates)}}
  %0 = graph.cast %x : (tensor<4xi32>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// int64 to int8 narrows too: only int64 <-> int32 (one storage) is a copy.
func.func @cast_i64_i8(%x: tensor<4xi64>) -> tensor<4xi8> {
  // expected-error @+1 {{'qk.cast' op narrowing integer Cast from 'i64' to 'i8' has no NPU lowering yet (ONNX wraps; V_CAST saturates)}}
  %0 = graph.cast %x : (tensor<4xi64>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// uint16 holds values int16 cannot, though both are 16 bits.
func.func @cast_ui16_i16(%x: tensor<4xui16>) -> tensor<4xi16> {
  // expected-error @+1 {{'qk.cast' op narrowing integer Cast from 'ui16' to 'i16' has no NPU lowering yet (ONNX wraps; V_CAST saturates)}}
  %0 = graph.cast %x : (tensor<4xui16>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// No f64 on the NPU (nor in a model file).
func.func @cast_f32_f64(%x: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{'qk.cast' op Cast from 'f32' to 'f64' has no NPU lowering (plain f32, f16 and integer types of up to 32 bits, bool and int64)}}
  %0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @cast_bf16_f32(%x: tensor<4xbf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'qk.cast' op Cast from 'bf16' to 'f32' has no NPU lowering (plain f32, f16 and integer types of up to 32 bits, bool and int64)}}
  %0 = graph.cast %x : (tensor<4xbf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ArgMax and ArgMin take f32 or plain integers: no f16 (nor quantized) input.
func.func @argmax_f16(%x: tensor<3x4xf16>) -> tensor<3x1xi64> {
  // expected-error @+1 {{'qk.arg_reduce' op argmax of 'f16' has no NPU lowering yet (f32 or plain integers)}}
  %0 = qk.arg_reduce %x {fn = #qk.reduce_fn<MAX>, axis = 1 : i64, keepdims = true, select_last_index = false} : (tensor<3x4xf16>) -> tensor<3x1xi64>
  return %0 : tensor<3x1xi64>
}

// -----

func.func @argmin_quant(%x: tensor<3x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<3x1xi64> {
  // expected-error @+1 {{'qk.arg_reduce' op argmin of '!quant.uniform<i8:f32, 5.000000e-01>' has no NPU lowering yet (f32 or plain integers)}}
  %0 = qk.arg_reduce %x {fn = #qk.reduce_fn<MIN>, axis = 1 : i64, keepdims = true, select_last_index = true} : (tensor<3x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<3x1xi64>
  return %0 : tensor<3x1xi64>
}

// -----

// uint32 Add and uint16 Mul leave the int32 they are stored as.
func.func @add_ui32(%x: tensor<4xui32>, %y: tensor<4xui32>) -> tensor<4xui32> {
  // expected-error @+1 {{'qk.binary' op elementwise ADD on 'ui32' has no NPU lowering (its results leave the int32 it is stored as)}}
  %0 = graph.add %x, %y : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

func.func @mul_ui16(%x: tensor<4xui16>, %y: tensor<4xui16>) -> tensor<4xui16> {
  // expected-error @+1 {{'qk.binary' op elementwise MUL on 'ui16' has no NPU lowering (its results leave the int32 it is stored as)}}
  %0 = graph.mul %x, %y : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xui16>
  return %0 : tensor<4xui16>
}

// -----

// int64 to uint32 narrows (ONNX wraps -1 to 4294967295): refused, though
// both are stored as i32.
func.func @cast_i64_ui32(%x: tensor<4xi64>) -> tensor<4xui32> {
  // expected-error @+1 {{'qk.cast' op narrowing integer Cast from 'i64' to 'ui32' has no NPU lowering yet (ONNX wraps; V_CAST saturates)}}
  %0 = graph.cast %x : (tensor<4xi64>) -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

// qk.binary's AND, OR and XOR take operands of the result's type.
func.func @main(%x: tensor<4xi32> {graph.name = "x"}, %y: tensor<4xi16> {graph.name = "z"}) -> (tensor<4xi32> {graph.name = "y"}) {
  // expected-error @+1 {{'qk.binary' op OR of 'i16' has no NPU lowering (bools, or integers of up to 32 bits of the result's type 'i32')}}
  %0 = qk.binary %x, %y {fn = #qk.binary_fn<OR>} : (tensor<4xi32>, tensor<4xi16>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// qk.map's RSQRT (an ISA function no graph op becomes) has no lowering as the kernel.
func.func @main(%x: tensor<4xf32> {graph.name = "x"}) -> (tensor<4xf32> {graph.name = "y"}) {
  // expected-error @+1 {{'qk.map' op function RSQRT has no NPU lowering as qk.map}}
  %0 = qk.map %x {fn = #qk.unary_fn<RSQRT>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
