// convert-elementwise-to-qk: Transpose, Slice, Expand, Tile, DepthToSpace and
// SpaceToDepth become qk.copy, each index's source and destination written
// as address plans; the types (quantized ones too) and the operand stay. A
// Slice with a negative step is one piece per run of the reversed axis (a
// strided view has no negative stride), the last axis' runs varying
// fastest.
// RUN: npuc-opt %s -split-input-file --convert-elementwise-to-qk | FileCheck %s

// Transpose by [0, 2, 3, 1]: result dimension i reads input dimension perm[i].
// CHECK-LABEL: func.func @transpose
// CHECK: qk.copy %arg0 [#qk.address_plan<shape = [1, 4, 5, 3], source = (d0, d1, d2, d3) -> (d0, d3, d1, d2), dest = (d0, d1, d2, d3) -> (d0, d1, d2, d3)>] : (tensor<1x3x4x5x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<1x4x5x3x!quant.uniform<i8:f32, 5.000000e-01>>
// CHECK-NOT: graph.transpose
func.func @transpose(%x: tensor<1x3x4x5x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x5x3x!quant.uniform<i8:f32, 0.5>> {
  %y = graph.transpose %x {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x3x4x5x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x5x3x!quant.uniform<i8:f32, 0.5>>
  return %y : tensor<1x4x5x3x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Slice with positive steps: one piece, index d read at start + step * d.
// CHECK-LABEL: func.func @slice
// CHECK: qk.copy %arg0 [#qk.address_plan<shape = [2, 4, 3], source = (d0, d1, d2) -> (d0, d1 * 2 + 1, d2 + 2), dest = (d0, d1, d2) -> (d0, d1, d2)>] : (tensor<2x9x6xf32>) -> tensor<2x4x3xf32>
func.func @slice(%x: tensor<2x9x6xf32>) -> tensor<2x4x3xf32> {
  %y = graph.slice %x {starts = array<i64: 0, 1, 2>, ends = array<i64: 2, 9, 5>, steps = array<i64: 1, 2, 1>} : (tensor<2x9x6xf32>) -> tensor<2x4x3xf32>
  return %y : tensor<2x4x3xf32>
}

// -----

// Slice of [2, 3] reversed along axis 1 (input indices 2, 1, 0): three
// pieces of one column, output column j reading input column 2 - j (a run
// of one index has step 0).
// CHECK-LABEL: func.func @reversed
// CHECK:      qk.copy %arg0 [
// CHECK-SAME: #qk.address_plan<shape = [2, 1], source = (d0, d1) -> (d0, 2), dest = (d0, d1) -> (d0, d1)>,
// CHECK-SAME: #qk.address_plan<shape = [2, 1], source = (d0, d1) -> (d0, 1), dest = (d0, d1) -> (d0, d1 + 1)>,
// CHECK-SAME: #qk.address_plan<shape = [2, 1], source = (d0, d1) -> (d0, 0), dest = (d0, d1) -> (d0, d1 + 2)>]
func.func @reversed(%x: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %y = graph.slice %x {starts = array<i64: 0, 2>, ends = array<i64: 2, -1>, steps = array<i64: 1, -1>} : (tensor<2x3xi8>) -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// -----

// Expand [3, 1] -> [2, 3, 4]: the input's dimensions align with the last
// ones; the broadcast dimension is read at index 0, the new one not at all.
// CHECK-LABEL: func.func @expand
// CHECK: qk.copy %arg0 [#qk.address_plan<shape = [2, 3, 4], source = (d0, d1, d2) -> (d1, 0), dest = (d0, d1, d2) -> (d0, d1, d2)>] : (tensor<3x1xf16>) -> tensor<2x3x4xf16>
func.func @expand(%x: tensor<3x1xf16>) -> tensor<2x3x4xf16> {
  %y = graph.expand %x : (tensor<3x1xf16>) -> tensor<2x3x4xf16>
  return %y : tensor<2x3x4xf16>
}

// -----

// Tile [2, 3] by [3, 2] over [r0, d0, r1, d1] = [3, 2, 2, 3]: repeat r of
// index d written at r * extent + d, read at d.
// CHECK-LABEL: func.func @tile
// CHECK: qk.copy %arg0 [#qk.address_plan<shape = [3, 2, 2, 3], source = (d0, d1, d2, d3) -> (d1, d3), dest = (d0, d1, d2, d3) -> (d0 * 2 + d1, d2 * 3 + d3)>] : (tensor<2x3xi32>) -> tensor<6x6xi32>
func.func @tile(%x: tensor<2x3xi32>) -> tensor<6x6xi32> {
  %y = graph.tile %x {repeats = array<i64: 3, 2>} : (tensor<2x3xi32>) -> tensor<6x6xi32>
  return %y : tensor<6x6xi32>
}

// -----

// DepthToSpace of [1, 8, 2, 3] by 2 over [N, C', H, i, W, j] = [1, 2, 2,
// 2, 3, 2]: DCR reads channel (i * 2 + j) * 2 + c, CRD c * 4 + i * 2 + j;
// both write (n, c, h * 2 + i, w * 2 + j).
// CHECK-LABEL: func.func @depth_to_space
// CHECK: qk.copy %arg0 [#qk.address_plan<shape = [1, 2, 2, 2, 3, 2], source = (d0, d1, d2, d3, d4, d5) -> (d0, d1 + d3 * 4 + d5 * 2, d2, d4), dest = (d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d3, d4 * 2 + d5)>]
// CHECK: qk.copy %arg0 [#qk.address_plan<shape = [1, 2, 2, 2, 3, 2], source = (d0, d1, d2, d3, d4, d5) -> (d0, d1 * 4 + d3 * 2 + d5, d2, d4), dest = (d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d3, d4 * 2 + d5)>]
func.func @depth_to_space(%x: tensor<1x8x2x3xf32>) -> (tensor<1x2x4x6xf32>, tensor<1x2x4x6xf32>) {
  %y = graph.depth_to_space %x {blocksize = 2 : i64, mode = "DCR"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  %z = graph.depth_to_space %x {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %y, %z : tensor<1x2x4x6xf32>, tensor<1x2x4x6xf32>
}

// -----

// SpaceToDepth of [1, 2, 4, 6] by 2 over [N, i, j, C, H', W'] = [1, 2, 2,
// 2, 2, 3]: reads (n, c, h * 2 + i, w * 2 + j), writes channel (i * 2 + j)
// * 2 + c.
// CHECK-LABEL: func.func @space_to_depth
// CHECK: qk.copy %arg0 [#qk.address_plan<shape = [1, 2, 2, 2, 2, 3], source = (d0, d1, d2, d3, d4, d5) -> (d0, d3, d4 * 2 + d1, d5 * 2 + d2), dest = (d0, d1, d2, d3, d4, d5) -> (d0, d1 * 4 + d2 * 2 + d3, d4, d5)>] : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
func.func @space_to_depth(%x: tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32> {
  %y = graph.space_to_depth %x {blocksize = 2 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  return %y : tensor<1x8x2x3xf32>
}

// -----

// A tensor with no elements has no box to copy: the op stays, for the
// lowering to refuse at its node as every empty tensor.
// CHECK-LABEL: func.func @empty
// CHECK: graph.slice
// CHECK-NOT: qk.copy
func.func @empty(%x: tensor<2x3xf32>) -> tensor<2x0xf32> {
  %y = graph.slice %x {starts = array<i64: 0, 3>, ends = array<i64: 2, 3>, steps = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x0xf32>
  return %y : tensor<2x0xf32>
}
