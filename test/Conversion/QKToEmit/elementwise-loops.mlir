// convert-qk-to-emit lowers an elementwise op to a tile loop, tiled as
// select-tiling's cost model chose (ElementwiseTiling.h). 2 x 40960 f32
// elements merge into one run of 81920, in 20 tiles of 4096 with two rotating
// slots, pipelined, 16,384 bytes apart. The scalar constant, on the left of a
// commutative Mul, moves to the right and is loaded as one value per tile row
// ([1, 1], broadcast by VECTOR), not gathered per element.
// RUN: npuc-opt %s -convert-elementwise-to-qk -select-tiling --convert-qk-to-emit | FileCheck %s

// CHECK:      %[[C:.*]] = emit.constant dense<2.000000e+00> : tensor<f32>
// CHECK:      emit.for %[[T:.*]] basis [1, 1, 1, 20] range [0, 20) attributes {buffers = 2 : i64, pipeline} {
// CHECK-NEXT:   %[[X:.*]] = emit.alloc : <lm, 1x4096xf32, strides = [16384, 4]>
// CHECK:        emit.iter_view %{{.*}}[%[[T]]] offset 0 coeffs [0, 0, 0, 16384] : <input, 2x40960xf32, strides = [163840, 4]> -> <input, 1x1x1x4096xf32, strides = [0, 0, 0, 4]>
// CHECK:        %[[S:.*]] = emit.alloc : <lm, 1x1xf32, strides = [32, 4]>
// CHECK:        emit.view %[[C]][0] : <const, f32, strides = []> -> <const, 1x1x1x1xf32, strides = [0, 0, 0, 0]>
// CHECK:        emit.vbin MUL %[[X]], %[[S]] -> %[[X]]
// CHECK:        emit.iter_view %{{.*}}[%[[T]]] offset 0 coeffs [0, 0, 0, 16384] : <output, 2x40960xf32, strides = [163840, 4]>
// CHECK:      }
// CHECK-NOT:  emit.for
func.func @main(%x: tensor<2x40960xf32> {graph.name = "x"}) -> (tensor<2x40960xf32> {graph.name = "y"}) {
  %c = graph.constant dense<2.0> : tensor<f32>
  %y = graph.mul %c, %x : (tensor<f32>, tensor<2x40960xf32>) -> tensor<2x40960xf32>
  return %y : tensor<2x40960xf32>
}
