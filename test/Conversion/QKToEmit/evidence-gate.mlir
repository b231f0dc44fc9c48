// check-lowering-evidence (contracts D10, D11): a lowering case the evidence
// table does not list as verified on the target is an error at its op, with
// what the evidence says of it. The table here is Inputs/evidence.tsv, not
// the compiled-in one, so the test does not move with the evidence.
// RUN: npuc-opt %s -split-input-file -convert-elementwise-to-qk -select-lowering-cases -check-lowering-evidence=evidence=%S/Inputs/evidence.tsv -verify-diagnostics
// RUN: not npuc-opt %s -set-target=target=npu-v1-tiny -convert-elementwise-to-qk -select-lowering-cases -check-lowering-evidence="evidence=%S/Inputs/evidence.tsv" 2>&1 | FileCheck %s --check-prefix=TINY
// Evidence is per target: on npu-v1-tiny the padded conv's only test failed.
// TINY: error: lowering case qk.conv2d(f32,f32,f32->f32){kind=dense,padded,!strided,!dilated,window=kxk,bias,activation=none} is not verified on npu-v1-tiny: tests reached it on npu-v1-tiny but none matched its reference (lowered: node/test_a [FAIL])
// RUN: not npuc-opt %s -convert-elementwise-to-qk -check-lowering-evidence=evidence=%t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: evidence table '{{.*}}.missing': cannot open

// The verified case passes; the same conv without padding is another case,
// one no test reached; the Relu was reached only by a test that did not compile.
func.func @gate(%x: tensor<1x4x8x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x6x6xf32>) {
  %w = graph.constant dense<0.5> : tensor<4x4x3x3xf32>
  %b = graph.constant dense<0.25> : tensor<4xf32>
  %y = qk.conv2d %x, %w, %b {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  // expected-error @+1 {{lowering case qk.conv2d(f32,f32,f32->f32){kind=dense,!padded,!strided,!dilated,window=kxk,bias,activation=none} is not verified on npu-v1: no test reached it on npu-v1; --allow-unverified compiles it anyway}}
  %v = qk.conv2d %x, %w, %b {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  // expected-error @+1 {{lowering case qk.map(f32->f32){fn=RELU,!integer} is not verified on npu-v1: tests reached it on npu-v1 but none compiled (reached: node/test_r [NPUC-E0402])}}
  %r = graph.relu %y : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %r, %v : tensor<1x4x8x8xf32>, tensor<1x4x6x6xf32>
}

// -----

// Ops without ONNX nodes (a test's own IR): one error, no node list, no notes.
func.func @unnamed(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{lowering case qk.map(f32->f32){fn=SIGMOID} is not verified on npu-v1: no test reached it on npu-v1; --allow-unverified compiles it anyway}}
  %a = graph.sigmoid %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %b = graph.sigmoid %a : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %b : tensor<2x8xf32>
}
