// An elementwise op beside a product, a matrix product's or a convolution's
// (reading its result, or making its operand, through reshapes), whose
// result takes at most a quarter of LM, keeps rows that are not a multiple
// of 32 bytes as rows (beside a convolution only rows of 64 bytes or more):
// the product's accumulator tile holds them at an aligned pitch, so
// emit-forward-stores and emit-resident-values hand them on by VECTOR
// copies, which a flat run across rows could not be. Elsewhere contiguous
// dimensions merge into one run, as before.
// RUN: npuc-opt %s -split-input-file -convert-graph-to-qk -convert-elementwise-to-qk -select-tiling | FileCheck %s

// A BERT feed-forward layer of 37 f32 per row (148 bytes): the GELU's nest
// is 16 rows of 37, and so is the one of the op that feeds the next product.
// CHECK-LABEL: func.func @gelu_after_product
// CHECK:       qk.gelu {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 16, 37], tile = [1, 1, 16, 37]
// CHECK:       qk.binary {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 16, 37], tile = [1, 1, 16, 37]
// CHECK:       qk.matmul
func.func @gelu_after_product(%x: tensor<16x32xf32>, %w: tensor<32x37xf32>, %v: tensor<37x32xf32>, %b: tensor<1x16x37xf32>) -> tensor<16x32xf32> {
  %p = graph.matmul %x, %w : (tensor<16x32xf32>, tensor<32x37xf32>) -> tensor<16x37xf32>
  %r = graph.reshape %p : (tensor<16x37xf32>) -> tensor<1x16x37xf32>
  %y = graph.gelu %r {approximate = "none"} : (tensor<1x16x37xf32>) -> tensor<1x16x37xf32>
  %z = graph.add %b, %b : (tensor<1x16x37xf32>, tensor<1x16x37xf32>) -> tensor<1x16x37xf32>
  %f = graph.reshape %z : (tensor<1x16x37xf32>) -> tensor<16x37xf32>
  %q = graph.matmul %f, %v : (tensor<16x37xf32>, tensor<37x32xf32>) -> tensor<16x32xf32>
  return %q : tensor<16x32xf32>
}

// -----

// An RNN's gates of 7 floats beside their product: rows of 28 bytes stay
// rows.
// CHECK-LABEL: func.func @gates_after_product
// CHECK:       qk.map {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 2, 7]
func.func @gates_after_product(%h: tensor<2x7xf32>, %w: tensor<7x7xf32>) -> tensor<2x7xf32> {
  %p = graph.matmul %h, %w : (tensor<2x7xf32>, tensor<7x7xf32>) -> tensor<2x7xf32>
  %y = graph.tanh %p : (tensor<2x7xf32>) -> tensor<2x7xf32>
  return %y : tensor<2x7xf32>
}

// -----

// A GRU step's gates: the product's result is sliced (a copy), then
// activated twice before the next product reads it. Every op of the chain
// keeps rows of 7 floats, so each hands its tile to the next in LM.
// CHECK-LABEL: func.func @gates_chain
// CHECK:       qk.copy {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 2, 7]
// CHECK:       qk.map {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 2, 7]
// CHECK:       qk.map {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 2, 7]
func.func @gates_chain(%h: tensor<2x7xf32>, %w: tensor<7x14xf32>) -> tensor<2x7xf32> {
  %p = graph.matmul %h, %w : (tensor<2x7xf32>, tensor<7x14xf32>) -> tensor<2x14xf32>
  %s = graph.slice %p {ends = array<i64: 2, 14>, starts = array<i64: 0, 7>, steps = array<i64: 1, 1>} : (tensor<2x14xf32>) -> tensor<2x7xf32>
  %a = graph.tanh %s : (tensor<2x7xf32>) -> tensor<2x7xf32>
  %b = graph.neg %a : (tensor<2x7xf32>) -> tensor<2x7xf32>
  return %b : tensor<2x7xf32>
}

// -----

// A step's rows of a hoisted input product (a GRU's [T*B, 3H] projection):
// the slice is contiguous in both source and result, yet its copy keeps
// rows of 21 floats, as the product's tile and the gates that read it do.
// CHECK-LABEL: func.func @step_slice
// CHECK:       qk.copy {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 2, 21]
func.func @step_slice(%x: tensor<10x4xf32>, %w: tensor<4x21xf32>) -> tensor<2x21xf32> {
  %p = graph.matmul %x, %w : (tensor<10x4xf32>, tensor<4x21xf32>) -> tensor<10x21xf32>
  %s = graph.slice %p {ends = array<i64: 4, 21>, starts = array<i64: 2, 0>, steps = array<i64: 1, 1>} : (tensor<10x21xf32>) -> tensor<2x21xf32>
  %t = graph.tanh %s : (tensor<2x21xf32>) -> tensor<2x21xf32>
  return %t : tensor<2x21xf32>
}

// -----

// The same GELU on a graph input: one run of 592.
// CHECK-LABEL: func.func @gelu_alone
// CHECK:       qk.gelu {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 1, 592], tile = [1, 1, 1, 592]
func.func @gelu_alone(%x: tensor<1x16x37xf32>) -> tensor<1x16x37xf32> {
  %y = graph.gelu %x {approximate = "none"} : (tensor<1x16x37xf32>) -> tensor<1x16x37xf32>
  return %y : tensor<1x16x37xf32>
}

// -----

// Beside a convolution: a residual Add of two 16x28x14 f32 maps (rows of
// 56 bytes, shorter than two granules, merge into one run) and of two
// 16x28x28 f32 maps (rows of 112 bytes stay rows).
// CHECK-LABEL: func.func @add_after_conv
// CHECK:       qk.binary {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 1, 6272]
// CHECK:       qk.binary {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 448, 28]
func.func @add_after_conv(%x: tensor<1x16x28x14xf32>, %w: tensor<16x16x1x1xf32>, %y: tensor<1x16x28x28xf32>, %v: tensor<16x16x1x1xf32>) -> (tensor<1x16x28x14xf32>, tensor<1x16x28x28xf32>) {
  %c = graph.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x16x28x14xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x28x14xf32>
  %a = graph.add %c, %x : (tensor<1x16x28x14xf32>, tensor<1x16x28x14xf32>) -> tensor<1x16x28x14xf32>
  %d = graph.conv %y, %v {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x16x28x28xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x28x28xf32>
  %b = graph.add %d, %y : (tensor<1x16x28x28xf32>, tensor<1x16x28x28xf32>) -> tensor<1x16x28x28xf32>
  return %a, %b : tensor<1x16x28x14xf32>, tensor<1x16x28x28xf32>
}

// -----

// A value larger than a quarter of LM (1 MiB on npu-v1) is not likely to
// stay in LM: its rows of 37 merge into one run.
// CHECK-LABEL: func.func @large_after_product
// CHECK:       qk.gelu {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 1, 296000]
func.func @large_after_product(%x: tensor<8000x32xf32>, %w: tensor<32x37xf32>) -> tensor<8000x37xf32> {
  %p = graph.matmul %x, %w : (tensor<8000x32xf32>, tensor<32x37xf32>) -> tensor<8000x37xf32>
  %y = graph.gelu %p {approximate = "none"} : (tensor<8000x37xf32>) -> tensor<8000x37xf32>
  return %y : tensor<8000x37xf32>
}
