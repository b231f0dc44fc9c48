// RUN: npuc-opt %s -split-input-file --convert-graph-to-qk -verify-diagnostics | FileCheck %s

// The scale ledger, worked by hand (real = x_scale * w_scale[c] / y_scale,
// then M * 2^(ls - rs - 31) = real with M in [2^30, 2^31)):
//   c0: 0.5 * 0.25 / 0.125 = 1.0 = 2^30 * 2^(1 - 0 - 31)  -> M = 1073741824, ls = 1, rs = 0
//   c1: 0.5 * 0.5  / 0.125 = 2.0 = 2^30 * 2^(2 - 0 - 31)  -> M = 1073741824, ls = 2, rs = 0
// The bias is int32 at the accumulator scales 0.125 and 0.25.
// Then both shifts grow as far as the value ledger allows (|acc| << ls stays
// in int32), for fractional bits in the intermediate: |x - 3| <= 252, the four
// weights are 1, so |acc| <= 4 * 252 + |bias|:
//   c0: 1018 * 2^21 = 2134900736 <= 2^31 - 1 < 1018 * 2^22  -> ls = 21, rs = 20
//   c1: 1028 * 2^20 = 1077936128 <= 2^31 - 1 < 1028 * 2^21 = 2155872256 -> ls = 20, rs = 18
// CHECK-LABEL: func.func @conv_per_channel
// CHECK: %[[B:.*]] = graph.storage_cast %{{.*}} -> tensor<2xi32>
// CHECK: %[[X:.*]] = graph.storage_cast %arg0 : ({{.*}}) -> tensor<1x1x4x4xui8>
// CHECK: %[[W:.*]] = graph.storage_cast %{{.*}} -> tensor<2x1x2x2xi8>
// CHECK: %[[K:.*]] = qk.conv2d %[[X]], %[[W]], %[[B]]
// CHECK-SAME: input_zp = 3
// CHECK-SAME: requant = #qk.requant<multiplier = [1073741824, 1073741824], lshift = [21, 20], rshift = [20, 18], zp = -2, clamp = [-128, 127], axis = 1, rounding = half_away_from_zero>
// CHECK-SAME: weight_zp = array<i64: 0, 0>
// CHECK-SAME: -> tensor<1x2x3x3xi8>
// CHECK: graph.storage_cast %[[K]] : (tensor<1x2x3x3xi8>) -> tensor<1x2x3x3x!quant.uniform<i8:f32, 1.250000e-01:-2>>
func.func @conv_per_channel(%x: tensor<1x1x4x4x!quant.uniform<u8:f32, 0.5:3>>) -> tensor<1x2x3x3x!quant.uniform<i8:f32, 0.125:-2>> {
  %w = graph.constant dense<1> : tensor<2x1x2x2xi8> -> tensor<2x1x2x2x!quant.uniform<i8:f32:0, {0.25, 0.5}>>
  %b = graph.constant dense<[10, -20]> : tensor<2xi32> -> tensor<2x!quant.uniform<i32:f32:0, {0.125, 0.25}>>
  %y = graph.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x1x4x4x!quant.uniform<u8:f32, 0.5:3>>, tensor<2x1x2x2x!quant.uniform<i8:f32:0, {0.25, 0.5}>>, tensor<2x!quant.uniform<i32:f32:0, {0.125, 0.25}>>) -> tensor<1x2x3x3x!quant.uniform<i8:f32, 0.125:-2>>
  return %y : tensor<1x2x3x3x!quant.uniform<i8:f32, 0.125:-2>>
}

// -----

