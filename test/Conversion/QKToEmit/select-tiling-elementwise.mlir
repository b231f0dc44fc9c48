// select-tiling tiles each elementwise loop nest by the cost model of
// ElementwiseTiling.h: the op's plan states the nest (its canonical 4-D
// iteration space, how each operand walks it, its work per element) from the
// op's types and attributes, and the op gets `npuc.loop_tiling`, one entry per
// nest in the order the lowering walks them.
// RUN: npuc-opt %s -split-input-file -convert-elementwise-to-qk -select-tiling | FileCheck %s
// RUN: npuc-opt %s -split-input-file -set-target=target=npu-v1-tiny -convert-elementwise-to-qk -select-tiling | FileCheck %s --check-prefix=TINY

// GELU on 1x8x3072 f32 (gelu_tf2onnx): one contiguous run of 24,576
// elements, in three tiles of 8192 with two rotating slots. By hand from
// docs/target.md "Timing" on npu-v1: a tile moves 32,768 bytes each way (512
// bus cycles each); its five VECTOR passes take 5 x (4 + 8192 x 4 / 256) =
// 660; one tile alone is 200 + 512 + 660 + 200 + 512 = 2084. A slot is
// loaded again only when its store is done, so two slots turn every
// 2084 / 2 = 1042 cycles (more than the 1024 of bus): 2 x 1042 + 2084 = 4168.
// npu-sim measures 4647 for the whole model (its start and end included).
// Smaller tiles lose: tiles of 2048 turn every (400 + 128 + 180 + 128) / 2 =
// 418 cycles, twelve of them.
// CHECK-LABEL: func.func @gelu
// CHECK: qk.gelu {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 1, 24576], tile = [1, 1, 1, 8192], buffers = 2, cycles = 4168, gm_bytes = 196608>]
// On npu-v1-tiny (128 KiB of LM) tiles of 2048.
// TINY-LABEL: func.func @gelu
// TINY: npuc.loop_tiling = [#qk.tiling<space = [1, 1, 1, 24576], tile = [1, 1, 1, 2048], buffers = 2, cycles = 13546, gm_bytes = 196608>]
func.func @gelu(%x: tensor<1x8x3072xf32>) -> tensor<1x8x3072xf32> {
  %y = graph.gelu %x {approximate = "none"} : (tensor<1x8x3072xf32>) -> tensor<1x8x3072xf32>
  return %y : tensor<1x8x3072xf32>
}

// -----

// NCHW -> NHWC of a 3x224x224 int8 image: the space is [50176 pixels, 3
// channels], the input walking pixels contiguously (stride 1) and channels
// 50,176 apart. A tile takes all 3 channels of thousands of pixels, so each
// input DMA reads three long runs, not a burst per element: GM bytes are
// exactly the tensor twice.
// CHECK-LABEL: func.func @nchw_to_nhwc
// CHECK: qk.copy {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 50176, 3], tile = [1, 1, 3216, 3], buffers = 2, cycles = 6198, gm_bytes = 301056>]
// TINY-LABEL: func.func @nchw_to_nhwc
// TINY: space = [1, 1, 50176, 3], tile = [1, 1, 402, 3], buffers = {{[0-9]+}}{{[^>]*}}>]
func.func @nchw_to_nhwc(%x: tensor<1x3x224x224xi8>) -> tensor<1x224x224x3xi8> {
  %y = graph.transpose %x {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x3x224x224xi8>) -> tensor<1x224x224x3xi8>
  return %y : tensor<1x224x224x3xi8>
}

// -----

// Concat lowers to one copy per input, each a nest of its own: two entries.
// Each input is one contiguous run into a contiguous slice of the result;
// one tile and one buffer is the bus time plus two starts (200 + 1600 + 200
// + 1600 = 3600): rotating slots cannot hide a start when a slot's load and
// store take turns.
// CHECK-LABEL: func.func @concat
// CHECK: qk.concat {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 1, 25600], tile = [1, 1, 1, 25600], buffers = 1, cycles = 3600, gm_bytes = 204800>, #qk.tiling<space = [1, 1, 1, 12800], tile = [1, 1, 1, 12800], buffers = 1, cycles = 2000, gm_bytes = 102400>]
func.func @concat(%a: tensor<1x16x40x40xf32>, %b: tensor<1x8x40x40xf32>) -> tensor<1x24x40x40xf32> {
  %y = graph.concat %a, %b {axis = 1 : i64} : (tensor<1x16x40x40xf32>, tensor<1x8x40x40xf32>) -> tensor<1x24x40x40xf32>
  return %y : tensor<1x24x40x40xf32>
}

