// Expand, Tile, DepthToSpace, SpaceToDepth and Slice (qk.copy, their
// address plans written by convert-elementwise-to-qk; a Slice with a
// negative step one piece per reversed index), a Gather by constant indices
// and a reflect, edge or wrap Pad lower as copies through strided views of
// their input and result (lowerCopy): the input is read with stride 0 along every broadcast or repeated dimension, or with the
// strides of the block permutation. A view that still has more than the
// DMA's 4 dimensions once contiguous dimensions merge is split into nests by
// peeling outer dimensions, each nest a strided copy at its own offset (one
// `npuc.loop_tiling` entry and one emit.for each); a copy that would need
// more than 1024 nests is refused.
// RUN: npuc-opt %s -split-input-file -convert-elementwise-to-qk -select-tiling -verify-diagnostics | FileCheck %s --check-prefix=TILING
// RUN: npuc-opt %s -split-input-file -convert-elementwise-to-qk -select-tiling --convert-qk-to-emit -verify-diagnostics > %t
// RUN: FileCheck %s < %t
// RUN: FileCheck %s --check-prefix=NESTS < %t

// The number of nests of each copy above, exactly.
// NESTS-LABEL: {name = "y", offset = 0 : i64} : <output, 2x3x4xf32,
// NESTS-COUNT-1: emit.for
// NESTS-NOT: emit.for
// NESTS-LABEL: {name = "y", offset = 0 : i64} : <output, 2x2x3x2x2x3xf32,
// NESTS-COUNT-4: emit.for
// NESTS-NOT: emit.for
// NESTS-LABEL: {name = "y", offset = 0 : i64} : <output, 6x6xf32,
// NESTS-COUNT-1: emit.for
// NESTS-NOT: emit.for
// NESTS-LABEL: {name = "y", offset = 0 : i64} : <output, 2x3x4x10xi8,
// NESTS-COUNT-1: emit.for
// NESTS-NOT: emit.for
// NESTS-LABEL: {name = "y", offset = 0 : i64} : <output, 4x6x8x10xf32,
// NESTS-COUNT-24: emit.for
// NESTS-NOT: emit.for
// NESTS-LABEL: -> <input, 1x2x2x2x3x2xf32, strides = [192, 24, 12, 96, 4, 48]>
// NESTS-COUNT-1: emit.for
// NESTS-NOT: emit.for
// NESTS-LABEL: -> <input, 1x2x2x2x3x2xf32, strides = [192, 96, 12, 48, 4, 24]>
// NESTS-COUNT-2: emit.for
// NESTS-NOT: emit.for
// NESTS-LABEL: {name = "y", offset = 0 : i64} : <output, 1x8x2x3xf32,
// NESTS-COUNT-1: emit.for
// NESTS-NOT: emit.for
// NESTS-LABEL: {name = "y", offset = 0 : i64} : <output, 128x8x8x10xf32,
// NESTS-COUNT-1024: emit.for
// NESTS-NOT: emit.for
// NESTS-LABEL: {name = "y", offset = 0 : i64} : <output, 4x3xi8,
// NESTS-COUNT-3: emit.for
// NESTS-NOT: emit.for
// NESTS-LABEL: {name = "y", offset = 0 : i64} : <output, 2x3xf32,
// NESTS-COUNT-3: emit.for
// NESTS-NOT: emit.for
// NESTS-LABEL: {name = "y", offset = 0 : i64} : <output, 2x7xf32,
// NESTS-COUNT-4: emit.for
// NESTS-NOT: emit.for