// A Relu6 after the conv, in the output's quantized domain (scale 0.125,
// zero point -2), becomes the requantization clamp (L10):
//   lo = -2 + round(0 / 0.125) = -2, hi = -2 + round(6 / 0.125) = -2 + 48 = 46
// CHECK-LABEL: func.func @conv_relu6
// CHECK: %[[K:.*]] = qk.conv2d
// CHECK-SAME: clamp = [-2, 46]
// CHECK-NEXT: %[[R:.*]] = graph.storage_cast %[[K]]
// CHECK-NOT: graph.clip
// CHECK: return %[[R]]
func.func @conv_relu6(%x: tensor<1x1x4x4x!quant.uniform<u8:f32, 0.5:3>>) -> tensor<1x1x3x3x!quant.uniform<i8:f32, 0.125:-2>> {
  %w = graph.constant dense<1> : tensor<1x1x2x2xi8> -> tensor<1x1x2x2x!quant.uniform<i8:f32, 0.25>>
  %y = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x1x4x4x!quant.uniform<u8:f32, 0.5:3>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x1x3x3x!quant.uniform<i8:f32, 0.125:-2>>
  %r = graph.clip %y {min = 0.0 : f64, max = 6.0 : f64} : (tensor<1x1x3x3x!quant.uniform<i8:f32, 0.125:-2>>) -> tensor<1x1x3x3x!quant.uniform<i8:f32, 0.125:-2>>
  return %r : tensor<1x1x3x3x!quant.uniform<i8:f32, 0.125:-2>>
}

// -----

// A multiplier that is not a power of two, per tensor:
//   0.02 * 0.5 / 0.3 = 0.0333... = 0.5333... * 2^-4
//   M = round(0.5333... * 2^31) = round(1145324612.27) = 1145324612, ls = 0, rs = 4
// Value ledger: |a| <= 128, |w - 1| = 2 for the constant weights 3, K = 8:
// |acc| <= 2048 = 2^11, so ls grows to 19 (2^30 <= 2^31 - 1 < 2^31): ls = 19, rs = 23.
// CHECK-LABEL: func.func @matmul_per_tensor
// CHECK: qk.matmul
// CHECK-SAME: lhs_zp = 0
// CHECK-SAME: requant = #qk.requant<multiplier = [1145324612], lshift = [19], rshift = [23], zp = 5, clamp = [0, 255], axis = -1, rounding = half_away_from_zero>
// CHECK-SAME: rhs_zp = array<i64: 1>
func.func @matmul_per_tensor(%a: tensor<2x8x!quant.uniform<i8:f32, 0.02>>) -> tensor<2x3x!quant.uniform<u8:f32, 0.3:5>> {
  %w = graph.constant dense<3> : tensor<8x3xi8> -> tensor<8x3x!quant.uniform<i8:f32, 0.5:1>>
  %y = graph.matmul %a, %w : (tensor<2x8x!quant.uniform<i8:f32, 0.02>>, tensor<8x3x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x3x!quant.uniform<u8:f32, 0.3:5>>
  return %y : tensor<2x3x!quant.uniform<u8:f32, 0.3:5>>
}

// -----

// A multiplier V_REQUANT cannot represent is an error at the op (its ONNX node),
// not an out-of-range encoder field later (contract D12): 2^-20 * 2^-20 / 1 = 2^-40.
func.func @unrepresentable(%x: tensor<1x1x2x2x!quant.uniform<i8:f32, 9.5367431640625e-07>>) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 1.0>> {
  %w = graph.constant dense<1> : tensor<1x1x2x2xi8> -> tensor<1x1x2x2x!quant.uniform<i8:f32, 9.5367431640625e-07>>
  // expected-error @+1 {{cannot requantize output channel 0: the multiplier input scale * weight scale / output scale = 9.094947e-13 needs a right shift of 39; V_REQUANT's shifts are in [0, 31]}}
  %y = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x1x2x2x!quant.uniform<i8:f32, 9.5367431640625e-07>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 9.5367431640625e-07>>) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 1.0>>
  return %y : tensor<1x1x1x1x!quant.uniform<i8:f32, 1.0>>
}

// -----

