// select-lowering-cases writes each op's lowering case (LoweringCase.h), the
// key of npuc's evidence: the op, its element types, and every property its
// lowering branches on, recorded both ways. Like IREE's strategy-selection
// tests, each case below pins the choice for a representative op.
// RUN: npuc-opt %s -split-input-file -select-lowering-cases -verify-diagnostics | FileCheck %s
// RUN: npuc-opt %s -split-input-file -select-lowering-cases=target=npu-v1-tiny -verify-diagnostics | FileCheck %s --check-prefix=TINY

// A dense, padded 3x3 f32 convolution with a bias; a dilated depthwise one
// (each channel its own group) differs in kind and dilation, and has no window
// property (depthwise always gathers its windows per channel).
// CHECK-LABEL: func.func @convs
// CHECK: graph.conv {{.*}}npuc.case = "graph.conv(f32,f32,f32->f32){kind=dense,padded,!strided,!dilated,window=kxk,bias,activation=none}"
// CHECK: graph.conv {{.*}}npuc.case = "graph.conv(f32,f32->f32){kind=depthwise,padded,!strided,dilated,!bias,activation=none}"
// CHECK: graph.conv {{.*}}npuc.case = "graph.conv(f32,f32->f32){kind=grouped,!padded,strided,!dilated,window=1x1,!bias,activation=none}"
// CHECK-NOT: graph.constant {{.*}}npuc.case
func.func @convs(%x: tensor<1x4x8x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x4x4xf32>) {
  %w = graph.constant dense<0.5> : tensor<4x4x3x3xf32>
  %b = graph.constant dense<0.25> : tensor<4xf32>
  %d = graph.constant dense<0.5> : tensor<4x1x3x3xf32>
  %g = graph.constant dense<0.5> : tensor<4x2x1x1xf32>
  %y = graph.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %z = graph.conv %x, %d {strides = array<i64: 1, 1>, pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>, group = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x8x8xf32>
  %v = graph.conv %x, %g {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x4x4xf32>
  return %y, %z, %v : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x4x4xf32>
}

// -----

// An integer kernel's case names its storage types and its requantization:
// one multiplier per output channel.
// CHECK-LABEL: func.func @qconv
// CHECK: qk.conv2d {{.*}}npuc.case = "qk.conv2d(ui8,i8->i8){kind=dense,padded,!strided,!dilated,window=kxk,!bias,requant=channel}"
func.func @qconv(%x: tensor<1x3x5x7xui8>, %w: tensor<2x3x3x3xi8>) -> tensor<1x2x5x7xi8> {
  %y = qk.conv2d %x, %w {acc_type = i32, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 5 : i64, layout = #qk<layout nchw>, pads = array<i64: 1, 1, 1, 1>, requant = #qk.requant<multiplier = [1073741824, 1073741824], lshift = [0, 0], rshift = [1, 2], zp = 0, clamp = [-128, 127], axis = 1, rounding = half_away_from_zero>, strides = array<i64: 1, 1>, weight_zp = array<i64: 0>} : (tensor<1x3x5x7xui8>, tensor<2x3x3x3xi8>) -> tensor<1x2x5x7xi8>
  return %y : tensor<1x2x5x7xi8>
}

// -----

// Elementwise: broadcasting is a property (zero strides, contract L5), and
// quantized operands show in the types (qi8: per tensor, stored as i8). A
// quantized Relu in one domain is exact on the integers; a per-axis
// QuantizeLinear loads its parameters per row when the axis is not innermost.
// CHECK-LABEL: func.func @elementwise
// CHECK: graph.add {{.*}}npuc.case = "graph.add(f32,f32->f32){broadcast}"
// CHECK: graph.add {{.*}}npuc.case = "graph.add(f32,f32->f32){!broadcast}"
// CHECK: graph.relu {{.*}}npuc.case = "graph.relu(qi8->qi8){integer}"
// CHECK: graph.relu {{.*}}npuc.case = "graph.relu(qi8->qi8){!integer}"
// CHECK: graph.quantize {{.*}}npuc.case = "graph.quantize(f32->qi8/axis){params=axis,params-per-row}"
// CHECK: graph.quantize {{.*}}npuc.case = "graph.quantize(f32->qi8/axis){params=axis,!params-per-row}"
func.func @elementwise(%a: tensor<2x8xf32>, %b: tensor<8xf32>, %q: tensor<2x8x!quant.uniform<i8:f32, 0.5:1>>)
    -> (tensor<2x8xf32>, tensor<2x8x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x8x!quant.uniform<i8:f32, 0.25:1>>,
        tensor<2x8x!quant.uniform<i8:f32:0, {0.5:1, 0.25:2}>>, tensor<2x8x!quant.uniform<i8:f32:1, {0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5}>>) {
  %s = graph.add %a, %b : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %t = graph.add %s, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %r = graph.relu %q : (tensor<2x8x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x8x!quant.uniform<i8:f32, 0.5:1>>
  %u = graph.relu %q : (tensor<2x8x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x8x!quant.uniform<i8:f32, 0.25:1>>
  %p = graph.quantize %t : (tensor<2x8xf32>) -> tensor<2x8x!quant.uniform<i8:f32:0, {0.5:1, 0.25:2}>>
  %n = graph.quantize %t : (tensor<2x8xf32>) -> tensor<2x8x!quant.uniform<i8:f32:1, {0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5}>>
  return %t, %r, %u, %p, %n : tensor<2x8xf32>, tensor<2x8x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x8x!quant.uniform<i8:f32, 0.25:1>>,
         tensor<2x8x!quant.uniform<i8:f32:0, {0.5:1, 0.25:2}>>, tensor<2x8x!quant.uniform<i8:f32:1, {0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5}>>
}

// -----

// A property may depend on the target: a 16,384-element f32 row and its f32
// copy (131,232 bytes with their padding, ElementwiseTiling.h) fit npu-v1's
// LM in one pass, npu-v1-tiny's (131,072) only in two (partials, then the
// partials).
// CHECK-LABEL: func.func @reduce
// CHECK: graph.reduce_sum {{.*}}npuc.case = "graph.reduce_sum(f32->f32){layout=rows,!two-pass}"
// TINY-LABEL: func.func @reduce
// TINY: graph.reduce_sum {{.*}}npuc.case = "graph.reduce_sum(f32->f32){layout=rows,two-pass}"
func.func @reduce(%x: tensor<2x16384xf32>) -> tensor<2xf32> {
  %y = graph.reduce_sum %x {axes = array<i64: 1>, keepdims = false} : (tensor<2x16384xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// An op the lowering does not handle is an error at the op, and every such
// op is reported, not only the first.
func.func @unlowered(%x: tensor<4x6xf32>, %i: tensor<2xi64>) -> (tensor<4x2xf32>, tensor<4x6xf32>) {
  // expected-error @+1 {{'graph.gather' op has no NPU lowering yet}}
  %g = graph.gather %x, %i {axis = 1 : i64} : (tensor<4x6xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  // expected-error @+1 {{slice step -1 on axis 1 has no NPU lowering yet (positive steps only)}}
  %s = graph.slice %x {starts = array<i64: 0, 5>, ends = array<i64: 4, -1>, steps = array<i64: 1, -1>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %g, %s : tensor<4x2xf32>, tensor<4x6xf32>
}
