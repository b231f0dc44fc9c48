// The pipeline npuc runs, registered in npuc-opt from the same builder.
// RUN: npuc-opt %npuc_src/examples/residual.mlir --npuc-pipeline=until=kernel | FileCheck %s
// RUN: npuc-opt %npuc_src/examples/residual.mlir --npuc-pipeline | FileCheck %s --check-prefix=ENC

// The exported "x - 0" is gone, the conv (the kernel qk.conv2d), the skip add (the kernel
// qk.binary ADD) and the relu remain.
// CHECK-LABEL: func.func @main
// CHECK:       %[[C:.*]] = qk.conv2d %arg0
// CHECK-NOT:   graph.sub
// CHECK-NOT:   qk.binary {{.*}}SUB
// CHECK:       %[[A:.*]] = qk.binary %[[C]], %arg0 {fn = #qk.binary_fn<ADD>
// CHECK:       qk.map %[[A]]

// The whole pipeline ends with one enc op per instruction, the float conv on
// MATRIX, the skip add and the relu on VECTOR, the result to the output region.
// ENC:     enc.tensor "input" "input_0" : f32 shape [1, 8, 16, 16]
// ENC:     enc.program target "npu-v1"
// ENC:     enc.matmul mode = 5
// ENC:     enc.v_bin func = 0, dtype = 5
// ENC:     enc.v_un func = 4, dtype = 5
// ENC:     enc.dma_out {{.*}}dst_region = 3
// ENC:     enc.end