// A bias at another scale than the accumulator's is requantized at compile
// time, round half to even: a per-tensor bias of 1 at 0.125 against
// per-channel weights {0.25, 0.5}, accumulator scales {0.125, 0.25}:
//   c0: 0.125 / 0.125 = 1, c1: 0.125 / 0.25 = 0.5 -> 0 (half to even).
// CHECK-LABEL: func.func @bias_per_tensor
// CHECK: %[[B:.*]] = graph.constant dense<[1, 0]> : tensor<2xi32>
// CHECK: qk.conv2d %{{.*}}, %{{.*}}, %[[B]]
func.func @bias_per_tensor(%x: tensor<1x1x2x2x!quant.uniform<u8:f32, 0.5>>) -> tensor<1x2x1x1x!quant.uniform<i8:f32, 0.125>> {
  %w = graph.constant dense<1> : tensor<2x1x2x2xi8> -> tensor<2x1x2x2x!quant.uniform<i8:f32:0, {0.25, 0.5}>>
  %b = graph.constant dense<1> : tensor<2xi32> -> tensor<2x!quant.uniform<i32:f32, 0.125>>
  %y = graph.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x1x2x2x!quant.uniform<u8:f32, 0.5>>, tensor<2x1x2x2x!quant.uniform<i8:f32:0, {0.25, 0.5}>>, tensor<2x!quant.uniform<i32:f32, 0.125>>) -> tensor<1x2x1x1x!quant.uniform<i8:f32, 0.125>>
  return %y : tensor<1x2x1x1x!quant.uniform<i8:f32, 0.125>>
}

// -----

// A float bias (as exporters leave it beside Q/DQ weights) is quantized at
// the accumulator scales {0.125, 0.25}: 0.3 / 0.125 = 2.4 -> 2,
// -0.2 / 0.25 = -0.8 -> -1; 1e12 would leave int32 and is an error.
// CHECK-LABEL: func.func @bias_float
// CHECK: %[[B:.*]] = graph.constant dense<[2, -1]> : tensor<2xi32>
// CHECK: qk.conv2d %{{.*}}, %{{.*}}, %[[B]]
func.func @bias_float(%x: tensor<1x1x2x2x!quant.uniform<u8:f32, 0.5>>) -> tensor<1x2x1x1x!quant.uniform<i8:f32, 0.125>> {
  %w = graph.constant dense<1> : tensor<2x1x2x2xi8> -> tensor<2x1x2x2x!quant.uniform<i8:f32:0, {0.25, 0.5}>>
  %b = graph.constant dense<[0.3, -0.2]> : tensor<2xf32>
  %y = graph.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x1x2x2x!quant.uniform<u8:f32, 0.5>>, tensor<2x1x2x2x!quant.uniform<i8:f32:0, {0.25, 0.5}>>, tensor<2xf32>) -> tensor<1x2x1x1x!quant.uniform<i8:f32, 0.125>>
  return %y : tensor<1x2x1x1x!quant.uniform<i8:f32, 0.125>>
}

// -----

func.func @bias_float_huge(%x: tensor<1x1x2x2x!quant.uniform<u8:f32, 0.5>>) -> tensor<1x2x1x1x!quant.uniform<i8:f32, 0.125>> {
  %w = graph.constant dense<1> : tensor<2x1x2x2xi8> -> tensor<2x1x2x2x!quant.uniform<i8:f32:0, {0.25, 0.5}>>
  %b = graph.constant dense<[0.3, 1.0e12]> : tensor<2xf32>
  // expected-error @+1 {{bias channel 1 = 1.000000e+12 is outside int32 at the accumulator scale 2.500000e-01}}
  %y = graph.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x1x2x2x!quant.uniform<u8:f32, 0.5>>, tensor<2x1x2x2x!quant.uniform<i8:f32:0, {0.25, 0.5}>>, tensor<2xf32>) -> tensor<1x2x1x1x!quant.uniform<i8:f32, 0.125>>
  return %y : tensor<1x2x1x1x!quant.uniform<i8:f32, 0.125>>
}

// -----

