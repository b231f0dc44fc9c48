// convert-qk-to-emit lowers a matrix product to loops over its result
// tiles, as `npuc.tiling` (select-tiling) says, and never chooses a tile of
// its own: full and remainder tiles get a loop each; buffers = 2 asks for
// rotating slots and pipelining (the emit passes do both).
// RUN: npuc-opt %s -split-input-file -convert-elementwise-to-qk --convert-qk-to-emit -verify-diagnostics | FileCheck %s

// 5 rows in tiles of 2: a loop over 2 full row tiles, then one of the last row.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.for %[[T:.*]] basis [1, 2, 1] range [0, 2) attributes {buffers = 2 : i64, pipeline} {
// CHECK-NEXT:   %[[ACC:.*]] = emit.alloc : <acc, 2x16xf32, strides = [64, 4]>
// CHECK-NEXT:   %[[AT:.*]] = emit.alloc : <lm, 2x8xf32, strides = [64, 4]>
// CHECK-NEXT:   %[[BT:.*]] = emit.alloc : <lm, 8x16xf32, strides = [64, 4]>
// CHECK-NEXT:   %[[AV:.*]] = emit.iter_view %{{.*}}[%[[T]]] offset 0 coeffs [0, 64, 0] : <input, 5x8xf32, strides = [32, 4]> -> <input, 2x8xf32, strides = [32, 4]>
// CHECK-NEXT:   emit.dma %[[AV]] -> %[[AT]]
// CHECK-NEXT:   emit.dma %{{.*}} -> %[[BT]]
// CHECK-NEXT:   emit.matmul %[[AT]], %[[BT]] -> %[[ACC]]
// CHECK-NEXT:   %[[CV:.*]] = emit.iter_view %{{.*}}[%[[T]]] offset 0 coeffs [0, 128, 0] : <output, 5x16xf32, strides = [64, 4]> -> <output, 2x16xf32, strides = [64, 4]>
// CHECK-NEXT:   emit.dma %[[ACC]] -> %[[CV]]
// CHECK-NEXT: }
// CHECK-NEXT: emit.for %{{.*}} basis [1, 1, 1] range [0, 1) attributes {buffers = 2 : i64, pipeline} {
// CHECK-NEXT:   emit.alloc : <acc, 1x16xf32, strides = [64, 4]>
// CHECK:        emit.view %{{.*}}[128] : <input, 5x8xf32, strides = [32, 4]> -> <input, 1x8xf32, strides = [32, 4]>
// CHECK:        emit.view %{{.*}}[256] : <output, 5x16xf32, strides = [64, 4]> -> <output, 1x16xf32, strides = [64, 4]>
func.func @main(%a: tensor<5x8xf32> {graph.name = "a"}, %b: tensor<8x16xf32> {graph.name = "b"}) -> (tensor<5x16xf32> {graph.name = "y"}) {
  %y = qk.matmul %a, %b {acc_type = f32, npuc.tiling = #qk.tiling<tile = [2, 16, 8], buffers = 2>} : (tensor<5x8xf32>, tensor<8x16xf32>) -> tensor<5x16xf32>
  return %y : tensor<5x16xf32>
}

// -----

func.func @main(%a: tensor<5x8xf32> {graph.name = "a"}, %b: tensor<8x16xf32> {graph.name = "b"}) -> (tensor<5x16xf32> {graph.name = "y"}) {
  // expected-error @+1 {{npuc.tiling [5000, 16, 8] x 1 cannot run here: tile 5000x16x8 is outside the MATRIX extent fields [1, 4095]}}
  %y = qk.matmul %a, %b {acc_type = f32, npuc.tiling = #qk.tiling<tile = [5000, 16, 8], buffers = 1>} : (tensor<5x8xf32>, tensor<8x16xf32>) -> tensor<5x16xf32>
  return %y : tensor<5x16xf32>
}

// -----

func.func @main(%a: tensor<4096x8xf32> {graph.name = "a"}, %b: tensor<8x64xf32> {graph.name = "b"}) -> (tensor<4096x64xf32> {graph.name = "y"}) {
  // expected-error @+1 {{npuc.tiling [4095, 64, 8] x 2 cannot run here: its accumulators take 2096640 bytes of ACC; npu-v1 has 262144}}
  %y = qk.matmul %a, %b {acc_type = f32, npuc.tiling = #qk.tiling<tile = [4095, 64, 8], buffers = 2>} : (tensor<4096x8xf32>, tensor<8x64xf32>) -> tensor<4096x64xf32>
  return %y : tensor<4096x64xf32>
}

// -----

func.func @main(%a: tensor<5x8xf32> {graph.name = "a"}, %b: tensor<8x16xf32> {graph.name = "b"}) -> (tensor<5x16xf32> {graph.name = "y"}) {
  // expected-error @+1 {{'qk.matmul' op internal error: no tiling (npuc.tiling); select-tiling chooses it before this lowering}}
  %y = qk.matmul %a, %b {acc_type = f32} : (tensor<5x8xf32>, tensor<8x16xf32>) -> tensor<5x16xf32>
  return %y : tensor<5x16xf32>
}

// -----

// An elementwise nest is tiled as its `npuc.loop_tiling` entry says: 100
// columns of the 320-element run, one buffer: three full tiles in a loop
// without rotating slots, then the 20-column remainder.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.for %{{.*}} basis [1, 1, 1, 3] range [0, 3) {
// CHECK-NEXT:   emit.alloc : <lm, 1x100xf32, strides = [416, 4]>
// CHECK:        emit.vun RELU
// CHECK:      }
// CHECK-NEXT: emit.for %{{.*}} basis [1, 1, 1, 1] range [0, 1) {
// CHECK-NEXT:   emit.alloc : <lm, 1x20xf32, strides = [96, 4]>
func.func @main(%a: tensor<4x80xf32> {graph.name = "a"}) -> (tensor<4x80xf32> {graph.name = "y"}) {
  %y = qk.map %a {fn = #qk.unary_fn<RELU>, npuc.loop_tiling = [#qk.tiling<space = [1, 1, 1, 320], tile = [1, 1, 1, 100], buffers = 1>]} : (tensor<4x80xf32>) -> tensor<4x80xf32>
  return %y : tensor<4x80xf32>
}

// -----

// A tiling chosen for another iteration space is refused, not followed.
func.func @main(%a: tensor<4x80xf32> {graph.name = "a"}) -> (tensor<4x80xf32> {graph.name = "y"}) {
  // expected-error @+1 {{internal error: npuc.loop_tiling entry 0 was chosen for the iteration space [1, 1, 4, 80]; the lowering walks [1, 1, 1, 320]}}
  %y = qk.map %a {fn = #qk.unary_fn<RELU>, npuc.loop_tiling = [#qk.tiling<space = [1, 1, 4, 80], tile = [1, 1, 1, 80], buffers = 1>]} : (tensor<4x80xf32>) -> tensor<4x80xf32>
  return %y : tensor<4x80xf32>
}

// -----

// So is a tile VECTOR cannot take, or one larger than the space.
func.func @main(%a: tensor<4x80xf32> {graph.name = "a"}) -> (tensor<4x80xf32> {graph.name = "y"}) {
  // expected-error @+1 {{npuc.loop_tiling entry 0 [1, 1, 1, 640] x 1 cannot run here: its tile's dimension 3 (640) is outside [1, 320]}}
  %y = qk.map %a {fn = #qk.unary_fn<RELU>, npuc.loop_tiling = [#qk.tiling<space = [1, 1, 1, 320], tile = [1, 1, 1, 640], buffers = 1>]} : (tensor<4x80xf32>) -> tensor<4x80xf32>
  return %y : tensor<4x80xf32>
}

// -----

// A nest without a tiling is an internal error: select-tiling runs first.
func.func @main(%a: tensor<4x80xf32> {graph.name = "a"}) -> (tensor<4x80xf32> {graph.name = "y"}) {
  // expected-error @+1 {{internal error: no tiling for its elementwise loop nest 0 (npuc.loop_tiling); select-tiling chooses it before this lowering}}
  %y = graph.relu %a : (tensor<4x80xf32>) -> tensor<4x80xf32>
  return %y : tensor<4x80xf32>
}

// -----

// Softmax runs over tiles of whole rows as its entry says: 10 rows of 16 in
// tiles of 4 rows, two slots: a loop of two, then the last two rows.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.for %{{.*}} basis [2] range [0, 2) attributes {buffers = 2 : i64, pipeline} {
// CHECK-NEXT:   emit.alloc : <lm, 4x16xf32, strides = [64, 4]>
// CHECK:        emit.reduce MAX cols
// CHECK:      }
// CHECK-NEXT: emit.for %{{.*}} basis [1] range [0, 1) {
// CHECK-NEXT:   emit.alloc : <lm, 2x16xf32, strides = [64, 4]>
func.func @main(%a: tensor<10x16xf32> {graph.name = "a"}) -> (tensor<10x16xf32> {graph.name = "y"}) {
  %y = qk.softmax %a {axis = 1 : i64, log = false, npuc.loop_tiling = [#qk.tiling<space = [1, 1, 10, 16], tile = [1, 1, 4, 16], buffers = 2>]} : (tensor<10x16xf32>) -> tensor<10x16xf32>
  return %y : tensor<10x16xf32>
}

// -----

// A tile that cuts a softmax row is refused.
func.func @main(%a: tensor<10x16xf32> {graph.name = "a"}) -> (tensor<10x16xf32> {graph.name = "y"}) {
  // expected-error @+1 {{npuc.loop_tiling entry 0 [1, 1, 4, 8] x 1 cannot run here: its tile cuts rows of 16 to 8; the body needs them whole}}
  %y = qk.softmax %a {axis = 1 : i64, log = false, npuc.loop_tiling = [#qk.tiling<space = [1, 1, 10, 16], tile = [1, 1, 4, 8], buffers = 1>]} : (tensor<10x16xf32>) -> tensor<10x16xf32>
  return %y : tensor<10x16xf32>
}

// -----

// A convolution that gathers its im2col tiles from GM (weights that are not
// constants) is tiled as its `npuc.tiling` says (chooseIm2colTiling): result
// tiles of 12 pixels (two whole output rows of 6) by 16 channels, one chunk
// of 8 taps, two slots: three iterations.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.for %{{.*}} basis [1, 1, 3, 1, 1] range [0, 3) attributes {buffers = 2 : i64, pipeline} {
// CHECK-NEXT:   emit.alloc : <acc, 12x16xf32, strides = [64, 4]>
// CHECK:        emit.matmul %{{.*}}, %{{.*}} -> %{{.*}} : <lm, 12x8xf32, strides = [32, 4]>, <lm, 8x16xf32, strides = [64, 4]> -> <acc, 12x16xf32, strides = [64, 4]>
func.func @main(%x: tensor<1x8x12x12xf32> {graph.name = "x"}, %w: tensor<16x8x1x1xf32> {graph.name = "w"}) -> (tensor<1x16x6x6xf32> {graph.name = "y"}) {
  %y = qk.conv2d %x, %w {acc_type = f32, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, npuc.tiling = #qk.tiling<tile = [12, 16, 8], buffers = 2>} : (tensor<1x8x12x12xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x6x6xf32>
  return %y : tensor<1x16x6x6xf32>
}

// -----

// A result tile that is neither whole output rows nor a run of one is refused.
func.func @main(%x: tensor<1x8x12x12xf32> {graph.name = "x"}, %w: tensor<16x8x1x1xf32> {graph.name = "w"}) -> (tensor<1x16x6x6xf32> {graph.name = "y"}) {
  // expected-error @+1 {{npuc.tiling [8, 16, 8] is not whole windows (1 taps) and whole or part rows (6 columns)}}
  %y = qk.conv2d %x, %w {acc_type = f32, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, npuc.tiling = #qk.tiling<tile = [8, 16, 8], buffers = 1>} : (tensor<1x8x12x12xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x6x6xf32>
  return %y : tensor<1x16x6x6xf32>
}
