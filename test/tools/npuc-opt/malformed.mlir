// Malformed IR gives a located diagnostic and a non-zero exit, never a crash.
// RUN: not npuc-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'graph.nope' is unknown
%0 = graph.nope

// -----

func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected ':'
  %0 = graph.relu %x (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: unknown memory space 'gm'
func.func private @g(!emit.buffer<gm, 4xi8, strides = [1]>)

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: unbalanced '<' character in pretty dialect name
func.func private @h(!emit.flag<matrix -> vector)