// A bias at another scale that is not a constant cannot be requantized at
// compile time.
func.func @bias_runtime(%x: tensor<1x1x2x2x!quant.uniform<u8:f32, 0.5>>, %b: tensor<1x!quant.uniform<i32:f32, 0.25>>) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 0.125>> {
  %w = graph.constant dense<1> : tensor<1x1x2x2xi8> -> tensor<1x1x2x2x!quant.uniform<i8:f32, 0.25>>
  // expected-error @+1 {{needs a constant bias, or an int32 bias quantized at the accumulator scale (input scale x weight scale)}}
  %y = graph.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x1x2x2x!quant.uniform<u8:f32, 0.5>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 0.25>>, tensor<1x!quant.uniform<i32:f32, 0.25>>) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 0.125>>
  return %y : tensor<1x1x1x1x!quant.uniform<i8:f32, 0.125>>
}

// -----

// A Clip whose max is past the storage range (1e300 / 0.125 overflows int64)
// clamps only below: lo = -2 + round(-1 / 0.125) = -10, hi stays 127.
// CHECK-LABEL: func.func @conv_clip_huge
// CHECK: qk.conv2d
// CHECK-SAME: clamp = [-10, 127]
// CHECK-NOT: graph.clip
func.func @conv_clip_huge(%x: tensor<1x1x4x4x!quant.uniform<u8:f32, 0.5:3>>) -> tensor<1x1x3x3x!quant.uniform<i8:f32, 0.125:-2>> {
  %w = graph.constant dense<1> : tensor<1x1x2x2xi8> -> tensor<1x1x2x2x!quant.uniform<i8:f32, 0.25>>
  %y = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x1x4x4x!quant.uniform<u8:f32, 0.5:3>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x1x3x3x!quant.uniform<i8:f32, 0.125:-2>>
  %r = graph.clip %y {min = -1.0 : f64, max = 1.0e300 : f64} : (tensor<1x1x3x3x!quant.uniform<i8:f32, 0.125:-2>>) -> tensor<1x1x3x3x!quant.uniform<i8:f32, 0.125:-2>>
  return %r : tensor<1x1x3x3x!quant.uniform<i8:f32, 0.125:-2>>
}

// -----

// A bias of 1 at 0.25 where the accumulator scale is 0.5 * 0.25 = 0.125:
// requantized to 2.
// CHECK-LABEL: func.func @bias_scale
// CHECK: %[[B:.*]] = graph.constant dense<2> : tensor<1xi32>
// CHECK: qk.conv2d %{{.*}}, %{{.*}}, %[[B]]
func.func @bias_scale(%x: tensor<1x1x2x2x!quant.uniform<u8:f32, 0.5>>) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 0.125>> {
  %w = graph.constant dense<1> : tensor<1x1x2x2xi8> -> tensor<1x1x2x2x!quant.uniform<i8:f32, 0.25>>
  %b = graph.constant dense<1> : tensor<1xi32> -> tensor<1x!quant.uniform<i32:f32, 0.25>>
  %y = graph.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x1x2x2x!quant.uniform<u8:f32, 0.5>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 0.25>>, tensor<1x!quant.uniform<i32:f32, 0.25>>) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 0.125>>
  return %y : tensor<1x1x1x1x!quant.uniform<i8:f32, 0.125>>
}

// -----

// The value ledger: K = 70000 products of up to 255 * 255 (the constant
// weights are all 255, stored as i8 -1) overflow int32 in the worst case:
// 70000 * 65025 = 4551750000 > 2^31 - 1.
func.func @accumulator_overflow(%a: tensor<1x70000x!quant.uniform<u8:f32, 0.5>>) -> tensor<1x1x!quant.uniform<u8:f32, 0.5>> {
  %w = graph.constant dense<-1> : tensor<70000x1xi8> -> tensor<70000x1x!quant.uniform<u8:f32, 0.5>>
  // expected-error @+1 {{the int32 accumulator of output channel 0 may overflow: K = 70000 products and the bias reach 4.551750e+09 > 2147483647}}
  %y = graph.matmul %a, %w : (tensor<1x70000x!quant.uniform<u8:f32, 0.5>>, tensor<70000x1x!quant.uniform<u8:f32, 0.5>>) -> tensor<1x1x!quant.uniform<u8:f32, 0.5>>
  return %y : tensor<1x1x!quant.uniform<u8:f32, 0.5>>
}

// -----

