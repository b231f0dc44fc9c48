// convert-elementwise-to-qk: Transpose, Slice, Expand, Tile, DepthToSpace,
// SpaceToDepth, a nearest Resize, a Gather by constant indices and a
// reflect, edge or wrap Pad become qk.copy, each index's source and
// destination written as address plans; the types (quantized ones too) and
// the operand stay. Where an axis' indices are no one progression (a Slice
// with a negative step, a Resize by a fraction, a Gather, a reflection) the
// copy is one piece per combination of runs, the last axis' runs varying
// fastest. A constant Pad becomes qk.pad with its fill as the result holds
// it, Concat qk.concat.
// RUN: npuc-opt %s -split-input-file --convert-elementwise-to-qk -mlir-print-debuginfo | FileCheck %s

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

// -----

// Resize by whole factors (nearest, asymmetric, floor): output index o
// reads o / k, one piece over [in, k] per axis, index i of repeat r written
// at i * k + r.
// CHECK-LABEL: func.func @resize_replicate
// CHECK: qk.copy %arg0 [#qk.address_plan<shape = [1, 1, 1, 1, 2, 2, 3, 2], source = (d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d2, d4, d6), dest = (d0, d1, d2, d3, d4, d5, d6, d7) -> (d0 + d1, d2 + d3, d4 * 2 + d5, d6 * 2 + d7)>] : (tensor<1x1x2x3xf32>) -> tensor<1x1x4x6xf32>
// CHECK-NOT: graph.resize
func.func @resize_replicate(%x: tensor<1x1x2x3xf32>) -> tensor<1x1x4x6xf32> {
  %y = graph.resize %x {coordinate_transformation_mode = "asymmetric", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = false, mode = "nearest", nearest_mode = "floor", scales = array<f32: 1.0, 1.0, 2.0, 2.0>} : (tensor<1x1x2x3xf32>) -> tensor<1x1x4x6xf32>
  return %y : tensor<1x1x4x6xf32>
}

// -----

