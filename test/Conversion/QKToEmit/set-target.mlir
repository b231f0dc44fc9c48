// set-target writes the module's npuc.target; the passes after it read it,
// compile for npu-v1 without it, and honour one a module names itself.
// RUN: npuc-opt %s -split-input-file -set-target=target=npu-v1-tiny | FileCheck %s --check-prefix=SET
// RUN: not npuc-opt %s -split-input-file -set-target=target=npu-v2 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: npuc-opt %s -split-input-file -select-tiling | FileCheck %s --check-prefix=DEFAULT
// RUN: npuc-opt %s -split-input-file -set-target=target=npu-v1-tiny -select-tiling | FileCheck %s --check-prefix=TINY

// The 512x2048x512 int8 product of select-tiling.mlir, which tiles
// differently on the two targets' LM and ACC.
// SET: module attributes {npuc.target = "npu-v1-tiny"}
// UNKNOWN: error: unknown target 'npu-v2'; valid targets: npu-v1, npu-v1-tiny
// DEFAULT-LABEL: func.func @large
// DEFAULT: npuc.tiling = #qk.tiling<tile = [128, 256, 512], buffers = 2
// TINY-LABEL: func.func @large
// TINY: npuc.tiling = #qk.tiling<tile = [64, 128, 320], buffers = 1
func.func @large(%x: tensor<512x2048xi8>) -> tensor<512x512xi8> {
  %w = graph.constant dense<1> : tensor<2048x512xi8>
  %y = qk.matmul %x, %w {acc_type = i32, lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, requant = #qk.requant<multiplier = [1073741824], lshift = [0], rshift = [2], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<512x2048xi8>, tensor<2048x512xi8>) -> tensor<512x512xi8>
  return %y : tensor<512x512xi8>
}

// -----

// A module that names its target itself, without set-target.
// DEFAULT-LABEL: func.func @named
// DEFAULT: npuc.tiling = #qk.tiling<tile = [64, 128, 320], buffers = 1
module attributes {npuc.target = "npu-v1-tiny"} {
  func.func @named(%x: tensor<512x2048xi8>) -> tensor<512x512xi8> {
    %w = graph.constant dense<1> : tensor<2048x512xi8>
    %y = qk.matmul %x, %w {acc_type = i32, lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, requant = #qk.requant<multiplier = [1073741824], lshift = [0], rshift = [2], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<512x2048xi8>, tensor<2048x512xi8>) -> tensor<512x512xi8>
    return %y : tensor<512x512xi8>
  }
}