// The exported classifier pattern, all in f32 between DequantizeLinear and
// QuantizeLinear (DQ -> MatMul -> Add(DQ bias) -> Q), becomes one integer
// qk.matmul with its int32 bias. Worked by hand: real = 0.5 * 0.25 / 0.5 =
// 0.25 = 2^30 * 2^(0 - 1 - 31): M = 1073741824, ls = 0, rs = 1. Value ledger:
// |a| <= 128, the four weights of a column are 1, |bias| <= 8: 520; ls grows
// to 21 (520 * 2^21 = 1090519040 <= 2^31 - 1 < 520 * 2^22), rs to 22.
// CHECK-LABEL: func.func @dequantized_classifier
// CHECK:     %[[K:.*]] = qk.matmul %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}lhs_zp = 0 : i64, requant = #qk.requant<multiplier = [1073741824], lshift = [21], rshift = [22], zp = 1, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>, rhs_zp = array<i64: 0>} : (tensor<1x4xi8>, tensor<4x2xi8>, tensor<2xi32>) -> tensor<1x2xi8>
// CHECK-NOT: graph.matmul
// CHECK-NOT: graph.dequantize
func.func @dequantized_classifier(%a: tensor<1x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x!quant.uniform<i8:f32, 0.5:1>> {
  %w = graph.constant dense<1> : tensor<4x2xi8> -> tensor<4x2x!quant.uniform<i8:f32, 0.25>>
  %bq = graph.constant dense<[8, -8]> : tensor<2xi32> -> tensor<2x!quant.uniform<i32:f32, 0.125>>
  %x = graph.dequantize %a : (tensor<1x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4xf32>
  %wf = graph.dequantize %w : (tensor<4x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<4x2xf32>
  %bf = graph.dequantize %bq : (tensor<2x!quant.uniform<i32:f32, 0.125>>) -> tensor<2xf32>
  %m = graph.matmul %x, %wf : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %s = graph.add %m, %bf : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  %y = graph.quantize %s : (tensor<1x2xf32>) -> tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>
  return %y : tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>
}

// -----

// Every refused kernel of a function is reported, not only the first: the
// second convolution's bias at another scale is not a constant either.
func.func @two_refused(%x: tensor<1x1x2x2x!quant.uniform<u8:f32, 0.5>>, %b: tensor<1x!quant.uniform<i32:f32, 0.25>>) -> (tensor<1x1x1x1x!quant.uniform<i8:f32, 0.125>>, tensor<1x1x1x1x!quant.uniform<i8:f32, 0.125>>) {
  %w = graph.constant dense<1> : tensor<1x1x2x2xi8> -> tensor<1x1x2x2x!quant.uniform<i8:f32, 0.25>>
  // expected-error @+1 {{needs a constant bias, or an int32 bias quantized at the accumulator scale (input scale x weight scale)}}
  %y = graph.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x1x2x2x!quant.uniform<u8:f32, 0.5>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 0.25>>, tensor<1x!quant.uniform<i32:f32, 0.25>>) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 0.125>>
  // expected-error @+1 {{needs a constant bias, or an int32 bias quantized at the accumulator scale (input scale x weight scale)}}
  %z = graph.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x1x2x2x!quant.uniform<u8:f32, 0.5>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 0.25>>, tensor<1x!quant.uniform<i32:f32, 0.25>>) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 0.125>>
  return %y, %z : tensor<1x1x1x1x!quant.uniform<i8:f32, 0.125>>, tensor<1x1x1x1x!quant.uniform<i8:f32, 0.125>>
}

// -----

// The classifier pattern with the model's own float bias: a bias no int32
// holds at the accumulator scale (1e12 / 0.125) keeps the ops in f32 as
// written, with nothing reported and nothing of the attempt left behind.
// CHECK-LABEL: func.func @dequantized_classifier_float_bias_stays
// CHECK:      %[[X:.*]] = graph.dequantize
// CHECK-NEXT: %[[W:.*]] = graph.dequantize
// CHECK-NEXT: %[[M:.*]] = graph.matmul %[[X]], %[[W]]
// CHECK-NEXT: %[[S:.*]] = graph.add %[[M]], %{{.*}}
// CHECK-NEXT: graph.quantize %[[S]]
// CHECK-NOT:  qk.matmul
func.func @dequantized_classifier_float_bias_stays(%a: tensor<1x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x!quant.uniform<i8:f32, 0.5:1>> {
  %w = graph.constant dense<1> : tensor<4x2xi8> -> tensor<4x2x!quant.uniform<i8:f32, 0.25>>
  %bf = graph.constant dense<[1.0, 1.0e12]> : tensor<2xf32>
  %x = graph.dequantize %a : (tensor<1x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4xf32>
  %wf = graph.dequantize %w : (tensor<4x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<4x2xf32>
  %m = graph.matmul %x, %wf : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %s = graph.add %m, %bf : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  %y = graph.quantize %s : (tensor<1x2xf32>) -> tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>
  return %y : tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>
}

// -----

// A graph.requantize always becomes a qk.requantize, its form decided here:
// top_bit where the types differ only in signedness at one scale with zero
// points 128 apart (every value exact), f32 steps otherwise (here the zero
// points are 127 apart, as TFLite's uint8 inputs to int8 are not).
// CHECK-LABEL: func.func @requantize_forms
// CHECK: qk.requantize %arg0 {form = #qk.requantize_form<top_bit>} : (tensor<4x!quant.uniform<u8:f32, 2.500000e-01:128>>) -> tensor<4x!quant.uniform<i8:f32, 2.500000e-01>>
// CHECK: qk.requantize %arg1 {form = #qk.requantize_form<f32>} : (tensor<4x!quant.uniform<u8:f32, 2.500000e-01:127>>) -> tensor<4x!quant.uniform<i8:f32, 2.500000e-01>>
// CHECK-NOT: graph.requantize
func.func @requantize_forms(%a: tensor<4x!quant.uniform<u8:f32, 0.25:128>>, %b: tensor<4x!quant.uniform<u8:f32, 0.25:127>>) -> (tensor<4x!quant.uniform<i8:f32, 0.25>>, tensor<4x!quant.uniform<i8:f32, 0.25>>) {
  %x = graph.requantize %a : (tensor<4x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<4x!quant.uniform<i8:f32, 0.25>>
  %y = graph.requantize %b : (tensor<4x!quant.uniform<u8:f32, 0.25:127>>) -> tensor<4x!quant.uniform<i8:f32, 0.25>>
  return %x, %y : tensor<4x!quant.uniform<i8:f32, 0.25>>, tensor<4x!quant.uniform<i8:f32, 0.25>>
}

// -----

// One DequantizeLinear feeding two classifier chains (two heads on the same
// features): both become kernels, and the dequantization goes once nothing
// reads it (the driver defers erasures, so it is removed after the
// conversion, not by the first chain's pattern).
// CHECK-LABEL: func.func @two_heads
// CHECK-COUNT-2: qk.matmul
// CHECK-NOT: graph.dequantize
func.func @two_heads(%a: tensor<1x4x!quant.uniform<i8:f32, 0.5>>) -> (tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>, tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>) {
  %w = graph.constant dense<1> : tensor<4x2xi8> -> tensor<4x2x!quant.uniform<i8:f32, 0.25>>
  %bq = graph.constant dense<[8, -8]> : tensor<2xi32> -> tensor<2x!quant.uniform<i32:f32, 0.125>>
  %x = graph.dequantize %a : (tensor<1x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4xf32>
  %wf = graph.dequantize %w : (tensor<4x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<4x2xf32>
  %bf = graph.dequantize %bq : (tensor<2x!quant.uniform<i32:f32, 0.125>>) -> tensor<2xf32>
  %m = graph.matmul %x, %wf : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %s = graph.add %m, %bf : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  %y = graph.quantize %s : (tensor<1x2xf32>) -> tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>
  %m2 = graph.matmul %x, %wf : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %s2 = graph.add %m2, %bf : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  %y2 = graph.quantize %s2 : (tensor<1x2xf32>) -> tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>
  return %y, %y2 : tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>, tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>
}
