// select-lowering-cases writes each op's lowering case (LoweringCase.h), the
// key of npuc's evidence: the op, its element types, and every property its
// lowering branches on, recorded both ways. Like IREE's strategy-selection
// tests, each case below pins the choice for a representative op.
// RUN: npuc-opt %s -split-input-file -convert-elementwise-to-qk -select-lowering-cases -verify-diagnostics | FileCheck %s
// RUN: npuc-opt %s -split-input-file -set-target=target=npu-v1-tiny -convert-elementwise-to-qk -select-lowering-cases -verify-diagnostics | FileCheck %s --check-prefix=TINY

// A dense, padded 3x3 f32 convolution with a bias; a dilated depthwise one
// (each channel its own group) differs in kind and dilation, and has no window
// property (depthwise always gathers its windows per channel).
// CHECK-LABEL: func.func @convs
// CHECK: qk.conv2d {{.*}}npuc.case = "qk.conv2d(f32,f32,f32->f32){kind=dense,padded,!strided,!dilated,window=kxk,bias,activation=none}"
// CHECK: qk.conv2d {{.*}}npuc.case = "qk.conv2d(f32,f32->f32){kind=depthwise,padded,!strided,dilated,!bias,activation=none}"
// CHECK: qk.conv2d {{.*}}npuc.case = "qk.conv2d(f32,f32->f32){kind=grouped,!padded,strided,!dilated,window=1x1,!bias,activation=none}"
// CHECK-NOT: graph.constant {{.*}}npuc.case
func.func @convs(%x: tensor<1x4x8x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x4x4xf32>) {
  %w = graph.constant dense<0.5> : tensor<4x4x3x3xf32>
  %b = graph.constant dense<0.25> : tensor<4xf32>
  %d = graph.constant dense<0.5> : tensor<4x1x3x3xf32>
  %g = graph.constant dense<0.5> : tensor<4x2x1x1xf32>
  %y = qk.conv2d %x, %w, %b {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %z = qk.conv2d %x, %d {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>, groups = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x8x8xf32>
  %v = qk.conv2d %x, %g {acc_type = f32, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x4x4xf32>
  return %y, %z, %v : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x4x4xf32>
}

// -----

// An integer kernel's case names its storage types and its requantization:
// one multiplier per output channel.
// CHECK-LABEL: func.func @qconv
// CHECK: qk.conv2d {{.*}}npuc.case = "qk.conv2d(ui8,i8->i8){kind=dense,padded,!strided,!dilated,window=kxk,!bias,requant=channel}"
func.func @qconv(%x: tensor<1x3x5x7xui8>, %w: tensor<2x3x3x3xi8>) -> tensor<1x2x5x7xi8> {
  %y = qk.conv2d %x, %w {acc_type = i32, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = 5 : i64, pads = array<i64: 1, 1, 1, 1>, requant = #qk.requant<multiplier = [1073741824, 1073741824], lshift = [0, 0], rshift = [1, 2], zp = 0, clamp = [-128, 127], axis = 1, rounding = half_away_from_zero>, strides = array<i64: 1, 1>, weight_zp = array<i64: 0>} : (tensor<1x3x5x7xui8>, tensor<2x3x3x3xi8>) -> tensor<1x2x5x7xi8>
  return %y : tensor<1x2x5x7xi8>
}

// -----

// Elementwise: broadcasting is a property (zero strides, contract L5), and
// quantized operands show in the types (qi8: per tensor, stored as i8). A
// quantized Relu in one domain is exact on the integers (int8 to uint8 of
// equal scale and zero point is two domains: its bytes mean other values,
// and the Relu's case space declares it never integer); a per-axis
// QuantizeLinear loads its parameters per row when the axis is not innermost.
// CHECK-LABEL: func.func @elementwise
// CHECK: qk.binary {{.*}}npuc.case = "qk.binary(f32,f32->f32){fn=ADD,broadcast}"
// CHECK: qk.binary {{.*}}npuc.case = "qk.binary(f32,f32->f32){fn=ADD,!broadcast}"
// CHECK: qk.map {{.*}}npuc.case = "qk.map(qi8->qi8){fn=RELU,integer}"
// CHECK: qk.map {{.*}}npuc.case = "qk.map(qi8->qi8){fn=RELU,!integer}"
// CHECK: qk.map {{.*}}npuc.case = "qk.map(qi8->qui8){fn=RELU,!integer}"
// CHECK: qk.quantize {{.*}}npuc.case = "qk.quantize(f32->qi8/axis){params=axis,params-per-row}"
// CHECK: qk.quantize {{.*}}npuc.case = "qk.quantize(f32->qi8/axis){params=axis,!params-per-row}"
func.func @elementwise(%a: tensor<2x8xf32>, %b: tensor<8xf32>, %q: tensor<2x8x!quant.uniform<i8:f32, 0.5:1>>)
    -> (tensor<2x8xf32>, tensor<2x8x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x8x!quant.uniform<i8:f32, 0.25:1>>,
        tensor<2x8x!quant.uniform<u8:f32, 0.5:1>>, tensor<2x8x!quant.uniform<i8:f32:0, {0.5:1, 0.25:2}>>, tensor<2x8x!quant.uniform<i8:f32:1, {0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5}>>) {
  %s = graph.add %a, %b : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %t = graph.add %s, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %r = graph.relu %q : (tensor<2x8x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x8x!quant.uniform<i8:f32, 0.5:1>>
  %u = graph.relu %q : (tensor<2x8x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x8x!quant.uniform<i8:f32, 0.25:1>>
  %w = graph.relu %q : (tensor<2x8x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x8x!quant.uniform<u8:f32, 0.5:1>>
  %p = graph.quantize %t : (tensor<2x8xf32>) -> tensor<2x8x!quant.uniform<i8:f32:0, {0.5:1, 0.25:2}>>
  %n = graph.quantize %t : (tensor<2x8xf32>) -> tensor<2x8x!quant.uniform<i8:f32:1, {0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5}>>
  return %t, %r, %u, %w, %p, %n : tensor<2x8xf32>, tensor<2x8x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x8x!quant.uniform<i8:f32, 0.25:1>>,
         tensor<2x8x!quant.uniform<u8:f32, 0.5:1>>, tensor<2x8x!quant.uniform<i8:f32:0, {0.5:1, 0.25:2}>>, tensor<2x8x!quant.uniform<i8:f32:1, {0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5}>>
}

// -----

// A property may depend on the target: a 16,384-element f32 row and its f32
// copy (131,232 bytes with their padding, ElementwiseTiling.h) fit npu-v1's
// LM in one pass, npu-v1-tiny's (131,072) only in two (partials, then the
// partials).
// CHECK-LABEL: func.func @reduce
// CHECK: qk.reduce {{.*}}npuc.case = "qk.reduce(f32->f32){fn=SUM,pre=none,post=none,layout=rows,!two-pass}"
// TINY-LABEL: func.func @reduce
// TINY: qk.reduce {{.*}}npuc.case = "qk.reduce(f32->f32){fn=SUM,pre=none,post=none,layout=rows,two-pass}"
func.func @reduce(%x: tensor<2x16384xf32>) -> tensor<2xf32> {
  %y = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<none>, post = #qk.reduce_post<none>, axes = array<i64: 1>, keepdims = false} : (tensor<2x16384xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// An op the lowering does not handle is an error at the op, and every such
// op is reported, not only the first.
func.func @unlowered(%x: tensor<70000x4x2xi8>, %i: tensor<2xi64>, %f: tensor<2x8xf32>) -> (tensor<70000x2x2xi8>, tensor<2x8xf32>) {
  // expected-error @+1 {{'graph.gather' op gather of 70000x4x2 along axis 1 by indices known only at run time does not fit the indexed DMA: a row box of 70000 x 2 elements exceeds the DMA extent field (65535)}}
  %g = graph.gather %x, %i {axis = 1 : i64} : (tensor<70000x4x2xi8>, tensor<2xi64>) -> tensor<70000x2x2xi8>
  // expected-error @+1 {{'graph.lrn' op has no NPU lowering yet}}
  %l = graph.lrn %f {size = 3 : i64, alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %g, %l : tensor<70000x2x2xi8>, tensor<2x8xf32>
}

// -----

// A Slice reversed along an axis is one strided copy per run of indices:
// more than a program holds is refused at the node when it would become
// qk.copy (convert-elementwise-to-qk), every such slice reported.
func.func @reversed(%x: tensor<4x2000xi8>, %y: tensor<4x3000xi8>) -> (tensor<4x2000xi8>, tensor<4x1500xi8>) {
  // expected-error @+1 {{'graph.slice' op slice with step -1 on axis 1 needs more than 1024 strided copies (one per reversed index)}}
  %s = graph.slice %x {starts = array<i64: 0, 1999>, ends = array<i64: 4, -1>, steps = array<i64: 1, -1>} : (tensor<4x2000xi8>) -> tensor<4x2000xi8>
  // expected-error @+1 {{'graph.slice' op slice with step -2 on axis 1 needs more than 1024 strided copies (one per reversed index)}}
  %t = graph.slice %y {starts = array<i64: 0, 2999>, ends = array<i64: 4, -1>, steps = array<i64: 1, -2>} : (tensor<4x3000xi8>) -> tensor<4x1500xi8>
  return %s, %t : tensor<4x2000xi8>, tensor<4x1500xi8>
}

// -----

// LayerNormalization records whether it has a bias and which statistics the
// graph uses (only those are stored): the Mean of the first, the InvStdDev
// of the second, neither of the quantized third (types qi8 in, f32 scale and
// bias, f32 statistics).
// CHECK-LABEL: func.func @layer_norms
// CHECK: qk.layer_norm {{.*}}npuc.case = "qk.layer_norm(f32,f32,f32->f32,f32,f32){bias,mean,!inv-std-dev}"
// CHECK: qk.layer_norm {{.*}}npuc.case = "qk.layer_norm(f32,f32->f32,f32,f32){!bias,!mean,inv-std-dev}"
// CHECK: qk.layer_norm {{.*}}npuc.case = "qk.layer_norm(qi8,f32,f32->qi8,f32,f32){bias,!mean,!inv-std-dev}"
func.func @layer_norms(%x: tensor<4x32xf32>, %s: tensor<32xf32>, %b: tensor<32xf32>, %q: tensor<4x32x!quant.uniform<i8:f32, 0.5:1>>)
    -> (tensor<4x32xf32>, tensor<4x1xf32>, tensor<4x32xf32>, tensor<4x1xf32>, tensor<4x32x!quant.uniform<i8:f32, 0.25:0>>) {
  %y, %m, %i = qk.layer_norm %x, %s, %b {axis = 1 : i64, epsilon = 9.99999974E-6 : f32} : (tensor<4x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x32xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  %z, %n, %j = qk.layer_norm %x, %s {axis = 1 : i64, epsilon = 9.99999974E-6 : f32} : (tensor<4x32xf32>, tensor<32xf32>) -> (tensor<4x32xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  %w, %o, %k = qk.layer_norm %q, %s, %b {axis = 1 : i64, epsilon = 9.99999974E-6 : f32} : (tensor<4x32x!quant.uniform<i8:f32, 0.5:1>>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x32x!quant.uniform<i8:f32, 0.25:0>>, tensor<4x1xf32>, tensor<4x1xf32>)
  return %y, %m, %z, %j, %w : tensor<4x32xf32>, tensor<4x1xf32>, tensor<4x32xf32>, tensor<4x1xf32>, tensor<4x32x!quant.uniform<i8:f32, 0.25:0>>
}

// -----

// Pow by a constant of one value (a scalar, a [1] integer, a splat of the
// result's shape) records the form it is computed in; any other exponent,
// a constant of several values too, is a tensor exponent, with whether it is
// an integer (converted to f32 in LM) and whether an operand broadcasts.
// CHECK-LABEL: func.func @pows
// CHECK: qk.pow {{.*}}npuc.case = "qk.pow(f32,f32->f32){exponent=constant,form=square}"
// CHECK: qk.pow {{.*}}npuc.case = "qk.pow(f32,i32->f32){exponent=constant,form=cube}"
// CHECK: qk.pow {{.*}}npuc.case = "qk.pow(f32,f32->f32){exponent=constant,form=sqrt}"
// CHECK: qk.pow {{.*}}npuc.case = "qk.pow(f32,f32->f32){exponent=constant,form=reciprocal}"
// CHECK: qk.pow {{.*}}npuc.case = "qk.pow(f32,f32->f32){exponent=constant,form=one}"
// CHECK: qk.pow {{.*}}npuc.case = "qk.pow(f32,f32->f32){exponent=constant,form=identity}"
// CHECK: qk.pow {{.*}}npuc.case = "qk.pow(f32,f32->f32){exponent=constant,form=exp-log}"
// CHECK: qk.pow {{.*}}npuc.case = "qk.pow(f32,f32->f32){exponent=tensor,!integer-exponent,!broadcast}"
// CHECK: qk.pow {{.*}}npuc.case = "qk.pow(f32,i32->f32){exponent=tensor,integer-exponent,broadcast}"
// CHECK: qk.pow {{.*}}npuc.case = "qk.pow(f32,f32->f32){exponent=tensor,!integer-exponent,broadcast}"
// CHECK: qk.pow {{.*}}npuc.case = "qk.pow(f32,f32->f32){exponent=tensor,!integer-exponent,broadcast}"
// CHECK-NOT: graph.constant {{.*}}npuc.case
func.func @pows(%x: tensor<4x8xf32>, %e: tensor<4x8xf32>, %k: tensor<8xi32>, %s: tensor<f32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>,
        tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %two = graph.constant dense<2.0> : tensor<f32>
  %three = graph.constant dense<3> : tensor<1xi32>
  %half = graph.constant dense<0.5> : tensor<4x8xf32>
  %minus_one = graph.constant dense<-1.0> : tensor<f32>
  %zero = graph.constant dense<0.0> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %other = graph.constant dense<2.5> : tensor<f32>
  %mixed = graph.constant dense<[1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0]> : tensor<8xf32>
  %0 = graph.pow %x, %two : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %1 = graph.pow %x, %three : (tensor<4x8xf32>, tensor<1xi32>) -> tensor<4x8xf32>
  %2 = graph.pow %x, %half : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = graph.pow %x, %minus_one : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %4 = graph.pow %x, %zero : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %5 = graph.pow %x, %one : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %6 = graph.pow %x, %other : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %7 = graph.pow %x, %e : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %8 = graph.pow %x, %k : (tensor<4x8xf32>, tensor<8xi32>) -> tensor<4x8xf32>
  %9 = graph.pow %x, %s : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %10 = graph.pow %x, %mixed : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>,
         tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// ReduceL1, L2, SumSquare, LogSum and LogSumExp are reductions with steps
// before and after: the same keys as ReduceSum (layout, two-pass). The
// 16,384-element ReduceL2 rows take two passes on npu-v1-tiny only, like
// @reduce's ReduceSum (the square is in place: no more LM).
// CHECK-LABEL: func.func @reduce_steps
// CHECK: qk.reduce {{.*}}npuc.case = "qk.reduce(f32->f32){fn=SUM,pre=square,post=sqrt,layout=rows,!two-pass}"
// CHECK: qk.reduce {{.*}}npuc.case = "qk.reduce(f32->f32){fn=SUM,pre=square,post=sqrt,layout=columns}"
// CHECK: qk.reduce {{.*}}npuc.case = "qk.reduce(f32->f32){fn=SUM,pre=square,post=sqrt,layout=rows,!two-pass}"
// CHECK: qk.reduce {{.*}}npuc.case = "qk.reduce(f32->f32){fn=SUM,pre=abs,post=none,layout=rows,!two-pass}"
// CHECK: qk.reduce {{.*}}npuc.case = "qk.reduce(f32->f32){fn=SUM,pre=square,post=none,layout=rows,!two-pass}"
// CHECK: qk.reduce {{.*}}npuc.case = "qk.reduce(f32->f32){fn=SUM,pre=none,post=log,layout=rows,!two-pass}"
// CHECK: qk.reduce {{.*}}npuc.case = "qk.reduce(f32->f32){fn=SUM,pre=shifted-exp,post=log-plus-max,layout=rows,!two-pass}"
// CHECK: qk.reduce {{.*}}npuc.case = "qk.reduce(f32->f32){fn=SUM,pre=shifted-exp,post=log-plus-max,layout=columns}"
// TINY-LABEL: func.func @reduce_steps
// TINY: qk.reduce {{.*}}npuc.case = "qk.reduce(f32->f32){fn=SUM,pre=square,post=sqrt,layout=rows,!two-pass}"
// TINY: qk.reduce {{.*}}npuc.case = "qk.reduce(f32->f32){fn=SUM,pre=square,post=sqrt,layout=columns}"
// TINY: qk.reduce {{.*}}npuc.case = "qk.reduce(f32->f32){fn=SUM,pre=square,post=sqrt,layout=rows,two-pass}"
func.func @reduce_steps(%x: tensor<3x2x2xf32>, %r: tensor<2x16384xf32>)
    -> (tensor<3x2x1xf32>, tensor<3x1x2xf32>, tensor<2xf32>, tensor<3x2x1xf32>, tensor<3x2x1xf32>, tensor<3x2x1xf32>, tensor<3x2x1xf32>, tensor<3x1x2xf32>) {
  %0 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<square>, post = #qk.reduce_post<sqrt>, axes = array<i64: 2>, keepdims = true} : (tensor<3x2x2xf32>) -> tensor<3x2x1xf32>
  %1 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<square>, post = #qk.reduce_post<sqrt>, axes = array<i64: 1>, keepdims = true} : (tensor<3x2x2xf32>) -> tensor<3x1x2xf32>
  %2 = qk.reduce %r {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<square>, post = #qk.reduce_post<sqrt>, axes = array<i64: 1>, keepdims = false} : (tensor<2x16384xf32>) -> tensor<2xf32>
  %3 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<abs>, post = #qk.reduce_post<none>, axes = array<i64: 2>, keepdims = true} : (tensor<3x2x2xf32>) -> tensor<3x2x1xf32>
  %4 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<square>, post = #qk.reduce_post<none>, axes = array<i64: 2>, keepdims = true} : (tensor<3x2x2xf32>) -> tensor<3x2x1xf32>
  %5 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<none>, post = #qk.reduce_post<log>, axes = array<i64: 2>, keepdims = true} : (tensor<3x2x2xf32>) -> tensor<3x2x1xf32>
  %6 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<shifted_exp>, post = #qk.reduce_post<log_plus_max>, axes = array<i64: 2>, keepdims = true} : (tensor<3x2x2xf32>) -> tensor<3x2x1xf32>
  %7 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<shifted_exp>, post = #qk.reduce_post<log_plus_max>, axes = array<i64: 1>, keepdims = true} : (tensor<3x2x2xf32>) -> tensor<3x1x2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<3x2x1xf32>, tensor<3x1x2xf32>, tensor<2xf32>, tensor<3x2x1xf32>, tensor<3x2x1xf32>, tensor<3x2x1xf32>, tensor<3x2x1xf32>, tensor<3x1x2xf32>
}

// -----

// The ops of LogicKernels.cpp record their operand types (int64 and bool as
// written, not their i32 and i8 storage) and what their lowering branches
// on: whether an operand broadcasts; a Cast's conversion (truncate a float
// to an integer, to-bool as x != 0, copy where the stored bytes already mean
// the result: int64 <-> int32 and a cast to the same type, convert by
// V_CAST); ArgMax/ArgMin's layout (rows: the reduced axis innermost) and
// select_last_index. Integer binary ops key on their types only.
// CHECK-LABEL: func.func @logic
// CHECK: qk.compare {{.*}}npuc.case = "qk.compare(f32,f32->i1){fn=GE,broadcast}"
// CHECK: qk.compare {{.*}}npuc.case = "qk.compare(i64,i64->i1){fn=EQ,!broadcast}"
// CHECK: qk.binary {{.*}}npuc.case = "qk.binary(i1,i1->i1){fn=XOR,!broadcast}"
// CHECK: qk.select {{.*}}npuc.case = "qk.select(i1,f32,f32->f32){broadcast}"
// CHECK: qk.cast {{.*}}npuc.case = "qk.cast(f32->i64){conversion=truncate}"
// CHECK: qk.cast {{.*}}npuc.case = "qk.cast(f32->i1){conversion=to-bool}"
// CHECK: qk.cast {{.*}}npuc.case = "qk.cast(i64->i32){conversion=copy}"
// CHECK: qk.cast {{.*}}npuc.case = "qk.cast(i32->i64){conversion=copy}"
// CHECK: qk.cast {{.*}}npuc.case = "qk.cast(i1->f32){conversion=convert}"
// CHECK: qk.cast {{.*}}npuc.case = "qk.cast(ui8->i32){conversion=convert}"
// CHECK: qk.cast {{.*}}npuc.case = "qk.cast(f16->f16){conversion=copy}"
// CHECK: qk.arg_reduce {{.*}}npuc.case = "qk.arg_reduce(f32->i64){fn=MIN,layout=rows,last}"
// CHECK: qk.arg_reduce {{.*}}npuc.case = "qk.arg_reduce(i32->i64){fn=MAX,layout=columns,!last}"
// CHECK: qk.binary {{.*}}npuc.case = "qk.binary(ui8,ui8->ui8){fn=SUB,!broadcast}"
// CHECK: qk.binary {{.*}}npuc.case = "qk.binary(i16,i16->i16){fn=MUL,!broadcast}"
// CHECK: qk.binary {{.*}}npuc.case = "qk.binary(i32,i32->i32){fn=DIV,!broadcast}"
// TINY-LABEL: func.func @logic
// TINY: qk.cast {{.*}}npuc.case = "qk.cast(f32->i64){conversion=truncate}"
// TINY: qk.arg_reduce {{.*}}npuc.case = "qk.arg_reduce(i32->i64){fn=MAX,layout=columns,!last}"
func.func @logic(%x: tensor<3x4xf32>, %v: tensor<4xf32>, %b: tensor<3x4xi1>, %i: tensor<3x4xi64>, %h: tensor<3x4xf16>, %u: tensor<3x4xui8>, %s: tensor<3x4xi16>, %j: tensor<3x4xi32>)
    -> (tensor<3x4xi1>, tensor<3x4xi1>, tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xi64>, tensor<3x4xi1>, tensor<3x4xi32>, tensor<3x4xi64>, tensor<3x4xf32>, tensor<3x4xi32>, tensor<3x4xf16>, tensor<3x1xi64>, tensor<1x4xi64>, tensor<3x4xui8>, tensor<3x4xi16>, tensor<3x4xi32>) {
  %0 = graph.greater_or_equal %x, %v : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  %1 = graph.equal %i, %i : (tensor<3x4xi64>, tensor<3x4xi64>) -> tensor<3x4xi1>
  %2 = graph.xor %b, %b : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
  %3 = graph.where %b, %x, %v : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %4 = graph.cast %x : (tensor<3x4xf32>) -> tensor<3x4xi64>
  %5 = graph.cast %x : (tensor<3x4xf32>) -> tensor<3x4xi1>
  %6 = graph.cast %i : (tensor<3x4xi64>) -> tensor<3x4xi32>
  %7 = graph.cast %j : (tensor<3x4xi32>) -> tensor<3x4xi64>
  %8 = graph.cast %b : (tensor<3x4xi1>) -> tensor<3x4xf32>
  %9 = graph.cast %u : (tensor<3x4xui8>) -> tensor<3x4xi32>
  %10 = graph.cast %h : (tensor<3x4xf16>) -> tensor<3x4xf16>
  %11 = qk.arg_reduce %x {fn = #qk.reduce_fn<MIN>, axis = 1 : i64, keepdims = true, select_last_index = true} : (tensor<3x4xf32>) -> tensor<3x1xi64>
  %12 = qk.arg_reduce %j {fn = #qk.reduce_fn<MAX>, axis = 0 : i64, keepdims = true, select_last_index = false} : (tensor<3x4xi32>) -> tensor<1x4xi64>
  %13 = graph.sub %u, %u : (tensor<3x4xui8>, tensor<3x4xui8>) -> tensor<3x4xui8>
  %14 = graph.mul %s, %s : (tensor<3x4xi16>, tensor<3x4xi16>) -> tensor<3x4xi16>
  %15 = graph.div %j, %j : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15 : tensor<3x4xi1>, tensor<3x4xi1>, tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xi64>, tensor<3x4xi1>, tensor<3x4xi32>, tensor<3x4xi64>, tensor<3x4xf32>, tensor<3x4xi32>, tensor<3x4xf16>, tensor<3x1xi64>, tensor<1x4xi64>, tensor<3x4xui8>, tensor<3x4xi16>, tensor<3x4xi32>
}
