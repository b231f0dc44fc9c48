// convert-kernel-to-emit lowers a matrix product to loops over its result
// tiles, as `npuc.tiling` (select-tiling) says, and never chooses a tile of
// its own: full and remainder tiles get a loop each; buffers = 2 asks for
// rotating slots and pipelining (the emit passes do both).
// RUN: npuc-opt %s -split-input-file --convert-kernel-to-emit -verify-diagnostics | FileCheck %s

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
  %y = graph.matmul %a, %b {npuc.tiling = {tile = array<i64: 2, 16, 8>, buffers = 2 : i64}} : (tensor<5x8xf32>, tensor<8x16xf32>) -> tensor<5x16xf32>
  return %y : tensor<5x16xf32>
}

// -----

func.func @main(%a: tensor<5x8xf32> {graph.name = "a"}, %b: tensor<8x16xf32> {graph.name = "b"}) -> (tensor<5x16xf32> {graph.name = "y"}) {
  // expected-error @+1 {{npuc.tiling [5000, 16, 8] x 1 cannot run here: tile 5000x16x8 is outside the MATRIX extent fields [1, 4095]}}
  %y = graph.matmul %a, %b {npuc.tiling = {tile = array<i64: 5000, 16, 8>, buffers = 1 : i64}} : (tensor<5x8xf32>, tensor<8x16xf32>) -> tensor<5x16xf32>
  return %y : tensor<5x16xf32>
}

// -----

func.func @main(%a: tensor<4096x8xf32> {graph.name = "a"}, %b: tensor<8x64xf32> {graph.name = "b"}) -> (tensor<4096x64xf32> {graph.name = "y"}) {
  // expected-error @+1 {{npuc.tiling [4095, 64, 8] x 2 cannot run here: its accumulators take 2096640 bytes of ACC; npu-v1 has 262144}}
  %y = graph.matmul %a, %b {npuc.tiling = {tile = array<i64: 4095, 64, 8>, buffers = 2 : i64}} : (tensor<4096x8xf32>, tensor<8x64xf32>) -> tensor<4096x64xf32>
  return %y : tensor<4096x64xf32>
}

// -----

func.func @main(%a: tensor<5x8xf32> {graph.name = "a"}, %b: tensor<8x16xf32> {graph.name = "b"}) -> (tensor<5x16xf32> {graph.name = "y"}) {
  // expected-error @+1 {{'graph.matmul' op internal error: no tiling (npuc.tiling); select-tiling chooses it before this lowering}}
  %y = graph.matmul %a, %b : (tensor<5x8xf32>, tensor<8x16xf32>) -> tensor<5x16xf32>
  return %y : tensor<5x16xf32>
}
