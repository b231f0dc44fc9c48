// The pipeline npuc runs, registered in npuc-opt from the same builder.
// RUN: npuc-opt %npuc_src/examples/residual.mlir --npuc-pipeline | FileCheck %s

// The exported "x - 0" is gone, the conv, the skip add and the relu remain.
// CHECK-LABEL: func.func @main
// CHECK:       %[[C:.*]] = graph.conv %arg0
// CHECK-NOT:   graph.sub
// CHECK:       %[[A:.*]] = graph.add %[[C]], %arg0
// CHECK:       graph.relu %[[A]]