// Expand [3, 1] -> [2, 3, 4]: stride 0 along the new leading axis and the
// broadcast last one; one nest.
// TILING-LABEL: func.func @main
// TILING: qk.copy %arg0 {{.*}} {npuc.loop_tiling = [#qk.tiling<space = [1, 2, 3, 4], tile = [1, 2, 3, 4], buffers = 1{{.*}}>]}
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[X:.*]] = emit.alloc {name = "x", offset = 0 : i64} : <input, 3x1xf32, strides = [4, 4]>
// CHECK:      %[[Y:.*]] = emit.alloc {name = "y", offset = 0 : i64} : <output, 2x3x4xf32, strides = [48, 16, 4]>
// CHECK-NEXT: %[[V:.*]] = emit.view %[[X]][0] : <input, 3x1xf32, strides = [4, 4]> -> <input, 2x3x4xf32, strides = [0, 4, 0]>
// CHECK-NEXT: emit.for
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <input, 1x2x3x4xf32, strides = [0, 0, 4, 0]> -> <lm, 1x2x3x4xf32,
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <lm, 1x2x3x4xf32, {{.*}}> -> <output, 1x2x3x4xf32, strides = [0, 48, 16, 4]>
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<3x1xf32> {graph.name = "x"}) -> (tensor<2x3x4xf32> {graph.name = "y"}) {
  %y = graph.expand %x : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// -----

// Expand of [2, 1, 3, 1, 2, 1] to [2, 2, 3, 2, 2, 3]: the six dimensions
// alternate between read and broadcast, so none merge. Peeling the first two
// leaves [3, 2, 2, 3]: 2 x 2 = 4 nests, the input at 0, 0, 24, 24 bytes (the
// second peeled dimension is a broadcast), the result at 144-byte steps.
// TILING-LABEL: func.func @main
// TILING: qk.copy %arg0 {{.*}} {npuc.loop_tiling = [{{(#qk.tiling<space = \[3, 2, 2, 3\], tile = \[3, 2, 2, 3\][^>]*>(, )?){4}\]}}}
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[IN:.*]] = emit.view %{{.*}}[0] : <input, 2x1x3x1x2x1xf32, strides = [24, 24, 8, 8, 4, 4]> -> <input, 2x2x3x2x2x3xf32, strides = [24, 0, 8, 0, 4, 0]>
// CHECK-NEXT: emit.view %[[IN]][0] : {{.*}} -> <input, 3x2x2x3xf32, strides = [8, 0, 4, 0]>
// CHECK-NEXT: %[[OUT:.*]] = emit.view %{{.*}}[0] : <output, 2x2x3x2x2x3xf32, strides = [288, 144, 48, 24, 12, 4]> -> <output, 3x2x2x3xf32, strides = [48, 24, 12, 4]>
// CHECK-NEXT: emit.for
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <input, 3x2x2x3xf32, strides = [8, 0, 4, 0]> -> <lm, 3x2x2x3xf32,
// CHECK:      emit.view %[[IN]][0] : {{.*}} -> <input, 3x2x2x3xf32, strides = [8, 0, 4, 0]>
// CHECK-NEXT: emit.view %{{.*}}[144] : {{.*}} -> <output, 3x2x2x3xf32, strides = [48, 24, 12, 4]>
// CHECK:      emit.view %[[IN]][24] : {{.*}} -> <input, 3x2x2x3xf32, strides = [8, 0, 4, 0]>
// CHECK-NEXT: emit.view %{{.*}}[288] : {{.*}} -> <output, 3x2x2x3xf32, strides = [48, 24, 12, 4]>
// CHECK:      emit.view %[[IN]][24] : {{.*}} -> <input, 3x2x2x3xf32, strides = [8, 0, 4, 0]>
// CHECK-NEXT: emit.view %{{.*}}[432] : {{.*}} -> <output, 3x2x2x3xf32, strides = [48, 24, 12, 4]>
// CHECK-NEXT: emit.for
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<2x1x3x1x2x1xf32> {graph.name = "x"}) -> (tensor<2x2x3x2x2x3xf32> {graph.name = "y"}) {
  %y = graph.expand %x : (tensor<2x1x3x1x2x1xf32>) -> tensor<2x2x3x2x2x3xf32>
  return %y : tensor<2x2x3x2x2x3xf32>
}

// -----

