// An operand constant along the innermost dimension (here a per-channel
// [1, 3, 1, 1] scale of a [1, 3, 4, 5] tensor, on the left of a commutative
// Mul: it moves to the right) is one value per tile row: a [3, 1] column,
// one DMA of 3 values 4 bytes apart, broadcast along each row by VECTOR,
// where a [3, 20] tile would pay a GM burst per element.
// RUN: npuc-opt %s -convert-elementwise-to-qk -select-tiling --convert-qk-to-emit | FileCheck %s

// CHECK:      %[[S:.*]] = emit.alloc {name = "s", offset = 256 : i64} : <input, 1x3x1x1xf32, strides = [12, 4, 4, 4]>
// CHECK:      emit.for
// CHECK:        %[[X:.*]] = emit.alloc : <lm, 3x20xf32, strides = [96, 4]>
// CHECK:        %[[COL:.*]] = emit.alloc : <lm, 3x1xf32, strides = [32, 4]>
// CHECK-NEXT:   %[[DST:.*]] = emit.view %[[COL]][0] : {{.*}} -> <lm, 1x1x3x1xf32, strides = [96, 96, 32, 4]>
// CHECK-NEXT:   %[[SRC:.*]] = emit.view %[[S]][0] : {{.*}} -> <input, 1x1x3x1xf32, strides = [0, 0, 4, 0]>
// CHECK-NEXT:   emit.dma %[[SRC]] -> %[[DST]]
// CHECK-NEXT:   emit.vbin MUL %[[X]], %[[COL]] -> %[[X]] : <lm, 3x20xf32, strides = [96, 4]>, <lm, 3x1xf32, strides = [32, 4]>
func.func @main(%x: tensor<1x3x4x5xf32> {graph.name = "x"}, %s: tensor<1x3x1x1xf32> {graph.name = "s"}) -> (tensor<1x3x4x5xf32> {graph.name = "y"}) {
  %y = graph.mul %s, %x : (tensor<1x3x1x1xf32>, tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  return %y : tensor<1x3x4x5xf32>
}
