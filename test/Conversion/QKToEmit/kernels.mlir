// RUN: npuc-opt %s -split-input-file --pass-pipeline="builtin.module(convert-elementwise-to-qk,select-tiling,convert-qk-to-emit,emit.program(emit-multi-buffer,emit-pipeline,emit-lower-loops))" -verify-diagnostics | FileCheck %s
// RUN: npuc-opt %s -split-input-file --pass-pipeline="builtin.module(set-target{target=npu-v1-tiny},convert-elementwise-to-qk,select-tiling,convert-qk-to-emit,emit.program(emit-multi-buffer,emit-pipeline,emit-lower-loops))" -verify-diagnostics | FileCheck %s --check-prefix=TINY

// A per-tensor int8 matmul: the input and output are runtime tensors of their
// regions; the weights a constant; A and B land in 64-byte-pitched LM tiles,
// C in ACC; the MATRIX output stage requantizes per tensor (the int32 result
// never crosses VECTOR) and the result goes straight to the output region.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[A:.*]] = emit.alloc {name = "a", offset = 0 : i64} : <input, 2x3xi8, strides = [3, 1]>
// CHECK:      %[[Y:.*]] = emit.alloc {name = "y", offset = 0 : i64} : <output, 2x2xi8, strides = [2, 1]>
// CHECK:      %[[W:.*]] = emit.constant dense<{{\[\[}}1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8> : <const, 3x2xi8, strides = [2, 1]>
// CHECK:      %[[C:.*]] = emit.alloc : <acc, 2x2xi32, strides = [64, 4]>
// CHECK:      %[[AT:.*]] = emit.alloc : <lm, 2x3xi8, strides = [64, 1]>
// CHECK:      %[[BT:.*]] = emit.alloc : <lm, 3x2xi8, strides = [64, 1]>
// CHECK:      emit.dma %[[A]] -> %[[AT]]
// CHECK:      emit.dma %[[W]] -> %[[BT]]
// CHECK:      emit.matmul %[[AT]], %[[BT]] -> %[[C]] {a_zp = 1 : i64}
// CHECK:      %[[D:.*]] = emit.alloc : <lm, 2x2xi8, strides = [32, 1]>
// CHECK:      emit.drain %[[C]] -> %[[D]] {hi = 127 : i64, lo = -128 : i64, mult = 1073741824 : i64, rs = 2 : i64, zp = 3 : i64}
// CHECK:      emit.dma %[[D]] -> %[[Y]]
func.func @main(%x: tensor<2x3xi8> {graph.name = "a"}) -> (tensor<2x2xi8> {graph.name = "y"}) {
  %w = graph.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>
  %y = qk.matmul %x, %w {acc_type = i32, lhs_zp = 1 : i64, rhs_zp = array<i64: 0>, requant = #qk.requant<multiplier = [1073741824], lshift = [0], rshift = [2], zp = 3, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi8>
  return %y : tensor<2x2xi8>
}

// -----

// A padded 3x3 convolution of an odd-shaped input (C = 3, W = 7) whose
// weights are an input, not a constant (constant weights are reordered for
// the window gathered in LM: window-conv.mlir), gathers im2col from GM: the padded
// copy is made by DMA_IN's padding (fill = the input zero point 5, so padded
// taps contribute (5 - 5) * w = 0) and stored to the arena; im2col is one
// 4-D DMA per input channel ([rows][KH][OW][KW] into A rows of 32 bytes:
// 27 taps padded to the granule); per-channel requantization reads a
// 16-byte-per-channel parameter table (pmode COL) in the output stage.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[P:.*]] = emit.alloc : <arena, 1x3x7x9xui8, strides = [189, 63, 9, 1]>
// CHECK:      emit.dma %{{.*}} -> %{{.*}} {fill = 5 : i64, pad_hi = array<i64: 0, 0, 1, 1>, pad_lo = array<i64: 0, 0, 1, 1>} : <input, 1x3x5x7xui8, strides = [0, 35, 7, 1]> -> <lm, 1x3x7x9xui8, strides = [0, 224, 32, 1]>
// CHECK:      emit.constant dense<{{.*}}> : tensor<2x16xi8> : <const, 2x16xi8, strides = [16, 1]>
// CHECK:      emit.alloc : <acc, 35x2xi32, strides = [64, 4]>
// CHECK:      %[[AT:.*]] = emit.alloc : <lm, 35x27xui8, strides = [32, 1]>
// CHECK-COUNT-3: emit.dma %{{.*}} -> %{{.*}} : <arena, 5x3x7x3xui8, strides = [9, 9, 1, 1]> -> <lm, 5x3x7x3xui8, strides = [224, 3, 32, 1]>
// CHECK:      emit.matmul %[[AT]], %{{.*}} -> %{{.*}} {a_zp = 5 : i64}
// CHECK:      emit.drain %{{.*}} params %{{.*}} : !emit.buffer<lm, 2x16xi8, strides = [16, 1]> -> %{{.*}} : <acc, 35x2xi32, strides = [64, 4]> -> <lm, 35x2xi8, strides = [32, 1]>
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <lm, 35x2xi8, strides = [32, 1]> -> <output, 35x2xi8, strides = [1, 35]>
// TINY-LABEL: emit.program target "npu-v1-tiny"
func.func @main(%x: tensor<1x3x5x7xui8> {graph.name = "x"}, %w: tensor<2x3x3x3xi8> {graph.name = "w"}) -> (tensor<1x2x5x7xi8> {graph.name = "y"}) {
  %y = qk.conv2d %x, %w {acc_type = i32, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 5 : i64, pads = array<i64: 1, 1, 1, 1>, requant = #qk.requant<multiplier = [1073741824, 1073741824], lshift = [0, 0], rshift = [1, 2], zp = 0, clamp = [-128, 127], axis = 1, rounding = half_away_from_zero>, strides = array<i64: 1, 1>, weight_zp = array<i64: 0>} : (tensor<1x3x5x7xui8>, tensor<2x3x3x3xi8>) -> tensor<1x2x5x7xi8>
  return %y : tensor<1x2x5x7xi8>
}

// -----

// Reshape is a view (no copy): the dense layout is the same on both sides.
// Broadcasting is an address plan: the [7] operand is read with stride 0
// along the leading dimensions. Odd widths get padded LM row pitches: the add
// keeps its 2x7 grid (7 f32 = 28 bytes -> 32); the quantize reads one dense
// tensor, merges it into a 1x14 grid (56 bytes -> 64, 14 bytes -> 32).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[X:.*]] = emit.alloc {name = "x", offset = 0 : i64} : <input, 2x7xf32, strides = [28, 4]>
// CHECK:      %[[V:.*]] = emit.view %[[X]][0] : <input, 2x7xf32, strides = [28, 4]> -> <input, 14xf32, strides = [4]>
// CHECK-NOT:  emit.dma %[[X]]
// CHECK:      %[[B:.*]] = emit.view %[[V]][0] : <input, 14xf32, strides = [4]> -> <input, 2x7xf32, strides = [28, 4]>
// CHECK:      emit.view %[[B]][0] : <input, 2x7xf32, strides = [28, 4]> -> <input, 1x1x2x7xf32, strides = [0, 0, 28, 4]>
// CHECK:      emit.view %{{.*}}[0] : <const, 7xf32, strides = [4]> -> <const, 1x1x2x7xf32, strides = [0, 0, 0, 4]>
// CHECK:      emit.vbin ADD %{{.*}}, %{{.*}} -> %{{.*}} : <lm, 2x7xf32, strides = [32, 4]>, <lm, 2x7xf32, strides = [32, 4]> -> <lm, 2x7xf32, strides = [32, 4]>
// CHECK:      emit.cast %{{.*}} -> %{{.*}} {scale = 5.000000e-01 : f32, zp = -3 : i64} : <lm, 1x14xf32, strides = [64, 4]> -> <lm, 1x14xi8, strides = [32, 1]>
func.func @main(%x: tensor<2x7xf32> {graph.name = "x"}) -> (tensor<2x7xi8> {graph.name = "y"}) {
  %f = graph.reshape %x : (tensor<2x7xf32>) -> tensor<14xf32>
  %b = graph.reshape %f : (tensor<14xf32>) -> tensor<2x7xf32>
  %c = graph.constant dense<1.0> : tensor<7xf32>
  %s = graph.add %b, %c : (tensor<2x7xf32>, tensor<7xf32>) -> tensor<2x7xf32>
  %q = graph.quantize %s : (tensor<2x7xf32>) -> tensor<2x7x!quant.uniform<i8:f32, 0.5:-3>>
  %y = graph.storage_cast %q : (tensor<2x7x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x7xi8>
  return %y : tensor<2x7xi8>
}

// -----

// PRelu is slope * min(x, 0) + max(x, 0): the positive part in its own tile,
// x - max(x, 0) leaves the negative part exactly; the per-channel slope is read
// by address like any broadcast operand. Max is one VECTOR MAX.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.vun RELU %[[PX:.*]] -> %[[POS:.*]] :
// CHECK-NEXT: emit.vbin SUB %[[PX]], %[[POS]] -> %[[PX]]
// CHECK-NEXT: emit.vbin MUL %[[PX]], %[[SL:.*]] -> %[[PX]]
// CHECK-NEXT: emit.vbin ADD %[[PX]], %[[POS]] -> %[[PX]]
// CHECK:      emit.vbin MAX
func.func @main(%x: tensor<1x3x4x5xf32> {graph.name = "x"}) -> (tensor<1x3x4x5xf32> {graph.name = "y"}) {
  %s = graph.constant dense<[[[0.25]], [[0.5]], [[-1.0]]]> : tensor<3x1x1xf32>
  %p = graph.prelu %x, %s : (tensor<1x3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x5xf32>
  %y = graph.max %p, %x : (tensor<1x3x4x5xf32>, tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  return %y : tensor<1x3x4x5xf32>
}

// -----

// LogSoftmax over the last axis: (x - max) - log(sum(exp(x - max))), the
// exponentials in their own tile so x - max survives.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.reduce MAX cols
// CHECK-NEXT: emit.vbin SUB %[[F:.*]], %{{.*}} -> %[[F]]
// CHECK:      emit.vun COPY %[[F]] -> %[[E:.*]] :
// CHECK-NEXT: emit.vun EXP %[[E]] -> %[[E]]
// CHECK:      emit.reduce SUM cols %[[E]]
// CHECK-SAME: -> %[[S:[0-9]+]] :
// CHECK-NEXT: emit.vun LOG %[[S]] -> %[[S]]
// CHECK-NEXT: emit.vbin SUB %[[F]], %[[S]] -> %[[F]]
func.func @main(%x: tensor<3x10xf32> {graph.name = "x"}) -> (tensor<3x10xf32> {graph.name = "y"}) {
  %y = qk.softmax %x {axis = 1 : i64, log = true} : (tensor<3x10xf32>) -> tensor<3x10xf32>
  return %y : tensor<3x10xf32>
}

// -----

// A model file cannot hold an f64 output: the lowering says so at the
// value, before encoding.
func.func @main(%x: tensor<2x3xf32> {graph.name = "x"}) -> (tensor<2xf64> {graph.name = "shape"}) {
  // expected-error @+1 {{graph output 0 'shape' has element type 'f64'; model files hold i8, ui8, i16, i32, f16 and f32 tensors, and bool, int64, uint16 and uint32 stored as i8 and i32}}
  %s = graph.constant dense<[2.0, 3.0]> : tensor<2xf64>
  return %s : tensor<2xf64>
}

// -----

// An int64 output (here a folded Shape result) and a bool input cross the
// boundary in i32 and i8 storage, each named by its host type: the int64
// constant is narrowed to i32 values in CONST.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.alloc {emit.boundary = i1, name = "m", offset = 0 : i64} : <input, 4xi8, strides = [1]>
// CHECK:      emit.alloc {emit.boundary = i64, name = "shape", offset = 0 : i64} : <output, 2xi32, strides = [4]>
// CHECK:      emit.constant dense<[2, 3]> : tensor<2xi32>
func.func @main(%m: tensor<4xi1> {graph.name = "m"}) -> (tensor<2xi64> {graph.name = "shape"}) {
  %s = graph.constant dense<[2, 3]> : tensor<2xi64>
  return %s : tensor<2xi64>
}

// -----

// An op without an NPU lowering is an error at the op (its ONNX node).
func.func @main(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'graph.lrn' op has no NPU lowering yet}}
  %y = graph.lrn %x {size = 3 : i64, alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// Broadcast batch dimensions are not lowered: a diagnostic, never a product
// that skips or misreads batches.
func.func @main(%a: tensor<1x4x8xf32>, %b: tensor<3x8x16xf32>) -> tensor<3x4x16xf32> {
  // expected-error @+1 {{'qk.matmul' op matrix products of shapes 1x4x8 and 3x8x16 have no NPU lowering yet}}
  %y = graph.matmul %a, %b : (tensor<1x4x8xf32>, tensor<3x8x16xf32>) -> tensor<3x4x16xf32>
  return %y : tensor<3x4x16xf32>
}

// -----

// An op whose results are empty computes nothing: no case, no tile, no
// instruction; the empty input and output are bound with no bytes.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.alloc {name = "input_0", offset = 0 : i64} : <input, 2x0xf32, strides = [0, 4]>
// CHECK-NEXT: emit.alloc {name = "output_0", offset = 0 : i64} : <output, 2x0xf32, strides = [0, 4]>
// CHECK-NEXT: }
func.func @main(%x: tensor<2x0xf32>) -> tensor<2x0xf32> {
  %y = graph.relu %x : (tensor<2x0xf32>) -> tensor<2x0xf32>
  return %y : tensor<2x0xf32>
}

// -----

// An op with an empty operand and a result with elements is a diagnostic,
// not a division by zero in the tiler.
func.func @main(%x: tensor<2x0xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.reduce_sum' op has a tensor with no elements ('tensor<2x0xf32>'); empty tensors have no NPU lowering}}
  %y = graph.reduce_sum %x {axes = array<i64: 1>, keepdims = false} : (tensor<2x0xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// A quantized Pad's constant saturates to the storage type: 2.0 / 0.01 = 200
// is past int8, so the fill is 127 (before: 200 & 0xff = -56).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK: emit.dma {{.*}} {fill = 127 : i64
func.func @main(%x: tensor<1x1x2x2x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x1x4x4x!quant.uniform<i8:f32, 0.01>> {
  %y = graph.pad %x {mode = "constant", pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>, value = 2.0 : f64} : (tensor<1x1x2x2x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x1x4x4x!quant.uniform<i8:f32, 0.01>>
  return %y : tensor<1x1x4x4x!quant.uniform<i8:f32, 0.01>>
}

// -----

// Per-channel parameters stay per channel (contract N7): a per-axis
// QuantizeLinear reads its scales and zero points as one value per tile row
// ([3, 1] tiles, broadcast along the row by the VECTOR engine), not as copies
// at the tensor's size.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:     %[[X:.*]] = emit.alloc : <lm, 3x32xf32, strides = [128, 4]>
// CHECK:     %[[S:.*]] = emit.alloc : <lm, 3x1xf32, strides = [32, 4]>
// CHECK:     emit.dma %{{.*}} -> %{{.*}} : <const, 1x1x3x1xf32, strides = [0, 0, 4, 0]> -> <lm, 1x1x3x1xf32, strides = [96, 96, 32, 4]>
// CHECK:     %[[Z:.*]] = emit.alloc : <lm, 3x1xf32, strides = [32, 4]>
// CHECK:     emit.vbin DIV %[[X]], %[[S]] -> %[[X]] : <lm, 3x32xf32, strides = [128, 4]>, <lm, 3x1xf32, strides = [32, 4]>
// CHECK:     emit.vun ROUND
// CHECK:     emit.vbin ADD %[[X]], %[[Z]] -> %[[X]]
func.func @main(%x: tensor<1x3x4x8xf32> {graph.name = "x"}) -> (tensor<1x3x4x8xi8> {graph.name = "y"}) {
  %q = graph.quantize %x : (tensor<1x3x4x8xf32>) -> tensor<1x3x4x8x!quant.uniform<i8:f32:1, {0.5:1, 0.25:2, 0.125:3}>>
  %y = graph.storage_cast %q : (tensor<1x3x4x8x!quant.uniform<i8:f32:1, {0.5:1, 0.25:2, 0.125:3}>>) -> tensor<1x3x4x8xi8>
  return %y : tensor<1x3x4x8xi8>
}

// -----

// Slice is a strided window: the start is an offset, the step scales the
// stride (rows 1 and 3, columns 2..4 of a 4x6 i8 tensor).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK: %[[X:.*]] = emit.alloc {name = "x", offset = 0 : i64} : <input, 4x6xi8, strides = [6, 1]>
// CHECK: %[[W:.*]] = emit.view %[[X]][8] : <input, 4x6xi8, strides = [6, 1]> -> <input, 2x3xi8, strides = [12, 1]>
// CHECK: emit.dma %{{.*}} -> %{{.*}} : <input, 1x1x2x3xi8, strides = [0, 0, 12, 1]> -> <lm, 1x1x2x3xi8, strides = [64, 64, 32, 1]>
func.func @main(%x: tensor<4x6xi8> {graph.name = "x"}) -> (tensor<2x3xi8> {graph.name = "y"}) {
  %y = graph.slice %x {starts = array<i64: 1, 2>, ends = array<i64: 4, 5>, steps = array<i64: 2, 1>} : (tensor<4x6xi8>) -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// -----

// Nearest resize by whole factors is the input read with zero strides over
// each factor: [1,1,2,3] -> [1,1,4,6] (asymmetric, floor) is one strided copy.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK: emit.dma %{{.*}} -> %{{.*}} : <input, 2x2x3x2xf32, strides = [12, 0, 4, 0]> -> <lm, 2x2x3x2xf32,
func.func @main(%x: tensor<1x1x2x3xf32> {graph.name = "x"}) -> (tensor<1x1x4x6xf32> {graph.name = "y"}) {
  %y = graph.resize %x {coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = false, mode = "nearest", nearest_mode = "floor", scales = array<f32: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x1x2x3xf32>) -> tensor<1x1x4x6xf32>
  return %y : tensor<1x1x4x6xf32>
}

// -----

// Any other sampling is copied in runs of outputs whose sources advance by
// one step: half_pixel with round_prefer_floor maps outputs 0, 1, 2 of a
// 2 -> 3 resize to sources 0, 0, 1: a run of two from column 0 with stride 0,
// then one from column 1 (4 bytes in) to column 2 (8 bytes in).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK: emit.view %{{.*}}[0] : <input, 1x1x2x2xf32, strides = [16, 16, 8, 4]> -> <input, 1x1x2x2xf32, strides = [0, 0, 8, 0]>
// CHECK: emit.dma
// CHECK: emit.view %{{.*}}[8] : <output, 1x1x2x3xf32, strides = [24, 24, 12, 4]> -> <output, 1x1x2x1xf32, strides = [24, 24, 12, 4]>
// CHECK: emit.view %{{.*}}[4] : <input, 1x1x2x2xf32, strides = [16, 16, 8, 4]> -> <input, 1x1x2x1xf32, strides = [0, 0, 8, 0]>
func.func @main(%x: tensor<1x1x2x2xf32> {graph.name = "x"}) -> (tensor<1x1x2x3xf32> {graph.name = "y"}) {
  %y = graph.resize %x {coordinate_transformation_mode = "half_pixel", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = false, mode = "nearest", nearest_mode = "round_prefer_floor", scales = array<f32: 1.0, 1.0, 1.0, 1.5>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x3xf32>
  return %y : tensor<1x1x2x3xf32>
}