// Tile [2, 3] by [3, 2]: the result seen as [r0, d0, r1, d1] = [3, 2, 2, 3],
// the input read with stride 0 along each repeat; one nest.
// TILING-LABEL: func.func @main
// TILING: qk.copy %arg0 {{.*}} {npuc.loop_tiling = [#qk.tiling<space = [3, 2, 2, 3], tile = [3, 2, 2, 3], buffers = 1{{.*}}>]}
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.view %{{.*}}[0] : <output, 6x6xf32, strides = [24, 4]> -> <output, 3x2x2x3xf32, strides = [48, 24, 12, 4]>
// CHECK-NEXT: emit.view %{{.*}}[0] : <input, 2x3xf32, strides = [12, 4]> -> <input, 3x2x2x3xf32, strides = [0, 12, 0, 4]>
// CHECK-NEXT: emit.for
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <input, 3x2x2x3xf32, strides = [0, 12, 0, 4]> -> <lm, 3x2x2x3xf32,
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <lm, 3x2x2x3xf32, {{.*}}> -> <output, 3x2x2x3xf32, strides = [48, 24, 12, 4]>
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<2x3xf32> {graph.name = "x"}) -> (tensor<6x6xf32> {graph.name = "y"}) {
  %y = graph.tile %x {repeats = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<6x6xf32>
  return %y : tensor<6x6xf32>
}

// -----

// Tile of i8 [2, 3, 4, 5] by [1, 1, 1, 2]: the 8-D view's unit repeats drop
// and the leading [2, 3, 4] rows merge into 24: one 3-D nest.
// TILING-LABEL: func.func @main
// TILING: qk.copy %arg0 {{.*}} {npuc.loop_tiling = [#qk.tiling<space = [1, 24, 2, 5], tile = [1, 24, 2, 5], buffers = 1{{.*}}>]}
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.view %{{.*}}[0] : <input, 2x3x4x5xi8, strides = [60, 20, 5, 1]> -> <input, 1x2x1x3x1x4x2x5xi8, strides = [0, 60, 0, 20, 0, 5, 0, 1]>
// CHECK-NEXT: emit.for
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <input, 1x24x2x5xi8, strides = [0, 5, 0, 1]> -> <lm, 1x24x2x5xi8,
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <lm, 1x24x2x5xi8, {{.*}}> -> <output, 1x24x2x5xi8, strides = [0, 10, 5, 1]>
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<2x3x4x5xi8> {graph.name = "x"}) -> (tensor<2x3x4x10xi8> {graph.name = "y"}) {
  %y = graph.tile %x {repeats = array<i64: 1, 1, 1, 2>} : (tensor<2x3x4x5xi8>) -> tensor<2x3x4x10xi8>
  return %y : tensor<2x3x4x10xi8>
}

// -----

