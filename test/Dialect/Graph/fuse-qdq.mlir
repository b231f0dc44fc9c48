// RUN: npuc-opt %s -split-input-file --graph-fuse-qdq | FileCheck %s

// An op between dequantize and quantize takes the quantized types; its
// result type is the quantize's (the output scale), not an operand's.
// CHECK-LABEL: func.func @add
// CHECK: %[[R:.*]] = graph.add %arg0, %arg1 : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>, tensor<4x!quant.uniform<i8:f32, 2.500000e-01>>) -> tensor<4x!quant.uniform<i8:f32, 1.250000e-01:5>>
// CHECK: return %[[R]]
func.func @add(%a: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %b: tensor<4x!quant.uniform<i8:f32, 0.25>>) -> tensor<4x!quant.uniform<i8:f32, 0.125:5>> {
  %da = graph.dequantize %a : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32>
  %db = graph.dequantize %b : (tensor<4x!quant.uniform<i8:f32, 0.25>>) -> tensor<4xf32>
  %s = graph.add %da, %db : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %q = graph.quantize %s : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.125:5>>
  return %q : tensor<4x!quant.uniform<i8:f32, 0.125:5>>
}

// -----

// A real-valued operand that is not dequantized blocks the fusion.
// CHECK-LABEL: func.func @float_operand
// CHECK: graph.dequantize
// CHECK: graph.add %{{.*}}, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: graph.quantize
func.func @float_operand(%a: tensor<4x!quant.uniform<i8:f32, 0.5>>, %f: tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5>> {
  %da = graph.dequantize %a : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xf32>
  %s = graph.add %da, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %q = graph.quantize %s : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  return %q : tensor<4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A result with another (float) user is needed at full precision: no fusion.
// CHECK-LABEL: func.func @two_users
// CHECK: %[[R:.*]] = graph.relu %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: graph.quantize %[[R]]
func.func @two_users(%a: tensor<4x!quant.uniform<i8:f32, 0.5>>) -> (tensor<4x!quant.uniform<i8:f32, 0.5>>, tensor<4xf32>) {
  %da = graph.dequantize %a : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xf32>
  %r = graph.relu %da : (tensor<4xf32>) -> tensor<4xf32>
  %q = graph.quantize %r : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  return %q, %r : tensor<4x!quant.uniform<i8:f32, 0.5>>, tensor<4xf32>
}

// -----

// A transpose of a per-axis value would need the axis moved in the result
// type; when the quantize says otherwise the verifier refuses and nothing fuses.
// CHECK-LABEL: func.func @per_axis_transpose
// CHECK: graph.transpose %{{.*}} : (tensor<2x3xf32>) -> tensor<3x2xf32>
func.func @per_axis_transpose(%a: tensor<2x3x!quant.uniform<i8:f32:1, {0.5, 0.25, 0.125}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>> {
  %da = graph.dequantize %a : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5, 0.25, 0.125}>>) -> tensor<2x3xf32>
  %t = graph.transpose %da {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %q = graph.quantize %t : (tensor<3x2xf32>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>
  return %q : tensor<3x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>
}

// -----

// An activation between the op and its quantize keeps the output
// quantization: both take the quantize's type (L10).
// CHECK-LABEL: func.func @add_clip
// CHECK: %[[S:.*]] = graph.add %arg0, %arg1 : ({{.*}}) -> tensor<4x!quant.uniform<u8:f32, 2.500000e-02:10>>
// CHECK: %[[C:.*]] = graph.clip %[[S]] {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : (tensor<4x!quant.uniform<u8:f32, 2.500000e-02:10>>) -> tensor<4x!quant.uniform<u8:f32, 2.500000e-02:10>>
// CHECK: return %[[C]]
func.func @add_clip(%a: tensor<4x!quant.uniform<u8:f32, 0.05:3>>, %b: tensor<4x!quant.uniform<u8:f32, 0.05:3>>) -> tensor<4x!quant.uniform<u8:f32, 0.025:10>> {
  %da = graph.dequantize %a : (tensor<4x!quant.uniform<u8:f32, 0.05:3>>) -> tensor<4xf32>
  %db = graph.dequantize %b : (tensor<4x!quant.uniform<u8:f32, 0.05:3>>) -> tensor<4xf32>
  %s = graph.add %da, %db : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c = graph.clip %s {min = 0.0 : f64, max = 6.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %q = graph.quantize %c : (tensor<4xf32>) -> tensor<4x!quant.uniform<u8:f32, 0.025:10>>
  return %q : tensor<4x!quant.uniform<u8:f32, 0.025:10>>
}

// -----

// A DequantizeLinear whose result a QuantizeLinear takes directly is one
// requantization, located at both nodes; one that dequantizes and quantizes
// alike is nothing at all; a per-axis one is left as it is.
// CHECK-LABEL: func.func @requantize
// CHECK-NEXT:  %[[R:.*]] = graph.requantize %arg0 : (tensor<4x!quant.uniform<u8:f32, 2.500000e-01:127>>) -> tensor<4x!quant.uniform<i8:f32, 2.500000e-01:-1>>
// CHECK-NEXT:  %[[D:.*]] = graph.dequantize %arg2
// CHECK-NEXT:  %[[Q:.*]] = graph.quantize %[[D]]
// CHECK-NEXT:  return %[[R]], %arg1, %[[Q]]
func.func @requantize(%a: tensor<4x!quant.uniform<u8:f32, 0.25:127>>, %b: tensor<4x!quant.uniform<i8:f32, 0.5:3>>, %c: tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) -> (tensor<4x!quant.uniform<i8:f32, 0.25:-1>>, tensor<4x!quant.uniform<i8:f32, 0.5:3>>, tensor<2x2x!quant.uniform<i8:f32, 0.5>>) {
  %da = graph.dequantize %a : (tensor<4x!quant.uniform<u8:f32, 0.25:127>>) -> tensor<4xf32>
  %qa = graph.quantize %da : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.25:-1>>
  %db = graph.dequantize %b : (tensor<4x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<4xf32>
  %qb = graph.quantize %db : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:3>>
  %dc = graph.dequantize %c : (tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) -> tensor<2x2xf32>
  %qc = graph.quantize %dc : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5>>
  return %qa, %qb, %qc : tensor<4x!quant.uniform<i8:f32, 0.25:-1>>, tensor<4x!quant.uniform<i8:f32, 0.5:3>>, tensor<2x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A LayerNormalization between dequantize and quantize takes the quantized
// types; its float constant scale and bias stay float, and so do its unused
// Mean and InvStdDev results.
// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[Y:.*]], %{{.*}}, %{{.*}} = graph.layer_norm %arg0, %{{.*}}, %{{.*}} {{.*}} : (tensor<2x8x!quant.uniform<i8:f32, 2.500000e-02:7>>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x8x!quant.uniform<i8:f32, 5.000000e-02:-3>>, tensor<2x1xf32>, tensor<2x1xf32>)
// CHECK-NOT: graph.quantize
// CHECK: return %[[Y]]
func.func @layer_norm(%x: tensor<2x8x!quant.uniform<i8:f32, 0.025:7>>) -> tensor<2x8x!quant.uniform<i8:f32, 0.05:-3>> {
  %g = graph.constant dense<1.5> : tensor<8xf32>
  %b = graph.constant dense<0.25> : tensor<8xf32>
  %dx = graph.dequantize %x : (tensor<2x8x!quant.uniform<i8:f32, 0.025:7>>) -> tensor<2x8xf32>
  %y, %m, %i = graph.layer_norm %dx, %g, %b {axis = 1 : i64, epsilon = 9.99999974E-6 : f32, stash_type = 1 : i64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  %q = graph.quantize %y : (tensor<2x8xf32>) -> tensor<2x8x!quant.uniform<i8:f32, 0.05:-3>>
  return %q : tensor<2x8x!quant.uniform<i8:f32, 0.05:-3>>
}

// -----

// Its Mean used: the statistics are float results of the float op, so it
// does not fuse.
// CHECK-LABEL: func.func @layer_norm_mean_used
// CHECK: graph.dequantize
// CHECK: graph.layer_norm %{{.*}} : (tensor<2x8xf32>
// CHECK: graph.quantize
func.func @layer_norm_mean_used(%x: tensor<2x8x!quant.uniform<i8:f32, 0.025:7>>) -> (tensor<2x8x!quant.uniform<i8:f32, 0.05:-3>>, tensor<2x1xf32>) {
  %g = graph.constant dense<1.5> : tensor<8xf32>
  %dx = graph.dequantize %x : (tensor<2x8x!quant.uniform<i8:f32, 0.025:7>>) -> tensor<2x8xf32>
  %y, %m, %i = graph.layer_norm %dx, %g {axis = 1 : i64, epsilon = 9.99999974E-6 : f32, stash_type = 1 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  %q = graph.quantize %y : (tensor<2x8xf32>) -> tensor<2x8x!quant.uniform<i8:f32, 0.05:-3>>
  return %q, %m : tensor<2x8x!quant.uniform<i8:f32, 0.05:-3>>, tensor<2x1xf32>
}