// -----

// BatchNorm over [64 channels, 3136 pixels]: the four per-channel operands
// are one value per row, so a tile is whole rows of pixels (channels along
// the rows); the tiny target also cuts the rows.
// CHECK-LABEL: func.func @bn
// CHECK: qk.batch_norm {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 64, 3136], tile = [1, 1, 4, 3136], buffers = 2{{.*}}>]
// TINY-LABEL: func.func @bn
// TINY: space = [1, 1, 64, 3136], tile = [1, 1, 8, 320], buffers = {{[0-9]+}}{{[^>]*}}>]
func.func @bn(%x: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %s = graph.constant dense<2.0> : tensor<64xf32>
  %b = graph.constant dense<0.5> : tensor<64xf32>
  %m = graph.constant dense<0.25> : tensor<64xf32>
  %v = graph.constant dense<4.0> : tensor<64xf32>
  %y = qk.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-5 : f32} : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  return %y : tensor<1x64x56x56xf32>
}

// -----

// A tensor of 32 elements is one tile and one buffer: 200 + 2 + 5 + 200 + 2.
// CHECK-LABEL: func.func @small
// CHECK: qk.map {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 1, 32], tile = [1, 1, 1, 32], buffers = 1, cycles = 409, gm_bytes = 256>]
func.func @small(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = graph.relu %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A returned graph input is copied into the output region by the function's
// return: the nest's tiling is the return's.
// CHECK-LABEL: func.func @passthrough
// CHECK: return {npuc.loop_tiling = [#qk.tiling<space = [1, 1, 1, 32], tile = [1, 1, 1, 32], buffers = 1{{.*}}>]}
func.func @passthrough(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %a : tensor<4x8xf32>
}

// -----

// Softmax needs each row whole: a nest of 1536 rows of 128 (attention scores
// of 12 heads), tiles of whole rows only. 128 rows per tile with two slots on
// npu-v1, 32 on npu-v1-tiny; the lowering loops over them (tile-loops.mlir).
// CHECK-LABEL: func.func @softmax
// CHECK: qk.softmax {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 1536, 128], tile = [1, 1, 128, 128], buffers = 2, cycles = 27742, gm_bytes = 1572864>]
// TINY-LABEL: func.func @softmax
// TINY: space = [1, 1, 1536, 128], tile = [1, 1, 32, 128], buffers = {{[0-9]+}}{{[^>]*}}>]
func.func @softmax(%x: tensor<12x128x128xf32>) -> tensor<12x128x128xf32> {
  %y = qk.softmax %x {axis = 2 : i64, log = false} : (tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  return %y : tensor<12x128x128xf32>
}

// -----

// A reduction along rows: whole rows in, one value per row out (the result's
// access is per row: 4 bytes a row, gm_bytes = the input + 8 x 4).
// CHECK-LABEL: func.func @mean
// CHECK: qk.reduce {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 8, 3072], tile = [1, 1, 4, 3072], buffers = 2, cycles = 2930, gm_bytes = 98336>]
// TINY-LABEL: func.func @mean
// TINY: space = [1, 1, 8, 3072], tile = [1, 1, 2, 3072], buffers = {{[0-9]+}}{{[^>]*}}>]
func.func @mean(%x: tensor<1x8x3072xf32>) -> tensor<1x8x1xf32> {
  %y = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<none>, post = #qk.reduce_post<mean>, axes = array<i64: 2>, keepdims = true} : (tensor<1x8x3072xf32>) -> tensor<1x8x1xf32>
  return %y : tensor<1x8x1xf32>
}

// -----

// A reduction along columns (the mean over 64 channels of 56x56 pixels): a
// tile is all 64 rows of a run of pixels, its result one row, so GM bytes
// are the input and one row of results: 802,816 + 3136 x 4.
// CHECK-LABEL: func.func @channels
// CHECK: qk.reduce {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 64, 3136], tile = [1, 1, 64, 392], buffers = 2, cycles = 16100, gm_bytes = 815360>]
// TINY-LABEL: func.func @channels
// TINY: space = [1, 1, 64, 3136], tile = [1, 1, 64, 64], buffers = {{[0-9]+}}{{[^>]*}}>]
func.func @channels(%x: tensor<1x64x56x56xf32>) -> tensor<1x1x56x56xf32> {
  %y = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<none>, post = #qk.reduce_post<mean>, axes = array<i64: 1>, keepdims = true} : (tensor<1x64x56x56xf32>) -> tensor<1x1x56x56xf32>
  return %y : tensor<1x1x56x56xf32>
}

// -----

// Rows of 65,536 exceed VECTOR's 65,535 columns: two passes (select-lowering-
// cases), in tiles of a run of columns, one partial per run and row, one
// buffer. npu-v1 takes runs of 32,768; npu-v1-tiny's LM runs of 7288.
// CHECK-LABEL: func.func @long_rows
// CHECK: qk.reduce {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 2, 65536], tile = [1, 1, 2, 32768], buffers = 1, cycles = 17218, gm_bytes = 524304>]
// TINY-LABEL: func.func @long_rows
// TINY: space = [1, 1, 2, 65536], tile = [1, 1, 2, 7288], buffers = {{[0-9]+}}{{[^>]*}}>]
func.func @long_rows(%x: tensor<2x65536xf32>) -> tensor<2xf32> {
  %y = qk.reduce %x {fn = #qk.reduce_fn<MAX>, pre = #qk.reduce_pre<none>, post = #qk.reduce_post<none>, axes = array<i64: 1>, keepdims = false} : (tensor<2x65536xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// Pad: the DMA pads each plane's rows on their way into LM, so a tile is
// whole padded rows; it holds several planes only with all their rows, and
// its unrolled code takes one buffer. Nine of the 16 planes of 114 x 114 f32
// on npu-v1, one plane on npu-v1-tiny.
// CHECK-LABEL: func.func @pad
// CHECK: qk.pad {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 16, 112, 114], tile = [1, 9, 112, 114], buffers = 1, cycles = 26336, gm_bytes = 1634304>]
// TINY-LABEL: func.func @pad
// TINY: space = [1, 16, 112, 114], tile = [1, 1, 112, 114], buffers = {{[0-9]+}}{{[^>]*}}>]
func.func @pad(%x: tensor<1x16x112x112xf32>) -> tensor<1x16x114x114xf32> {
  %y = graph.pad %x {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>, mode = "constant", value = 0.0 : f64} : (tensor<1x16x112x112xf32>) -> tensor<1x16x114x114xf32>
  return %y : tensor<1x16x114x114xf32>
}

// -----

// A spread ConvTranspose plans two nests and an im2col product, from its
// attributes alone. The zeroed input is [N * Cin * Hz, Wz] = [20, 10]: Hz =
// (4 - 1) * 2 + 1 + top + bottom with top = 1 * (3 - 1) - 1 = 1 and bottom =
// 2 - 1 + 1 (output_padding) = 2, so 10, and Wz alike. The copy of the input
// into it walks [2 channels, 4 rows, 4 columns], the input contiguously
// (16 = 4 x 4 elements a channel) and the spread rows 2 apart, so no
// dimension merges. The product is 64 output pixels by 3 channels by 2 x 9
// taps, one tile of it.
// CHECK-LABEL: func.func @spread
// CHECK: qk.conv_transpose {{.*}}npuc.loop_tiling = [#qk.tiling<space = [1, 1, 20, 10], tile = [1, 1, 20, 10], {{[^>]*}}>, #qk.tiling<space = [1, 2, 4, 4], {{[^>]*}}>], npuc.tiling = #qk.tiling<tile = [64, 3, 18], {{[^>]*}}>
func.func @spread(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x8x8xf32> {
  %w = graph.constant dense<0.5> : tensor<2x3x3x3xf32>
  %y = qk.conv_transpose %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x8x8xf32>
  return %y : tensor<1x3x8x8xf32>
}