// Tile [2, 3, 4, 5] by [2, 2, 2, 2]: the view [2, 2, 2, 3, 2, 4, 2, 5] has
// no contiguous pair (every other input stride is 0), so the first four
// dimensions are peeled: 2 x 2 x 2 x 3 = 24 nests of [2, 4, 2, 5]. Nest n
// writes the result at n x 320 bytes and reads the input at i1 x 240 + i3 x
// 80, (i0, i1, i2, i3) being n's index in [2, 2, 2, 3].
// TILING-LABEL: func.func @main
// TILING: qk.copy %arg0 {{.*}} {npuc.loop_tiling = [{{(#qk.tiling<space = \[2, 4, 2, 5\], tile = \[2, 4, 2, 5\], buffers = 1[^>]*>(, )?){24}\]}}}
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[OUT:.*]] = emit.view %{{.*}}[0] : <output, 4x6x8x10xf32, strides = [1920, 320, 40, 4]> -> <output, 2x2x2x3x2x4x2x5xf32, strides = [3840, 1920, 960, 320, 160, 40, 20, 4]>
// CHECK-NEXT: %[[IN:.*]] = emit.view %{{.*}}[0] : <input, 2x3x4x5xf32, strides = [240, 80, 20, 4]> -> <input, 2x2x2x3x2x4x2x5xf32, strides = [0, 240, 0, 80, 0, 20, 0, 4]>
// All 24 nests in order: the input and result offsets of each.
// CHECK-NEXT: emit.view %[[IN]][0] : {{.*}} -> <input, 2x4x2x5xf32, strides = [0, 20, 0, 4]>
// CHECK-NEXT: emit.view %[[OUT]][0] : {{.*}} -> <output, 2x4x2x5xf32, strides = [160, 40, 20, 4]>
// CHECK-NEXT: emit.for
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <input, 2x4x2x5xf32, strides = [0, 20, 0, 4]> -> <lm, 2x4x2x5xf32,
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <lm, 2x4x2x5xf32, {{.*}}> -> <output, 2x4x2x5xf32, strides = [160, 40, 20, 4]>
// CHECK:      emit.view %[[IN]][80] :
// CHECK-NEXT: emit.view %[[OUT]][320] :
// CHECK:      emit.view %[[IN]][160] :
// CHECK-NEXT: emit.view %[[OUT]][640] :
// CHECK:      emit.view %[[IN]][0] :
// CHECK-NEXT: emit.view %[[OUT]][960] :
// CHECK:      emit.view %[[IN]][80] :
// CHECK-NEXT: emit.view %[[OUT]][1280] :
// CHECK:      emit.view %[[IN]][160] :
// CHECK-NEXT: emit.view %[[OUT]][1600] :
// CHECK:      emit.view %[[IN]][240] :
// CHECK-NEXT: emit.view %[[OUT]][1920] :
// CHECK:      emit.view %[[IN]][320] :
// CHECK-NEXT: emit.view %[[OUT]][2240] :
// CHECK:      emit.view %[[IN]][400] :
// CHECK-NEXT: emit.view %[[OUT]][2560] :
// CHECK:      emit.view %[[IN]][240] :
// CHECK-NEXT: emit.view %[[OUT]][2880] :
// CHECK:      emit.view %[[IN]][320] :
// CHECK-NEXT: emit.view %[[OUT]][3200] :
// CHECK:      emit.view %[[IN]][400] :
// CHECK-NEXT: emit.view %[[OUT]][3520] :
// CHECK:      emit.view %[[IN]][0] :
// CHECK-NEXT: emit.view %[[OUT]][3840] :
// CHECK:      emit.view %[[IN]][80] :
// CHECK-NEXT: emit.view %[[OUT]][4160] :
// CHECK:      emit.view %[[IN]][160] :
// CHECK-NEXT: emit.view %[[OUT]][4480] :
// CHECK:      emit.view %[[IN]][0] :
// CHECK-NEXT: emit.view %[[OUT]][4800] :
// CHECK:      emit.view %[[IN]][80] :
// CHECK-NEXT: emit.view %[[OUT]][5120] :
// CHECK:      emit.view %[[IN]][160] :
// CHECK-NEXT: emit.view %[[OUT]][5440] :
// CHECK:      emit.view %[[IN]][240] :
// CHECK-NEXT: emit.view %[[OUT]][5760] :
// CHECK:      emit.view %[[IN]][320] :
// CHECK-NEXT: emit.view %[[OUT]][6080] :
// CHECK:      emit.view %[[IN]][400] :
// CHECK-NEXT: emit.view %[[OUT]][6400] :
// CHECK:      emit.view %[[IN]][240] :
// CHECK-NEXT: emit.view %[[OUT]][6720] :
// CHECK:      emit.view %[[IN]][320] :
// CHECK-NEXT: emit.view %[[OUT]][7040] :
// CHECK:      emit.view %[[IN]][400] :
// CHECK-NEXT: emit.view %[[OUT]][7360] :
// CHECK-NEXT: emit.for
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<2x3x4x5xf32> {graph.name = "x"}) -> (tensor<4x6x8x10xf32> {graph.name = "y"}) {
  %y = graph.tile %x {repeats = array<i64: 2, 2, 2, 2>} : (tensor<2x3x4x5xf32>) -> tensor<4x6x8x10xf32>
  return %y : tensor<4x6x8x10xf32>
}

