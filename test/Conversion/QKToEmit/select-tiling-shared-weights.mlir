// select-tiling on products that share a constant B (an RNN's recurrent
// weights, read by every time step): each holds all of B in one tile,
// marked `resident`, and is not charged B's load (emit-resident-constants
// loads it once for all of them). A B read by one product is streamed.
// RUN: npuc-opt %s -split-input-file -select-tiling | FileCheck %s

// Two steps of h [1 x 64] x R^T [64 x 256], f32, on npu-v1. The whole of R
// in one tile; charged: A 256 B (200 + 4 bus cycles), the product
// 2 * 16 + 64 passes * 16 = 1056, the result 1024 B (200 + 16): 1476 cycles;
// GM 256 + 1024 = 1280 bytes (R's 65,536 not among them).
// CHECK-LABEL: func.func @steps
// CHECK-COUNT-2: qk.matmul {{.*}}npuc.tiling = #qk.tiling<tile = [1, 256, 64], buffers = 1, cycles = 1476, gm_bytes = 1280, resident>
func.func @steps(%h: tensor<1x64xf32>) -> tensor<1x256xf32> {
  %r = graph.constant dense<0.5> : tensor<64x256xf32>
  %a = qk.matmul %h, %r {acc_type = f32} : (tensor<1x64xf32>, tensor<64x256xf32>) -> tensor<1x256xf32>
  %b = qk.matmul %h, %r {acc_type = f32} : (tensor<1x64xf32>, tensor<64x256xf32>) -> tensor<1x256xf32>
  return %b : tensor<1x256xf32>
}

// -----

// One product reads R: streamed in tiles, not resident.
// CHECK-LABEL: func.func @once
// CHECK:     qk.matmul
// CHECK-NOT: resident
func.func @once(%h: tensor<1x64xf32>) -> tensor<1x256xf32> {
  %r = graph.constant dense<0.5> : tensor<64x256xf32>
  %a = qk.matmul %h, %r {acc_type = f32} : (tensor<1x64xf32>, tensor<64x256xf32>) -> tensor<1x256xf32>
  return %a : tensor<1x256xf32>
}
