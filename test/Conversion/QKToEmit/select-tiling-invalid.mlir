// select-tiling refuses, at the op, a kernel no tiling fits.
// RUN: npuc-opt %s -split-input-file -select-tiling -verify-diagnostics

// A depthwise stride beyond the v_dw_cfg fields (at most 15).
func.func @stride(%x: tensor<1x2x32x32xf32>, %w: tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32> {
  // expected-error @+1 {{no tiling of the depthwise convolution (2 channels, 1x1 window, 2x2 outputs) fits npu-v1: stride or dilation 16 is outside the v_dw_cfg fields [1, 15]}}
  %y = qk.conv2d %x, %w {acc_type = f32, strides = array<i64: 16, 16>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x2x32x32xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}