// -----

// DepthToSpace DCR of [1, 8, 2, 3], block 2: y[0, c, 2h + i, 2w + j] =
// x[0, (2i + j) * 2 + c, h, w], copied over [N, C', H, i, W, j] = [1, 2, 2,
// 2, 3, 2]; C' and H merge (24 = 2 x 12 in both views): one 4-D nest.
// TILING-LABEL: func.func @main
// TILING: qk.copy %arg0 {{.*}} {npuc.loop_tiling = [#qk.tiling<space = [4, 2, 3, 2], tile = [4, 2, 3, 2], buffers = 1{{.*}}>]}
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.view %{{.*}}[0] : <output, 1x2x4x6xf32, strides = [192, 96, 24, 4]> -> <output, 1x2x2x2x3x2xf32, strides = [192, 96, 48, 24, 8, 4]>
// CHECK-NEXT: emit.view %{{.*}}[0] : <input, 1x8x2x3xf32, strides = [192, 24, 12, 4]> -> <input, 1x2x2x2x3x2xf32, strides = [192, 24, 12, 96, 4, 48]>
// CHECK-NEXT: emit.for
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <input, 4x2x3x2xf32, strides = [12, 96, 4, 48]> -> <lm, 4x2x3x2xf32,
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <lm, 4x2x3x2xf32, {{.*}}> -> <output, 4x2x3x2xf32, strides = [48, 24, 8, 4]>
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<1x8x2x3xf32> {graph.name = "x"}) -> (tensor<1x2x4x6xf32> {graph.name = "y"}) {
  %y = graph.depth_to_space %x {blocksize = 2 : i64, mode = "DCR"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %y : tensor<1x2x4x6xf32>
}

// -----

// DepthToSpace CRD: x[0, 4c + 2i + j, h, w], so the input strides of C', i
// and j are 96, 48 and 24 and nothing merges: [2, 2, 2, 3, 2] is peeled at
// C' into 2 nests, the second at 96 bytes in both the input and the result.
// TILING-LABEL: func.func @main
// TILING: qk.copy %arg0 {{.*}} {npuc.loop_tiling = [#qk.tiling<space = [2, 2, 3, 2], tile = [2, 2, 3, 2], buffers = 1{{.*}}>, #qk.tiling<space = [2, 2, 3, 2], tile = [2, 2, 3, 2], buffers = 1{{.*}}>]}
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[OUT:.*]] = emit.view %{{.*}}[0] : <output, 1x2x4x6xf32, strides = [192, 96, 24, 4]> -> <output, 1x2x2x2x3x2xf32, strides = [192, 96, 48, 24, 8, 4]>
// CHECK-NEXT: %[[IN:.*]] = emit.view %{{.*}}[0] : <input, 1x8x2x3xf32, strides = [192, 24, 12, 4]> -> <input, 1x2x2x2x3x2xf32, strides = [192, 96, 12, 48, 4, 24]>
// CHECK-NEXT: emit.view %[[IN]][0] : {{.*}} -> <input, 2x2x3x2xf32, strides = [12, 48, 4, 24]>
// CHECK-NEXT: emit.view %[[OUT]][0] : {{.*}} -> <output, 2x2x3x2xf32, strides = [48, 24, 8, 4]>
// CHECK-NEXT: emit.for
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <input, 2x2x3x2xf32, strides = [12, 48, 4, 24]> -> <lm, 2x2x3x2xf32,
// CHECK:      emit.view %[[IN]][96] : {{.*}} -> <input, 2x2x3x2xf32, strides = [12, 48, 4, 24]>
// CHECK-NEXT: emit.view %[[OUT]][96] : {{.*}} -> <output, 2x2x3x2xf32, strides = [48, 24, 8, 4]>
// CHECK-NEXT: emit.for
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<1x8x2x3xf32> {graph.name = "x"}) -> (tensor<1x2x4x6xf32> {graph.name = "y"}) {
  %y = graph.depth_to_space %x {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %y : tensor<1x2x4x6xf32>
}

// -----

// SpaceToDepth of [1, 2, 4, 6], block 2: y[0, (2i + j) * 2 + c, h, w] =
// x[0, c, 2h + i, 2w + j], copied over [N, i, j, C, H', W'] = [1, 2, 2, 2, 2,
// 3]; C and H' merge (96 = 2 x 48 in, 24 = 2 x 12 out): one 4-D nest.
// TILING-LABEL: func.func @main
// TILING: qk.copy %arg0 {{.*}} {npuc.loop_tiling = [#qk.tiling<space = [2, 2, 4, 3], tile = [2, 2, 4, 3], buffers = 1{{.*}}>]}
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.view %{{.*}}[0] : <output, 1x8x2x3xf32, strides = [192, 24, 12, 4]> -> <output, 1x2x2x2x2x3xf32, strides = [192, 96, 48, 24, 12, 4]>
// CHECK-NEXT: emit.view %{{.*}}[0] : <input, 1x2x4x6xf32, strides = [192, 96, 24, 4]> -> <input, 1x2x2x2x2x3xf32, strides = [192, 24, 4, 96, 48, 8]>
// CHECK-NEXT: emit.for
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <input, 2x2x4x3xf32, strides = [24, 4, 48, 8]> -> <lm, 2x2x4x3xf32,
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <lm, 2x2x4x3xf32, {{.*}}> -> <output, 2x2x4x3xf32, strides = [96, 48, 12, 4]>
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<1x2x4x6xf32> {graph.name = "x"}) -> (tensor<1x8x2x3xf32> {graph.name = "y"}) {
  %y = graph.space_to_depth %x {blocksize = 2 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  return %y : tensor<1x8x2x3xf32>
}

// -----

// The most nests a copy is split into is 1024: Tile [2, 4, 4, 5] by [64, 2,
// 2, 2] peels [64, 2, 2, 4], exactly 1024 nests of [2, 4, 2, 5], the last
// reading the input at 320 + 3 x 80 = 560 (i1 = 1, i3 = 3) and writing at
// 1023 x 320.
// TILING-LABEL: func.func @main
// TILING:            qk.copy %arg0 {{.*}} {npuc.loop_tiling = [
// TILING-COUNT-1023: #qk.tiling<space = [2, 4, 2, 5], tile = [2, 4, 2, 5]{{[^>]*}}>, 
// TILING-NOT:        >, #qk.tiling
// TILING-SAME:       #qk.tiling<space = [2, 4, 2, 5], tile = [2, 4, 2, 5]{{[^>]*}}>]}
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[OUT:.*]] = emit.view %{{.*}}[0] : {{.*}} -> <output, 64x2x2x4x2x4x2x5xf32, strides = [5120, 2560, 1280, 320, 160, 40, 20, 4]>
// CHECK-NEXT: %[[IN:.*]] = emit.view %{{.*}}[0] : {{.*}} -> <input, 64x2x2x4x2x4x2x5xf32, strides = [0, 320, 0, 80, 0, 20, 0, 4]>
// CHECK-COUNT-1023: emit.for %{{.*}} basis [1, 1, 1, 1] range [0, 1) {
// CHECK:      emit.view %[[IN]][560] : {{.*}} -> <input, 2x4x2x5xf32, strides = [0, 20, 0, 4]>
// CHECK-NEXT: emit.view %[[OUT]][327360] : {{.*}} -> <output, 2x4x2x5xf32, strides = [160, 40, 20, 4]>
// CHECK-NEXT: emit.for
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<2x4x4x5xf32> {graph.name = "x"}) -> (tensor<128x8x8x10xf32> {graph.name = "y"}) {
  %y = graph.tile %x {repeats = array<i64: 64, 2, 2, 2>} : (tensor<2x4x4x5xf32>) -> tensor<128x8x8x10xf32>
  return %y : tensor<128x8x8x10xf32>
}

