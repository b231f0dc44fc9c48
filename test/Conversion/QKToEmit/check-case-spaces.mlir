// check-case-spaces: a lowering case that is not a point of the case space
// its op's selector declares is npuc's own gap (no evidence can vouch for
// it), reported once per case as an internal error, whatever the evidence
// says. The cases here are set by hand, as a selector that drifted from its
// declaration would set them.
// RUN: npuc-opt %s -split-input-file -convert-elementwise-to-qk -check-case-spaces -verify-diagnostics
// RUN: npuc-opt %s -split-input-file -set-target=target=npu-v1-tiny -convert-elementwise-to-qk -check-case-spaces -verify-diagnostics
// What select-lowering-cases writes is inside its space, on both targets:
// the pass passes (it overwrites the hand-set cases too).
// RUN: npuc-opt %s -split-input-file -convert-elementwise-to-qk -select-lowering-cases -check-case-spaces -o /dev/null
// RUN: npuc-opt %s -split-input-file -set-target=target=npu-v1-tiny -convert-elementwise-to-qk -select-lowering-cases -check-case-spaces -o /dev/null

func.func @outside(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{lowering case qk.map(f64->f64){fn=SIGMOID} lies outside the case space its lowering declares (its types (f64->f64) are not among the declared signatures); npuc's internal error: please report it with the model and `npuc --identity`}}
  %a = qk.map %x {fn = #qk.unary_fn<SIGMOID>, npuc.case = "qk.map(f64->f64){fn=SIGMOID}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // expected-error @+1 {{lowering case qk.map(f32->f32){fn=SIGMOID,bogus} lies outside the case space its lowering declares (property 'bogus' is not declared)}}
  %b = qk.map %a {fn = #qk.unary_fn<SIGMOID>, npuc.case = "qk.map(f32->f32){fn=SIGMOID,bogus}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // Inside the space: no error, verified or not.
  %c = qk.map %b {fn = #qk.unary_fn<SIGMOID>, npuc.case = "qk.map(f32->f32){fn=SIGMOID}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %c : tensor<2x8xf32>
}

// -----

// Cases as select-lowering-cases writes them (RUN lines 3, 4).
func.func @selected(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = graph.constant dense<0.5> : tensor<4x4x3x3xf32>
  %y = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = graph.relu %y : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %r : tensor<1x4x8x8xf32>
}
