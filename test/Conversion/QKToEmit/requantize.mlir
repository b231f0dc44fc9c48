// qk.requantize (graph-fuse-qdq's DequantizeLinear -> QuantizeLinear, made a
// kernel by convert-graph-to-qk) in one pass: in the top_bit form (one scale,
// uint8 to int8 or back, zero points 128 apart) every value keeps its bits
// but the top one (a XOR of 0x80, the immediate as the elements read it); in
// the f32 form the dequantization and the quantization of the two ops on the
// tile in LM, the f32 values never in GM.
// RUN: npuc-opt %s -split-input-file -select-tiling --convert-qk-to-emit -verify-diagnostics | FileCheck %s

// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.dma {{.*}} : <input, 1x1x1x16xui8, {{.*}}> -> <lm, 1x1x1x16xui8
// CHECK:      %[[S:.*]] = emit.view %{{.*}}[0] : <lm, 1x16xui8, strides = [32, 1]> -> <lm, 1x16xi8, strides = [32, 1]>
// CHECK-NEXT: emit.vbini XOR %[[S]], -128 : i32 -> %[[S]]
// CHECK-NOT:  emit.cast
// CHECK:      emit.dma {{.*}} -> <output, 1x1x1x16xi8
func.func @main(%x: tensor<2x8xui8> {graph.name = "x"}) -> (tensor<2x8xi8> {graph.name = "y"}) {
  %q = qk.view %x : (tensor<2x8xui8>) -> tensor<2x8x!quant.uniform<u8:f32, 0.25:127>>
  %r = qk.requantize %q {form = #qk.requantize_form<top_bit>} : (tensor<2x8x!quant.uniform<u8:f32, 0.25:127>>) -> tensor<2x8x!quant.uniform<i8:f32, 0.25:-1>>
  %y = qk.view %r : (tensor<2x8x!quant.uniform<i8:f32, 0.25:-1>>) -> tensor<2x8xi8>
  return %y : tensor<2x8xi8>
}

// -----

// Another scale: (f32(x) - 3) * 0.5 (one dequantizing cast, V_DEQUANT), then
// / 0.25, rounded half to even, + 1, saturated (one quantizing cast,
// V_QUANT), as graph.dequantize and graph.quantize compute it.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.cast %{{.*}} -> %[[F:[0-9]+]] {scale = 5.000000e-01 : f32, zp = 3 : i64} : <lm, 1x16xi8, {{.*}}> -> <lm, 1x16xf32
// CHECK:      emit.cast %[[F]] -> %{{.*}} {scale = 2.500000e-01 : f32, zp = 1 : i64} : <lm, 1x16xf32, {{.*}}> -> <lm, 1x16xi8
func.func @main(%x: tensor<2x8xi8> {graph.name = "x"}) -> (tensor<2x8xi8> {graph.name = "y"}) {
  %q = qk.view %x : (tensor<2x8xi8>) -> tensor<2x8x!quant.uniform<i8:f32, 0.5:3>>
  %r = qk.requantize %q {form = #qk.requantize_form<f32>} : (tensor<2x8x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<2x8x!quant.uniform<i8:f32, 0.25:1>>
  %y = qk.view %r : (tensor<2x8x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<2x8xi8>
  return %y : tensor<2x8xi8>
}

// -----

func.func @main(%x: tensor<2x8xi8> {graph.name = "x"}) -> (tensor<2x8xi8> {graph.name = "y"}) {
  %q = qk.view %x : (tensor<2x8xi8>) -> tensor<2x8x!quant.uniform<i8:f32:0, {0.5:3, 0.25:3}>>
  // expected-error @+1 {{requantizes per-tensor quantized tensors only}}
  %r = qk.requantize %q {form = #qk.requantize_form<f32>} : (tensor<2x8x!quant.uniform<i8:f32:0, {0.5:3, 0.25:3}>>) -> tensor<2x8x!quant.uniform<i8:f32, 0.25:1>>
  %y = qk.view %r : (tensor<2x8x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<2x8xi8>
  return %y : tensor<2x8xi8>
}
