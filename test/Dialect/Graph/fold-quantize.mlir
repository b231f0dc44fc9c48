// RUN: npuc-opt %s -split-input-file -graph-simplify | FileCheck %s

// QuantizeLinear of a constant folds with V_QUANT's f32 steps
// (num::quantizeF32): x / scale rounded half to even, plus the zero point,
// saturated to the storage range. Worked by hand: 2.5 -> 2, 3.5 -> 4,
// -2.5 -> -2; 3e9 and -3e9 saturate to the int32 limits exactly (in f32,
// INT32_MAX rounds up to 2^31, which does not fit).
// CHECK-LABEL: func.func @i32_saturates
// CHECK: graph.constant dense<[2147483647, -2147483648, 2, 4, -2]> : tensor<5xi32> -> tensor<5x!quant.uniform<i32:f32, 1.000000e+00>>
// CHECK-NOT: graph.quantize
func.func @i32_saturates() -> tensor<5x!quant.uniform<i32:f32, 1.0>> {
  %x = graph.constant dense<[3.0e9, -3.0e9, 2.5, 3.5, -2.5]> : tensor<5xf32>
  %q = graph.quantize %x : (tensor<5xf32>) -> tensor<5x!quant.uniform<i32:f32, 1.0>>
  return %q : tensor<5x!quant.uniform<i32:f32, 1.0>>
}

// -----

// Unsigned with a zero point, per tensor: 1.0 / 0.5 + 128 = 130; -100 / 0.5
// + 128 saturates to 0, 100 / 0.5 + 128 to 255 (stored as i8: 130 is -126,
// 255 is -1).
// CHECK-LABEL: func.func @u8_zero_point
// CHECK: graph.constant dense<[-126, 0, -1]> : tensor<3xi8> -> tensor<3x!quant.uniform<u8:f32, 5.000000e-01:128>>
// CHECK-NOT: graph.quantize
func.func @u8_zero_point() -> tensor<3x!quant.uniform<u8:f32, 0.5:128>> {
  %x = graph.constant dense<[1.0, -100.0, 100.0]> : tensor<3xf32>
  %q = graph.quantize %x : (tensor<3xf32>) -> tensor<3x!quant.uniform<u8:f32, 0.5:128>>
  return %q : tensor<3x!quant.uniform<u8:f32, 0.5:128>>
}

// -----

// A value not finite does not fold (the lowering's rule for it stays the
// lowering's).
// CHECK-LABEL: func.func @not_finite
// CHECK: graph.quantize
func.func @not_finite() -> tensor<2x!quant.uniform<i8:f32, 1.0>> {
  %x = graph.constant dense<[0x7F800000, 1.0]> : tensor<2xf32>
  %q = graph.quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return %q : tensor<2x!quant.uniform<i8:f32, 1.0>>
}
