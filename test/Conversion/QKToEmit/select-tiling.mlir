// select-tiling: the cost model (MatmulTiling.h) picks each matrix product's
// tiles and buffer count and writes them as `npuc.tiling`, with its estimate.
// RUN: npuc-opt %s -split-input-file -convert-elementwise-to-qk -select-tiling | FileCheck %s
// RUN: npuc-opt %s -split-input-file -set-target=target=npu-v1-tiny -convert-elementwise-to-qk -select-tiling | FileCheck %s --check-prefix=TINY

// One 64x64x64 int8 tile is the whole product: nothing to overlap, so one
// buffer. Its estimate, by hand from docs/target.md "Timing" on npu-v1: DMA
// start 200, A and B 4096 contiguous bytes each (64 + 64 bus cycles), the
// matmul 2 * 64 + 1 pass * 64 rows = 192, the output stage 64 * 64 / 64 = 64,
// DMA start 200 and the 4096-byte result 64: 848 cycles; GM bytes 3 * 4096.
// CHECK-LABEL: func.func @one_tile
// CHECK: qk.matmul {{.*}}npuc.tiling = #qk.tiling<tile = [64, 64, 64], buffers = 1, cycles = 848, gm_bytes = 12288>
// On npu-v1-tiny (A = 32, 16 bytes per cycle) two chunks of 32 along K win:
// the second chunk's loads (256) hide behind the first product in the ring.
// One chunk: 200 + 256 + 256 + (64 + 2 * 2 * 64) + 4096 / 32 + 200 + 256 = 1616;
// two: 200 + 256 + max(256, 2 * (64 + 2 * 64)) + 128 + 200 + 256 = 1424.
// TINY-LABEL: func.func @one_tile
// TINY: npuc.tiling = #qk.tiling<tile = [64, 64, 32], buffers = 1, cycles = 1424, gm_bytes = 12288>
func.func @one_tile(%x: tensor<64x64xi8>) -> tensor<64x64xi8> {
  %w = graph.constant dense<1> : tensor<64x64xi8>
  %y = qk.matmul %x, %w {acc_type = i32, lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, requant = #qk.requant<multiplier = [1073741824], lshift = [0], rshift = [2], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<64x64xi8>, tensor<64x64xi8>) -> tensor<64x64xi8>
  return %y : tensor<64x64xi8>
}

// -----

// The 512x2048x512 int8 product of benchmarks/matmul.py: 128x256 result tiles
// with two rotating buffers, K in chunks of 512 taking turns in a ring (the
// next chunk's loads overlap this chunk's product). npu-sim measures 139,754
// cycles for it, 1.07x the array's geometry bound (131,072). On npu-v1-tiny
// (128 KiB of LM, 16 GM bytes per cycle) the product is bound by GM traffic:
// one buffer of 64x128 tiles.
// CHECK-LABEL: func.func @large
// CHECK: npuc.tiling = #qk.tiling<tile = [128, 256, 512], buffers = 2, cycles = 139664, gm_bytes = 6553600>
// TINY-LABEL: func.func @large
// TINY: npuc.tiling = #qk.tiling<tile = [64, 128, 320], buffers = 1, cycles = 823808, gm_bytes = 12845056>
func.func @large(%x: tensor<512x2048xi8>) -> tensor<512x512xi8> {
  %w = graph.constant dense<1> : tensor<2048x512xi8>
  %y = qk.matmul %x, %w {acc_type = i32, lhs_zp = 0 : i64, rhs_zp = array<i64: 0>, requant = #qk.requant<multiplier = [1073741824], lshift = [0], rshift = [2], zp = 0, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>} : (tensor<512x2048xi8>, tensor<2048x512xi8>) -> tensor<512x512xi8>
  return %y : tensor<512x512xi8>
}

// -----

// f32 on an A = 16 array (npu-v1): the 100x20 result in one tile, K = 33 in
// chunks of the array side.
// CHECK-LABEL: func.func @f32
// CHECK: qk.matmul {{.*}}npuc.tiling = #qk.tiling<tile = [100, 20, 16], buffers = 1{{.*}}>
func.func @f32(%a: tensor<100x33xf32>, %b: tensor<33x20xf32>) -> tensor<100x20xf32> {
  %y = graph.matmul %a, %b : (tensor<100x33xf32>, tensor<33x20xf32>) -> tensor<100x20xf32>
  return %y : tensor<100x20xf32>
}

// -----

// Ops that are not matrix products get no tiling.
// CHECK-LABEL: func.func @none
// CHECK-NOT: npuc.tiling
func.func @none(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = graph.relu %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A pointwise convolution (1x1, stride 1, unpadded, one group) is a matrix
// product with the weights on the left: M = 16 output channels, K = 8 input
// channels, N = 12 * 12 pixels, in one tile. By hand (f32, a 16-wide array):
// A 512 bytes (8 bus cycles) and B 8 rows of 576 (72) in, the product 2 * 16
// + ceil(8 / 16) * ceil(144 / 16) * 16 = 176, 9,216 bytes out (144):
// 200 + 80 + 176 + 200 + 144 = 800 cycles. Three rotating 48-pixel tiles
// would start six loads and three stores, each paying its 200-cycle start
// with little data to hide it behind. A strided one gathers its im2col tiles
// from GM: the product of 36 pixels by 8 taps by 16 channels, chosen as
// products are with its tiles kept to whole output rows and whole windows
// (chooseIm2colTiling): one tile. One of a single input and output channel
// is the depthwise kind: a
// tile of [1 channel, 12 rows] on VECTOR (DepthwiseTiling.h), estimated by
// hand on npu-v1 (64 GM bytes per cycle, bursts of 64, DMA start 200):
// image 576 bytes (9 cycles) and taps 4 bytes (one burst, 1 cycle) in, 144
// f32 MACs (4 + ceil(144 * 4 / 256) = 7), 576 bytes out (9):
// 200 + 10 + 7 + 200 + 9 = 426 cycles and 576 + 4 + 576 = 1156 GM bytes.
// CHECK-LABEL: func.func @pointwise
// CHECK: qk.conv2d {{.*}}npuc.tiling = #qk.tiling<tile = [16, 144, 8], buffers = 1, cycles = 800, gm_bytes = 14336>
// CHECK: qk.conv2d {{.*}}npuc.tiling = #qk.tiling<tile = [36, 16, 8], buffers = 1, cycles = 530, gm_bytes = 3968>
// CHECK-SAME: -> tensor<1x16x6x6xf32>
// CHECK: qk.conv2d {{.*}}npuc.tiling = #qk.tiling<tile = [1, 12], buffers = 1, cycles = 426, gm_bytes = 1156>
// CHECK-SAME: -> tensor<1x1x12x12xf32>
func.func @pointwise(%x: tensor<1x8x12x12xf32>, %w: tensor<16x8x1x1xf32>, %y: tensor<1x1x12x12xf32>, %v: tensor<1x1x1x1xf32>) -> (tensor<1x16x12x12xf32>, tensor<1x16x6x6xf32>, tensor<1x1x12x12xf32>) {
  %a = qk.conv2d %x, %w {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x12x12xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x12x12xf32>
  %b = qk.conv2d %x, %w {acc_type = f32, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x12x12xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x6x6xf32>
  %c = qk.conv2d %y, %v {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x1x12x12xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x12x12xf32>
  return %a, %b, %c : tensor<1x16x12x12xf32>, tensor<1x16x6x6xf32>, tensor<1x1x12x12xf32>
}

// -----

// A depthwise convolution of MobileNetV2 (32 channels, 112x112, 3x3, pads 1):
// VECTOR-bound (32 * 112 * 112 * 9 MACs / 256 = 14,112 cycles against
// 12,544 of GM). A slot is loaded again only after the product of the tile
// it held: with two slots, two tiles take at least one load's start, its
// transfer and one product. Resident parameters with tiles of 1 channel by
// 32 rows (the choice before that rule): row tile 0, 33 image rows (58 bus
// cycles), 130 VECTOR cycles, so ceil((200 + 58 + 130) / 2) = 194 per tile,
// not 130: 32 * 194 + 700 = 6,908; tiles 1-2 (60 bus): 64 * 195 + 702 =
// 13,182; tile 3 (30 bus, 67 VECTOR): 32 * 149 + 553 = 5,321; parameters
// 207: 25,618 cycles. Tiles of 4 channels by 24 rows load more per tile and
// run 4 times the MACs per product, so the turn is no longer than it:
// the model's 18,158 cycles, and the choice.
// CHECK-LABEL: func.func @depthwise
// CHECK: qk.conv2d {{.*}}npuc.tiling = #qk.tiling<tile = [4, 24], buffers = 2, cycles = 18158, gm_bytes = 833568>
func.func @depthwise(%x: tensor<1x32x112x112xui8>, %w: tensor<32x1x3x3xui8>, %b: tensor<32xi32>) -> tensor<1x32x112x112xui8> {
  %y = qk.conv2d %x, %w, %b {acc_type = i32, dilations = array<i64: 1, 1>, groups = 32 : i64, input_zp = 3 : i64, pads = array<i64: 1, 1, 1, 1>, requant = #qk.requant<multiplier = [1073741824], lshift = [0], rshift = [1], zp = 0, clamp = [0, 255], axis = -1, rounding = half_away_from_zero>, strides = array<i64: 1, 1>, weight_zp = array<i64: 7>} : (tensor<1x32x112x112xui8>, tensor<32x1x3x3xui8>, tensor<32xi32>) -> tensor<1x32x112x112xui8>
  return %y : tensor<1x32x112x112xui8>
}


// -----

// Pooling runs on V_DW too (func MAX, no taps). A 3x3 max pool, stride 2,
// pads 1, of 2 channels of 5x5 f32 in one tile [2 channels, 3 rows], by hand:
// the image is 200 contiguous bytes (4 cycles at 64 per cycle), 18 outputs of
// 9 taps at 4 bytes are 4 + ceil(648 / 256) = 7 VECTOR cycles, the 72 result
// bytes 2 cycles: 200 + 4 + 7 + 200 + 2 = 413 cycles, 272 GM bytes.
// CHECK-LABEL: func.func @pool
// CHECK: qk.pool {{.*}}npuc.tiling = #qk.tiling<tile = [2, 3], buffers = 1, cycles = 413, gm_bytes = 272>
func.func @pool(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %y = qk.pool %x {fn = #qk.pool_fn<max>, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, ceil_mode = false, count_include_pad = false} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

// A dense 3x3 convolution (ConvTiling.h): 2 f32 input channels of 4x4, pads
// 1, 3 constant output channels. Each kernel row's run of 3 x 2 elements is
// padded to 8 (32 bytes), so K = 24. One tile of all 4 rows by 3 channels,
// by hand on npu-v1: the image is 4 real rows of both channels, 128
// contiguous bytes (2 cycles); the weights 24 rows of 12 bytes, contiguous,
// 288 bytes (5 cycles); the gaps zeroed (4 + ceil(16 * 24 * 4 / 256) = 10)
// and 4 rows x 3 kernel rows of gathers of 4 x 6 elements (each 4 +
// ceil(96 / 256) = 5: 60); MATRIX 2 * 16 + ceil(24 / 16) * 16 = 64; the
// result 192 contiguous bytes (3 cycles):
// 200 + 7 + 70 + 64 + 200 + 3 = 544 cycles and 128 + 288 + 192 = 608 bytes.
// CHECK-LABEL: func.func @window_conv
// CHECK: qk.conv2d {{.*}}npuc.tiling = #qk.tiling<tile = [4, 3, 2], buffers = 1, cycles = 544, gm_bytes = 608>
func.func @window_conv(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %w = graph.constant dense<1.0> : tensor<3x2x3x3xf32>
  %y = qk.conv2d %x, %w {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

// MobileNetV2's first convolution (3 channels, 3x3, stride 2): a kernel
// row's run is 3 x 3 = 9 bytes, 32 once padded, so the window's K is 96, two
// blocks of the 64-row array; stacked, the whole window is one run of 27,
// padded to 32: one block, half the products. The model takes it. Of the
// tilings within 5% of the fewest cycles (kGmSlackPercent), the one that
// moves the fewest GM bytes wins: nine output rows per tile (fewer tiles).
// The row tiles run innermost, so the 1,024 bytes of weights (K 32 x 32
// channels) go into the same two slots again: of the 12 tiles of 9 rows (the
// last 4 rows, with bottom padding, are a loop of their own) only the first
// two load them (emit-elide-reloads).
// CHECK-LABEL: func.func @first_conv
// CHECK: qk.conv2d {{.*}}npuc.tiling = #qk.tiling<tile = [9, 32, 3], buffers = 2, cycles = 19011, gm_bytes = 631264, stacked>
func.func @first_conv(%x: tensor<1x3x224x224xi8>, %b: tensor<32xi32>) -> tensor<1x32x112x112xi8> {
  %w = graph.constant dense<1> : tensor<32x3x3x3xi8>
  %y = qk.conv2d %x, %w, %b {acc_type = i32, dilations = array<i64: 1, 1>, groups = 1 : i64, input_zp = -1 : i64, pads = array<i64: 0, 0, 1, 1>, requant = #qk.requant<multiplier = [1073741824], lshift = [0], rshift = [1], zp = -128, clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>, strides = array<i64: 2, 2>, weight_zp = array<i64: 0>} : (tensor<1x3x224x224xi8>, tensor<32x3x3x3xi8>, tensor<32xi32>) -> tensor<1x32x112x112xi8>
  return %y : tensor<1x32x112x112xi8>
}

// -----

// light_resnet50's 3x3 f32 convolution, 128 -> 128 channels on 28x28: its
// weights, 1152 rows of 128 f32 (589,824 bytes), fit npu-v1's LM beside the
// tiles, so they are resident: loaded once, where tiled they are read again
// by every row tile. The layer is bound by its products (the f32 array
// side is 16: 72 x 8 blocks of K x N per row of 28 pixels, 28 rows:
// 451,584 cycles of MATRIX). Within 5% of the fewest cycles, the GM rule
// takes the tiling that moves least: every channel of 14 output rows per
// tile, input channels in chunks of 16, so the image is read about once:
// 1,421,312 bytes against the minimum of 589,824 + 2 x 401,408 = 1,392,640.
// On npu-v1-tiny (128 KiB of LM) the weights cannot stay: chunks of 8
// channels, loaded per tile.
// CHECK-LABEL: func.func @resident_conv
// CHECK: qk.conv2d {{.*}}npuc.tiling = #qk.tiling<tile = [14, 128, 16], buffers = 1, cycles = 492104, gm_bytes = 1421312, resident>
// TINY-LABEL: func.func @resident_conv
// TINY: qk.conv2d {{.*}}npuc.tiling = #qk.tiling<tile = [7, 32, 8], buffers = 1, cycles = 2358528, gm_bytes = 4710400>
func.func @resident_conv(%x: tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32> {
  %w = graph.constant dense<1.0> : tensor<128x128x3x3xf32>
  %y = qk.conv2d %x, %w {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x128x28x28xf32>, tensor<128x128x3x3xf32>) -> tensor<1x128x28x28xf32>
  return %y : tensor<1x128x28x28xf32>
}
