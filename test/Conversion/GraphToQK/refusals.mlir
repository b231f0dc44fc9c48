// A graph op no kernel takes stays a graph op through
// convert-elementwise-to-qk, which succeeds; select-lowering-cases reports
// every such op of the function, each with the reason the conversion gives
// (explainUnconverted) or, for an op no conversion knows, that it has no
// lowering.
// RUN: npuc-opt %s -split-input-file --convert-elementwise-to-qk | FileCheck %s --check-prefix=LEFT
// RUN: npuc-opt %s -split-input-file --convert-elementwise-to-qk --select-lowering-cases -verify-diagnostics

// LEFT-LABEL: func.func @refused
// LEFT: graph.conv
// LEFT: graph.slice
// LEFT: graph.gemm
// LEFT: graph.resize
// LEFT: graph.resize
// LEFT: graph.gather
// LEFT: graph.gather
// LEFT: graph.pad
// LEFT: graph.pad
// LEFT: graph.lrn
!q = !quant.uniform<i8:f32, 0.5>
func.func @refused(%x: tensor<1x2x4x4x4xf32>, %w: tensor<2x2x1x1x1xf32>, %s: tensor<4x3000xi8>,
                   %a: tensor<4x8x!q>, %b: tensor<8x3x!q>, %r: tensor<1x1x2x2xf32>,
                   %d: tensor<4x2000xi8>, %i: tensor<2xi64>, %p: tensor<2x4xf32>, %e: tensor<70000x4x2xi8>)
    -> (tensor<1x2x4x4x4xf32>, tensor<4x1500xi8>, tensor<4x3x!q>, tensor<1x1x4x4xf32>,
        tensor<1x1x2x2xf32>, tensor<70000x2x2xi8>, tensor<4x1xi8>, tensor<2x12xf32>, tensor<2x5xf32>,
        tensor<1x2x4x4x4xf32>) {
  // expected-error @+1 {{'graph.conv' op convolution lowering handles 2-D (NCHW) inputs}}
  %0 = graph.conv %x, %w {strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, group = 1 : i64} : (tensor<1x2x4x4x4xf32>, tensor<2x2x1x1x1xf32>) -> tensor<1x2x4x4x4xf32>
  // expected-error @+1 {{'graph.slice' op slice with step -2 on axis 1 needs more than 1024 strided copies}}
  %1 = graph.slice %s {starts = array<i64: 0, 2999>, ends = array<i64: 4, -1>, steps = array<i64: 1, -2>} : (tensor<4x3000xi8>) -> tensor<4x1500xi8>
  // expected-error @+1 {{'graph.gemm' op Gemm lowers for f32 and f16 (a quantized Gemm has no kernel yet)}}
  %2 = graph.gemm %a, %b {alpha = 1.0 : f32, beta = 1.0 : f32, trans_a = false, trans_b = false} : (tensor<4x8x!q>, tensor<8x3x!q>) -> tensor<4x3x!q>
  // expected-error @+1 {{'graph.resize' op resize mode 'cubic' has no NPU lowering yet}}
  %3 = graph.resize %r {coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = false, mode = "cubic", nearest_mode = "floor", scales = array<f32: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  // expected-error @+1 {{'graph.resize' op resize with coordinate transformation 'asymmetric' and nearest mode 'nearest_even' has no NPU lowering yet}}
  %4 = graph.resize %r {coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = false, mode = "nearest", nearest_mode = "nearest_even", scales = array<f32: 1.0, 1.0, 1.0, 1.0>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  // expected-error @+1 {{'graph.gather' op gather of 70000x4x2 along axis 1 by indices known only at run time does not fit the indexed DMA: a row box of 70000 x 2 elements exceeds the DMA extent field (65535)}}
  %5 = graph.gather %e, %i {axis = 1 : i64} : (tensor<70000x4x2xi8>, tensor<2xi64>) -> tensor<70000x2x2xi8>
  %k = graph.constant dense<[2000]> : tensor<1xi64>
  // expected-error @+1 {{'graph.gather' op gather index 2000 is outside [-2000, 2000) along axis 1}}
  %6 = graph.gather %d, %k {axis = 1 : i64} : (tensor<4x2000xi8>, tensor<1xi64>) -> tensor<4x1xi8>
  // expected-error @+1 {{'graph.pad' op a reflect pad of 4 and 4 on axis 1 of 4 elements reflects more than the axis holds (at most 3 each side)}}
  %7 = graph.pad %p {pads = array<i64: 0, 4, 0, 4>, mode = "reflect", value = 0.0 : f64} : (tensor<2x4xf32>) -> tensor<2x12xf32>
  // expected-error @+1 {{'graph.pad' op a edge pad of -1 and 2 on axis 1 has no NPU lowering (negative pads crop; constant mode only)}}
  %8 = graph.pad %p {pads = array<i64: 0, -1, 0, 2>, mode = "edge", value = 0.0 : f64} : (tensor<2x4xf32>) -> tensor<2x5xf32>
  // expected-error @+1 {{'graph.lrn' op has no NPU lowering yet}}
  %9 = graph.lrn %x {alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32, size = 3 : i64} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<1x2x4x4x4xf32>, tensor<4x1500xi8>, tensor<4x3x!q>, tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>, tensor<70000x2x2xi8>, tensor<4x1xi8>, tensor<2x12xf32>, tensor<2x5xf32>, tensor<1x2x4x4x4xf32>
}