// -----

// One repeat more of axis 0 would need 65 x 2 x 2 x 4 = 1040 nests: refused
// when the nests are described (select-tiling), before any is emitted.
func.func @main(%x: tensor<2x4x4x5xf32> {graph.name = "x"}) -> (tensor<130x8x8x10xf32> {graph.name = "y"}) {
  // expected-error @+1 {{'qk.copy' op copies through a strided view of 8 dimensions that needs more than 1024 DMA nests (the DMA moves at most 4 dimensions)}}
  %y = graph.tile %x {repeats = array<i64: 65, 2, 2, 2>} : (tensor<2x4x4x5xf32>) -> tensor<130x8x8x10xf32>
  return %y : tensor<130x8x8x10xf32>
}

// -----

// Gather of i8 rows by the constant indices [4, 1, -4, 2] (-4 is row 1):
// runs of rows that advance by one step, [4], [1, 1] (a repeat: stride 0)
// and [2], one copy each, every other axis whole. Result rows 0, 1-2 and 3
// at 0, 3 and 9 bytes read input rows 4, 1 and 2 at 12, 3 and 6.
// TILING-LABEL: func.func @main
// TILING: qk.copy {{.*}}npuc.loop_tiling = [{{.*}}space = [1, 1, 1, 3]{{.*}}space = [1, 1, 2, 3]{{.*}}space = [1, 1, 1, 3]{{[^#]*}}]
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.view %{{.*}}[0] : <output, 4x3xi8, strides = [3, 1]> -> <output, 1x3xi8, strides = [3, 1]>
// CHECK-NEXT: emit.view %{{.*}}[12] : <input, 5x3xi8, strides = [3, 1]> -> <input, 1x3xi8, strides = [0, 1]>
// CHECK-NEXT: emit.for
// CHECK:      emit.view %{{.*}}[3] : <output, 4x3xi8, strides = [3, 1]> -> <output, 2x3xi8, strides = [3, 1]>
// CHECK-NEXT: emit.view %{{.*}}[3] : <input, 5x3xi8, strides = [3, 1]> -> <input, 2x3xi8, strides = [0, 1]>
// CHECK-NEXT: emit.for
// CHECK:      emit.view %{{.*}}[9] : <output, 4x3xi8, strides = [3, 1]> -> <output, 1x3xi8, strides = [3, 1]>
// CHECK-NEXT: emit.view %{{.*}}[6] : <input, 5x3xi8, strides = [3, 1]> -> <input, 1x3xi8, strides = [0, 1]>
// CHECK-NEXT: emit.for
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<5x3xi8> {graph.name = "x"}) -> (tensor<4x3xi8> {graph.name = "y"}) {
  %i = graph.constant dense<[4, 1, -4, 2]> : tensor<4xi64>
  %y = graph.gather %x, %i {axis = 0 : i64} : (tensor<5x3xi8>, tensor<4xi64>) -> tensor<4x3xi8>
  return %y : tensor<4x3xi8>
}