// Resize of 2 columns to 3 (half_pixel, round_prefer_floor): x = (o + 1/2)
// / 1.5 - 1/2 is -1/6, 1/2 and 7/6 for o = 0, 1, 2, read columns 0, 0, 1:
// the runs [0, 0] (step 0) and [1].
// CHECK-LABEL: func.func @resize_runs
// CHECK:      qk.copy %arg0 [
// CHECK-SAME: #qk.address_plan<shape = [1, 1, 2, 2], source = (d0, d1, d2, d3) -> (0, 0, d2, 0), dest = (d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
// CHECK-SAME: #qk.address_plan<shape = [1, 1, 2, 1], source = (d0, d1, d2, d3) -> (0, 0, d2, 1), dest = (d0, d1, d2, d3) -> (d0, d1, d2, d3 + 2)>]
func.func @resize_runs(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x3xf32> {
  %y = graph.resize %x {coordinate_transformation_mode = "half_pixel", cubic_coeff_a = -7.500000e-01 : f32, exclude_outside = false, mode = "nearest", nearest_mode = "round_prefer_floor", scales = array<f32: 1.0, 1.0, 1.0, 1.5>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x3xf32>
  return %y : tensor<1x1x2x3xf32>
}

// -----

// Gather of rows [4, 1, -4, 2] (-4 is row 1): the runs [4], [1, 1] (step
// 0) and [2], every other axis whole.
// CHECK-LABEL: func.func @gather
// CHECK:      qk.copy %arg0 [
// CHECK-SAME: #qk.address_plan<shape = [1, 3], source = (d0, d1) -> (4, d1), dest = (d0, d1) -> (d0, d1)>,
// CHECK-SAME: #qk.address_plan<shape = [2, 3], source = (d0, d1) -> (1, d1), dest = (d0, d1) -> (d0 + 1, d1)>,
// CHECK-SAME: #qk.address_plan<shape = [1, 3], source = (d0, d1) -> (2, d1), dest = (d0, d1) -> (d0 + 3, d1)>]
// CHECK-SAME: (tensor<5x3xi8>) -> tensor<4x3xi8>
// CHECK-NOT: graph.gather
func.func @gather(%x: tensor<5x3xi8>) -> tensor<4x3xi8> {
  %i = graph.constant dense<[4, 1, -4, 2]> : tensor<4xi64>
  %y = graph.gather %x, %i {axis = 0 : i64} : (tensor<5x3xi8>, tensor<4xi64>) -> tensor<4x3xi8>
  return %y : tensor<4x3xi8>
}

// -----

// Indices of two dimensions are one axis of the copy ([3, 4]); a view gives
// the result its shape, and is located at the node's output (the copy
// names no tensor).
// CHECK-LABEL: func.func @gather2d
// CHECK: %[[C:.*]] = qk.copy %arg0 [#qk.address_plan<shape = [3, 4], source = (d0, d1) -> (d0, d1), dest = (d0, d1) -> (d0, d1)>] : (tensor<3x5xf32>) -> tensor<3x4xf32> loc(#[[NODE:loc[0-9]+]])
// CHECK: qk.view %[[C]] : (tensor<3x4xf32>) -> tensor<3x2x2xf32> loc(#[[OUT:loc[0-9]+]])
// CHECK-DAG: #[[G:loc[0-9]+]] = loc("g")
// CHECK-DAG: #[[NODE]] = loc("g"(#[[G]]))
// CHECK-DAG: #[[NAMED:loc[0-9]+]] = loc(fused<["y"]>[#[[G]]])
// CHECK-DAG: #[[OUT]] = loc("g"(#[[NAMED]]))
func.func @gather2d(%x: tensor<3x5xf32>) -> tensor<3x2x2xf32> {
  %i = graph.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi32>
  %y = graph.gather %x, %i {axis = 1 : i64} : (tensor<3x5xf32>, tensor<2x2xi32>) -> tensor<3x2x2xf32> loc("g"(fused<["y"]>["g"]))
  return %y : tensor<3x2x2xf32>
}

// -----

// Reflect Pad of [2, 4] by 1 and 2 columns: result columns 0..6 read input
// columns 1, 0, 1, 2, 3, 2, 1, the runs [1], [0..3], [2], [1].
// CHECK-LABEL: func.func @pad_reflect
// CHECK:      qk.copy %arg0 [
// CHECK-SAME: #qk.address_plan<shape = [2, 1], source = (d0, d1) -> (d0, 1), dest = (d0, d1) -> (d0, d1)>,
// CHECK-SAME: #qk.address_plan<shape = [2, 4], source = (d0, d1) -> (d0, d1), dest = (d0, d1) -> (d0, d1 + 1)>,
// CHECK-SAME: #qk.address_plan<shape = [2, 1], source = (d0, d1) -> (d0, 2), dest = (d0, d1) -> (d0, d1 + 5)>,
// CHECK-SAME: #qk.address_plan<shape = [2, 1], source = (d0, d1) -> (d0, 1), dest = (d0, d1) -> (d0, d1 + 6)>]
func.func @pad_reflect(%x: tensor<2x4xf32>) -> tensor<2x7xf32> {
  %y = graph.pad %x {pads = array<i64: 0, 1, 0, 2>, mode = "reflect", value = 0.0 : f64} : (tensor<2x4xf32>) -> tensor<2x7xf32>
  return %y : tensor<2x7xf32>
}

// -----

// A constant Pad is qk.pad: the begins and ends as low and high, the fill
// as the result holds it. 2.0 at scale 0.01, zero point -3, is 197,
// saturated to 127; 0.1 is f16's 0.0999755859375; a bool's 1.0 is true.
// CHECK-LABEL: func.func @pad_constant
// CHECK: qk.pad %arg0 {fill = 1.500000e+00 : f32, high = array<i64: 0, 2>, low = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x7xf32>
// CHECK: qk.pad %arg1 {fill = 127 : i8, high = array<i64: 1, 0>, low = array<i64: 1, 0>}
// CHECK: qk.pad %arg2 {fill = 9.997550e-02 : f16, high = array<i64: 0>, low = array<i64: 1>}
// CHECK: qk.pad %arg3 {fill = true, high = array<i64: 1>, low = array<i64: 0>}
// CHECK: qk.pad %arg4 {fill = -1 : i64, high = array<i64: 1>, low = array<i64: 1>}
// CHECK-NOT: graph.pad
func.func @pad_constant(%x: tensor<2x4xf32>, %q: tensor<1x2x!quant.uniform<i8:f32, 0.01:-3>>, %h: tensor<3xf16>, %b: tensor<2xi1>, %l: tensor<2xi64>) -> (tensor<2x7xf32>, tensor<3x2x!quant.uniform<i8:f32, 0.01:-3>>, tensor<4xf16>, tensor<3xi1>, tensor<4xi64>) {
  %y = graph.pad %x {pads = array<i64: 0, 1, 0, 2>, mode = "constant", value = 1.5 : f64} : (tensor<2x4xf32>) -> tensor<2x7xf32>
  %z = graph.pad %q {pads = array<i64: 1, 0, 1, 0>, mode = "constant", value = 2.0 : f64} : (tensor<1x2x!quant.uniform<i8:f32, 0.01:-3>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.01:-3>>
  %w = graph.pad %h {pads = array<i64: 1, 0>, mode = "constant", value = 0.1 : f64} : (tensor<3xf16>) -> tensor<4xf16>
  %v = graph.pad %b {pads = array<i64: 0, 1>, mode = "constant", value = 1.0 : f64} : (tensor<2xi1>) -> tensor<3xi1>
  %u = graph.pad %l {pads = array<i64: 1, 1>, mode = "constant", value = -1.0 : f64} : (tensor<2xi64>) -> tensor<4xi64>
  return %y, %z, %w, %v, %u : tensor<2x7xf32>, tensor<3x2x!quant.uniform<i8:f32, 0.01:-3>>, tensor<4xf16>, tensor<3xi1>, tensor<4xi64>
}

// -----

// Concat is qk.concat, its inputs' quantizations in their types.
// CHECK-LABEL: func.func @concat
// CHECK: qk.concat %arg0, %arg1 {axis = 1 : i64} : (tensor<1x2x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<1x3x!quant.uniform<i8:f32, 2.500000e-01>>) -> tensor<1x5x!quant.uniform<i8:f32, 5.000000e-01>>
// CHECK-NOT: graph.concat
func.func @concat(%a: tensor<1x2x!quant.uniform<i8:f32, 0.5>>, %b: tensor<1x3x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x5x!quant.uniform<i8:f32, 0.5>> {
  %y = graph.concat %a, %b {axis = 1 : i64} : (tensor<1x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x3x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x5x!quant.uniform<i8:f32, 0.5>>
  return %y : tensor<1x5x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A gather by indices known only at run time is qk.gather (the indexed DMA),
// whatever the element type and axis.
// CHECK-LABEL: func.func @gather_runtime
// CHECK: qk.gather %arg0, %arg1 {axis = 1 : i64} : (tensor<4x2000xi8>, tensor<2xi64>) -> tensor<4x2xi8>
// CHECK-NOT: graph.gather
func.func @gather_runtime(%d: tensor<4x2000xi8>, %i: tensor<2xi64>) -> tensor<4x2xi8> {
  %y = graph.gather %d, %i {axis = 1 : i64} : (tensor<4x2000xi8>, tensor<2xi64>) -> tensor<4x2xi8>
  return %y : tensor<4x2xi8>
}

// -----

// ScatterND of one index per row (the importer's form) is qk.scatter.
// CHECK-LABEL: func.func @scatter_rows
// CHECK: qk.scatter %arg0, %arg1, %arg2 {reduction = "max"} : (tensor<5x3xi32>, tensor<2x1xi64>, tensor<2x3xi32>) -> tensor<5x3xi32>
// CHECK-NOT: graph.scatter_nd
func.func @scatter_rows(%d: tensor<5x3xi32>, %i: tensor<2x1xi64>, %u: tensor<2x3xi32>) -> tensor<5x3xi32> {
  %y = graph.scatter_nd %d, %i, %u {reduction = "max"} : (tensor<5x3xi32>, tensor<2x1xi64>, tensor<2x3xi32>) -> tensor<5x3xi32>
  return %y : tensor<5x3xi32>
}
