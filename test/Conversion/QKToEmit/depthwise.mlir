// convert-qk-to-emit lowers a depthwise convolution to loops over tiles
// of [channels, output rows] as `npuc.tiling` says (DepthwiseTiling.h): per
// tile one DMA brings the image rows the window reaches; one emit.depthwise
// (V_DW) computes every sum of the tile. The feeder pads (emit.depthwise's
// `pads`, v_dw_cfg pt, pl, ih, iw): the image is the input's real rows
// alone, one run per channel. A window it cannot pad (pooling, several
// blocks) has its image padded on the way into LM. Row tiles of one shape
// share a loop.
// RUN: npuc-opt %s -split-input-file --convert-qk-to-emit -verify-diagnostics | FileCheck %s

// 2 channels of 5x5, a 3x3 window, pads 1, in tiles of 1 channel by 2 output
// rows: tile 0 (rows 0-1) reaches padded rows 0-3, one of them padding at
// the top: real rows 0-2, pads [1, 1]; tile 1 (rows 2-3) padded rows 2-5,
// real rows 1-4, pads [0, 1]; tile 2 (row 4) padded rows 4-6, real rows 3-4
// (the row below them is the feeder's padding). Three loops over the 2
// channel chunks; the image is [1, 3, 4 or 2 rows, 5 columns], at most 4
// rows of 20 bytes a channel, rounded up to 96 (64 for the last tile's 3).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.for %[[T:.*]] basis [1, 2, 1] range [0, 2) attributes {buffers = 2 : i64, pipeline} {
// CHECK-NEXT:   %[[IMG:.*]] = emit.alloc : <lm, 1x3x5xf32, strides = [96, 20, 4]>
// CHECK-NEXT:   %[[X:.*]] = emit.iter_view %{{.*}}[%[[T]]] offset 0 coeffs [0, 100, 0] : <input, 1x2x5x5xf32, strides = [200, 100, 20, 4]> -> <input, 1x3x5xf32, strides = [100, 20, 4]>
// CHECK-NEXT:   emit.dma %[[X]] -> %[[IMG]] : <input, 1x3x5xf32, strides = [100, 20, 4]> -> <lm, 1x3x5xf32, strides = [96, 20, 4]>
// CHECK-NEXT:   %[[ACC:.*]] = emit.alloc : <acc, 1x10xf32, strides = [64, 4]>
// CHECK-NEXT:   %[[SUMS:.*]] = emit.view %[[ACC]][0] : <acc, 1x10xf32, strides = [64, 4]> -> <acc, 1x2x5xf32, strides = [64, 20, 4]>
// CHECK-NEXT:   %[[TAPS:.*]] = emit.alloc : <lm, 1x9xf32, strides = [36, 4]>
// CHECK:        emit.iter_view %{{.*}} offset 0 coeffs [0, 36, 0] : <input, 2x1x3x3xf32, strides = [36, 36, 12, 4]> -> <input, 1x3x3xf32, strides = [36, 12, 4]>
// CHECK-NEXT:   emit.dma
// CHECK:        emit.depthwise MAC %[[IMG]], %[[TAPS]] -> %[[SUMS]] {dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1>, strides = array<i64: 1, 1>}
// CHECK-NEXT:   emit.iter_view %{{.*}} offset 0 coeffs [0, 100, 0] : <output, 1x2x5x5xf32, strides = [200, 100, 20, 4]> -> <output, 1x10xf32, strides = [100, 4]>
// CHECK-NEXT:   emit.dma %[[ACC]] -> %{{.*}}
// CHECK-NEXT: }
// CHECK:      emit.for %{{.*}} basis [1, 2, 1] range [0, 2)
// CHECK-NEXT:   emit.alloc : <lm, 1x4x5xf32, strides = [96, 20, 4]>
// CHECK-NEXT:   emit.iter_view %{{.*}} offset 20 coeffs [0, 100, 0] : <input, 1x2x5x5xf32, strides = [200, 100, 20, 4]> -> <input, 1x4x5xf32, strides = [100, 20, 4]>
// CHECK:        emit.depthwise MAC {{.*}} pads = array<i64: 0, 1>
// CHECK:      emit.for %{{.*}} basis [1, 2, 1] range [0, 2)
// CHECK-NEXT:   emit.alloc : <lm, 1x2x5xf32, strides = [64, 20, 4]>
// CHECK-NEXT:   emit.iter_view %{{.*}} offset 60 coeffs [0, 100, 0] : <input, 1x2x5x5xf32, strides = [200, 100, 20, 4]> -> <input, 1x2x5xf32, strides = [100, 20, 4]>
// CHECK:        emit.depthwise MAC {{.*}} pads = array<i64: 0, 1>
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<1x2x5x5xf32> {graph.name = "x"}, %w: tensor<2x1x3x3xf32> {graph.name = "w"}) -> (tensor<1x2x5x5xf32> {graph.name = "y"}) {
  %y = qk.conv2d %x, %w {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64, npuc.tiling = #qk.tiling<tile = [1, 2], buffers = 2>} : (tensor<1x2x5x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x5x5xf32>
  return %y : tensor<1x2x5x5xf32>
}

// -----

// A 1x20 window is wider than V_DW's fields (15): two blocks, columns 0-14
// and 15-19, the second from the image's 15th column on, accumulating.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.depthwise MAC %{{.*}}, %{{.*}} -> %[[S:.*]] {dilations = array<i64: 1, 1>, kernel = array<i64: 1, 15>, strides = array<i64: 1, 1>}
// CHECK:      %[[C:.*]] = emit.view %{{.*}}[60] : <lm, 1x1x24xf32, strides = [96, 96, 4]> -> <lm, 1x1x9xf32, strides = [96, 96, 4]>
// CHECK-NEXT: emit.depthwise MAC %[[C]], %{{.*}} -> %[[S]] {accumulate, dilations = array<i64: 1, 1>, kernel = array<i64: 1, 5>, strides = array<i64: 1, 1>}
func.func @main(%x: tensor<1x1x1x24xf32> {graph.name = "x"}, %w: tensor<1x1x1x20xf32> {graph.name = "w"}) -> (tensor<1x1x1x5xf32> {graph.name = "y"}) {
  %y = qk.conv2d %x, %w {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, npuc.tiling = #qk.tiling<tile = [1, 1], buffers = 1>} : (tensor<1x1x1x24xf32>, tensor<1x1x1x20xf32>) -> tensor<1x1x1x5xf32>
  return %y : tensor<1x1x1x5xf32>
}

// -----

func.func @main(%x: tensor<1x2x5x5xf32> {graph.name = "x"}, %w: tensor<2x1x3x3xf32> {graph.name = "w"}) -> (tensor<1x2x5x5xf32> {graph.name = "y"}) {
  // expected-error @+1 {{npuc.tiling [3, 2] x 1 cannot run here: tile 3 channels x 2 rows is outside [1, 2] x [1, 5]}}
  %y = qk.conv2d %x, %w {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64, npuc.tiling = #qk.tiling<tile = [3, 2], buffers = 1>} : (tensor<1x2x5x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x5x5xf32>
  return %y : tensor<1x2x5x5xf32>
}

// -----

// Max pooling on the same tiles: the image padded with -inf (0xff800000) on
// its way into LM, one emit.depthwise of func MAX without taps into LM, and
// the maxima stored as they are.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.for %{{.*}} basis [1, 1, 1] range [0, 1) {
// CHECK-NEXT:   %[[IMG:.*]] = emit.alloc : <lm, 2x7x7xf32, strides = [196, 28, 4]>
// CHECK:        emit.dma %{{.*}} -> %[[IMG]] {fill = 4286578688 : i64, pad_hi = array<i64: 0, 1, 1>, pad_lo = array<i64: 0, 1, 1>}
// CHECK-NEXT:   %[[R:.*]] = emit.alloc : <lm, 2x9xf32, strides = [64, 4]>
// CHECK-NEXT:   %[[S:.*]] = emit.view %[[R]][0] : <lm, 2x9xf32, strides = [64, 4]> -> <lm, 2x3x3xf32, strides = [64, 12, 4]>
// CHECK-NEXT:   emit.depthwise MAX %[[IMG]] -> %[[S]] {dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>}
// CHECK:        emit.dma %[[R]] -> %{{.*}} : <lm, 2x9xf32, strides = [64, 4]> -> <output, 2x9xf32, strides = [36, 4]>
func.func @main(%x: tensor<1x2x5x5xf32> {graph.name = "x"}) -> (tensor<1x2x3x3xf32> {graph.name = "y"}) {
  %y = qk.pool %x {fn = #qk.pool_fn<max>, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, ceil_mode = false, count_include_pad = false, npuc.tiling = #qk.tiling<tile = [2, 3], buffers = 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

// Resident parameters (npuc.tiling's `resident`): every chunk's taps and
// biases arrive in LM once, before the tile loops, each chunk on a 32-byte
// boundary; a tile reads its chunk's. 5 channels in chunks of 2: the two full
// chunks by one DMA, the last channel by another, at chunk pitch 96 (72 bytes
// of taps rounded up); the f32 biases one per 32-byte row, chunk pitch 64.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[TAPS:.*]] = emit.alloc : <lm, 3x2x9xf32, strides = [96, 36, 4]>
// CHECK-NEXT: emit.view %[[TAPS]][0] : {{.*}} -> <lm, 2x2x9xf32, strides = [96, 36, 4]>
// CHECK-NEXT: emit.view %{{.*}}[0] : <input, 5x1x3x3xf32, {{.*}}> -> <input, 2x2x9xf32, strides = [72, 36, 4]>
// CHECK-NEXT: emit.dma
// CHECK-NEXT: emit.view %[[TAPS]][192] : {{.*}} -> <lm, 1x9xf32, strides = [36, 4]>
// CHECK-NEXT: emit.view %{{.*}}[144] : <input, 5x1x3x3xf32, {{.*}}> -> <input, 1x9xf32, strides = [36, 4]>
// CHECK-NEXT: emit.dma
// CHECK-NEXT: %[[BIAS:.*]] = emit.alloc : <lm, 3x2x1xf32, strides = [64, 32, 4]>
// CHECK:      emit.dma
// CHECK:      emit.dma
// CHECK:      emit.for %[[I:.*]] basis [1, 2, 1] range [0, 2)
// CHECK-NOT:    emit.dma
// CHECK:        emit.dma
// CHECK-NOT:    emit.dma
// The f32 bias rides on the v_dw (its `bias` operand): no VECTOR add after.
// CHECK:        %[[B:.*]] = emit.iter_view %[[BIAS]][%[[I]]] offset 0 coeffs [0, 64, 0] : {{.*}} -> <lm, 2x1xf32, strides = [32, 4]>
// CHECK:        %[[T:.*]] = emit.iter_view %[[TAPS]][%[[I]]] offset 0 coeffs [0, 96, 0] : {{.*}} -> <lm, 2x9xf32, strides = [36, 4]>
// CHECK-NEXT:   emit.depthwise MAC %{{.*}}, %[[T]] bias %[[B]] ->
// CHECK-NOT:    emit.vbin
// CHECK:        emit.dma
// CHECK-NEXT: }
// CHECK:      emit.for %{{.*}} basis [1, 1, 1] range [0, 1)
// CHECK:        emit.view %[[BIAS]][128] : {{.*}} -> <lm, 1x1xf32, strides = [32, 4]>
// CHECK:        emit.view %[[TAPS]][192] : {{.*}} -> <lm, 1x9xf32, strides = [36, 4]>
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<1x5x5x5xf32> {graph.name = "x"}, %w: tensor<5x1x3x3xf32> {graph.name = "w"}, %b: tensor<5xf32> {graph.name = "b"}) -> (tensor<1x5x5x5xf32> {graph.name = "y"}) {
  %y = qk.conv2d %x, %w, %b {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 5 : i64, npuc.tiling = #qk.tiling<tile = [2, 5], buffers = 1, resident>} : (tensor<1x5x5x5xf32>, tensor<5x1x3x3xf32>, tensor<5xf32>) -> tensor<1x5x5x5xf32>
  return %y : tensor<1x5x5x5xf32>
}

// -----

func.func @main(%x: tensor<1x2x5x5xf32> {graph.name = "x"}) -> (tensor<1x2x3x3xf32> {graph.name = "y"}) {
  // expected-error @+1 {{npuc.tiling [2, 3] x 1 cannot run here: resident parameters need a multiply-accumulate whose window is one v_dw block}}
  %y = qk.pool %x {fn = #qk.pool_fn<max>, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, ceil_mode = false, count_include_pad = false, npuc.tiling = #qk.tiling<tile = [2, 3], buffers = 1, resident>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

// A tiling that says `matrix` runs the sums on the array's depthwise mode
// (MM_DW), whose feeder pads: the image arrives unpadded, each channel's
// 5 rows of 5 one run from the input (channel pitch 100 B rounded up to 128),
// and the emit.depthwise names the padding above and left of it.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:        %[[IMG:.*]] = emit.alloc : <lm, 5x5x5xf32, strides = [128, 20, 4]>
// CHECK-NEXT:   %[[X:.*]] = emit.view %{{.*}}[0] : <input, 1x5x5x5xf32, strides = [500, 100, 20, 4]> -> <input, 5x5x5xf32, strides = [100, 20, 4]>
// CHECK-NEXT:   emit.dma %[[X]] -> %[[IMG]] : <input, 5x5x5xf32, strides = [100, 20, 4]> -> <lm, 5x5x5xf32, strides = [128, 20, 4]>
// CHECK:        emit.depthwise MAC %[[IMG]], %{{.*}} bias %{{.*}} -> %{{.*}} {dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, matrix, pads = array<i64: 1, 1>, strides = array<i64: 1, 1>}
func.func @main(%x: tensor<1x5x5x5xf32> {graph.name = "x"}, %w: tensor<5x1x3x3xf32> {graph.name = "w"}, %b: tensor<5xf32> {graph.name = "b"}) -> (tensor<1x5x5x5xf32> {graph.name = "y"}) {
  %y = qk.conv2d %x, %w, %b {acc_type = f32, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 5 : i64, npuc.tiling = #qk.tiling<tile = [5, 5], buffers = 1, matrix>} : (tensor<1x5x5x5xf32>, tensor<5x1x3x3xf32>, tensor<5xf32>) -> tensor<1x5x5x5xf32>
  return %y : tensor<1x5x5x5xf32>
}

// -----

func.func @main(%x: tensor<1x2x5x5xf32> {graph.name = "x"}) -> (tensor<1x2x3x3xf32> {graph.name = "y"}) {
  // expected-error @+1 {{npuc.tiling [2, 3] x 1 cannot run here: the array's depthwise mode multiplies and accumulates: pooling runs on VECTOR}}
  %y = qk.pool %x {fn = #qk.pool_fn<max>, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, ceil_mode = false, count_include_pad = false, npuc.tiling = #qk.tiling<tile = [2, 3], buffers = 1, matrix>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}