// -----

// A Slice that reverses the columns (start 2, step -1): a view's strides
// are not negative, so each column is a copy of its own, result column o
// (at 4 x o bytes) from input column 2 - o (at 8 - 4 x o).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.view %{{.*}}[0] : <output, 2x3xf32, strides = [12, 4]> -> <output, 2x1xf32, strides = [12, 4]>
// CHECK-NEXT: emit.view %{{.*}}[8] : <input, 2x3xf32, strides = [12, 4]> -> <input, 2x1xf32, strides = [12, 0]>
// CHECK-NEXT: emit.for
// CHECK:      emit.view %{{.*}}[4] : <output, 2x3xf32, strides = [12, 4]> -> <output, 2x1xf32, strides = [12, 4]>
// CHECK-NEXT: emit.view %{{.*}}[4] : <input, 2x3xf32, strides = [12, 4]> -> <input, 2x1xf32, strides = [12, 0]>
// CHECK-NEXT: emit.for
// CHECK:      emit.view %{{.*}}[8] : <output, 2x3xf32, strides = [12, 4]> -> <output, 2x1xf32, strides = [12, 4]>
// CHECK-NEXT: emit.view %{{.*}}[0] : <input, 2x3xf32, strides = [12, 4]> -> <input, 2x1xf32, strides = [12, 0]>
// CHECK-NEXT: emit.for
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<2x3xf32> {graph.name = "x"}) -> (tensor<2x3xf32> {graph.name = "y"}) {
  %y = graph.slice %x {starts = array<i64: 0, 2>, ends = array<i64: 2, -1>, steps = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// A constant index outside [-V, V) is an error at the gather.
func.func @main(%x: tensor<5x3xi8> {graph.name = "x"}) -> (tensor<1x3xi8> {graph.name = "y"}) {
  %i = graph.constant dense<[5]> : tensor<1xi64>
  // expected-error @+1 {{'graph.gather' op gather index 5 is outside [-5, 5) along axis 0}}
  %y = graph.gather %x, %i {axis = 0 : i64} : (tensor<5x3xi8>, tensor<1xi64>) -> tensor<1x3xi8>
  return %y : tensor<1x3xi8>
}

// -----

// Reflect Pad of [2, 4] by 1 and 2 columns: result columns 0..6 read input
// columns 1, 0, 1, 2, 3, 2, 1, the runs [1], [0..3], [2], [1]: result
// columns at 0, 4, 20 and 24 bytes from input columns at 4, 0, 8 and 4.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.view %{{.*}}[0] : <output, 2x7xf32, strides = [28, 4]> -> <output, 2x1xf32, strides = [28, 4]>
// CHECK-NEXT: emit.view %{{.*}}[4] : <input, 2x4xf32, strides = [16, 4]> -> <input, 2x1xf32, strides = [16, 0]>
// CHECK:      emit.view %{{.*}}[4] : <output, 2x7xf32, strides = [28, 4]> -> <output, 2x4xf32, strides = [28, 4]>
// CHECK:      emit.view %{{.*}}[0] : <input, 2x4xf32, strides = [16, 4]> -> <input, 1x1x2x4xf32, strides = [0, 0, 16, 4]>
// CHECK:      emit.view %{{.*}}[20] : <output, 2x7xf32, strides = [28, 4]> -> <output, 2x1xf32, strides = [28, 4]>
// CHECK-NEXT: emit.view %{{.*}}[8] : <input, 2x4xf32, strides = [16, 4]> -> <input, 2x1xf32, strides = [16, 0]>
// CHECK:      emit.view %{{.*}}[24] : <output, 2x7xf32, strides = [28, 4]> -> <output, 2x1xf32, strides = [28, 4]>
// CHECK-NEXT: emit.view %{{.*}}[4] : <input, 2x4xf32, strides = [16, 4]> -> <input, 2x1xf32, strides = [16, 0]>
func.func @main(%x: tensor<2x4xf32> {graph.name = "x"}) -> (tensor<2x7xf32> {graph.name = "y"}) {
  %y = graph.pad %x {pads = array<i64: 0, 1, 0, 2>, mode = "reflect", value = 0.0 : f64} : (tensor<2x4xf32>) -> tensor<2x7xf32>
  return %y : tensor<2x7xf32>
}

// -----

// A reflection wider than its axis (ONNX: at most size - 1 each side).
func.func @main(%x: tensor<2x4xf32> {graph.name = "x"}) -> (tensor<2x12xf32> {graph.name = "y"}) {
  // expected-error @+1 {{'graph.pad' op a reflect pad of 4 and 4 on axis 1 of 4 elements reflects more than the axis holds (at most 3 each side)}}
  %y = graph.pad %x {pads = array<i64: 0, 4, 0, 4>, mode = "reflect", value = 0.0 : f64} : (tensor<2x4xf32>) -> tensor<2x12xf32>
  return %y : tensor<2x12xf32>
}
