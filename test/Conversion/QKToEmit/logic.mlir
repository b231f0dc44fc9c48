// RUN: npuc-opt %s -split-input-file --pass-pipeline="builtin.module(convert-elementwise-to-qk,select-tiling,convert-qk-to-emit,emit.program(emit-multi-buffer,emit-pipeline,emit-lower-loops))" -verify-diagnostics | FileCheck %s
// RUN: npuc-opt %s -split-input-file --pass-pipeline="builtin.module(set-target{target=npu-v1-tiny},convert-elementwise-to-qk,select-tiling,convert-qk-to-emit,emit.program(emit-multi-buffer,emit-pipeline,emit-lower-loops))" -verify-diagnostics | FileCheck %s --check-prefix=TINY

// The lowerings of LogicKernels.cpp (comparisons, And/Or/Xor/Not, Where,
// Cast, ArgMax/ArgMin) and the integer elementwise ops of
// ElementwiseKernels.cpp, as the emit ops they become. Bool is i8 0/1 bytes,
// int64 is int32 on chip: such model inputs and outputs carry emit.boundary,
// the host type their storage stands for.

// A broadcast f32 Less: y's [5] row reaches the tile by zero strides; V_CMP
// writes an i8 0/1 tile, stored as is to the bool output (i8 storage).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[X:.*]] = emit.alloc {name = "x", offset = 0 : i64} : <input, 3x4x5xf32, strides = [80, 20, 4]>
// CHECK:      %[[Y:.*]] = emit.alloc {name = "y", offset = 256 : i64} : <input, 5xf32, strides = [4]>
// CHECK:      %[[O:.*]] = emit.alloc {emit.boundary = i1, name = "less", offset = 0 : i64} : <output, 3x4x5xi8, strides = [20, 5, 1]>
// CHECK-NEXT: %[[A:.*]] = emit.alloc : <lm, 12x5xf32, strides = [32, 4]>
// CHECK:      %[[B:.*]] = emit.alloc : <lm, 12x5xf32, strides = [32, 4]>
// CHECK-NEXT: %[[BT:.*]] = emit.view %[[B]][0]
// CHECK-NEXT: %[[YV:.*]] = emit.view %[[Y]][0] : <input, 5xf32, strides = [4]> -> <input, 1x1x12x5xf32, strides = [0, 0, 0, 4]>
// CHECK-NEXT: emit.dma %[[YV]] -> %[[BT]]
// CHECK-NEXT: %[[D:.*]] = emit.alloc : <lm, 12x5xi8, strides = [32, 1]>
// CHECK-NEXT: emit.vcmp LT %[[A]], %[[B]] -> %[[D]] : <lm, 12x5xf32, strides = [32, 4]>, <lm, 12x5xf32, strides = [32, 4]> -> <lm, 12x5xi8, strides = [32, 1]>
// CHECK-NEXT: %[[OV:.*]] = emit.view %[[O]][0]
// CHECK-NEXT: %[[DV:.*]] = emit.view %[[D]][0]
// CHECK-NEXT: emit.dma %[[DV]] -> %[[OV]] : <lm, 1x1x12x5xi8, strides = [384, 384, 32, 1]> -> <output, 1x1x12x5xi8, strides = [0, 0, 5, 1]>
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.alloc {emit.boundary = i1, name = "less", offset = 0 : i64} : <output, 3x4x5xi8, strides = [20, 5, 1]>
// TINY:       emit.vcmp LT {{.*}} -> <lm, 12x5xi8, strides = [32, 1]>
func.func @main(%x: tensor<3x4x5xf32> {graph.name = "x"}, %y: tensor<5xf32> {graph.name = "y"}) -> (tensor<3x4x5xi1> {graph.name = "less"}) {
  %0 = graph.less %x, %y : (tensor<3x4x5xf32>, tensor<5xf32>) -> tensor<3x4x5xi1>
  return %0 : tensor<3x4x5xi1>
}

// -----

// An int64 Equal compares the int32 storage: both inputs are i32 buffers
// marked i64, the comparison reads i32 tiles.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.alloc {emit.boundary = i64, name = "x", offset = 0 : i64} : <input, 2x6xi32, strides = [24, 4]>
// CHECK:      emit.alloc {emit.boundary = i64, name = "y", offset = 64 : i64} : <input, 2x6xi32, strides = [24, 4]>
// CHECK:      emit.alloc {emit.boundary = i1, name = "eq", offset = 0 : i64} : <output, 2x6xi8, strides = [6, 1]>
// CHECK:      %[[D:.*]] = emit.alloc : <lm, 1x12xi8, strides = [32, 1]>
// CHECK-NEXT: emit.vcmp EQ %{{.*}}, %{{.*}} -> %[[D]] : <lm, 1x12xi32, strides = [64, 4]>, <lm, 1x12xi32, strides = [64, 4]> -> <lm, 1x12xi8, strides = [32, 1]>
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.vcmp EQ {{.*}} : <lm, 1x12xi32, strides = [64, 4]>, <lm, 1x12xi32, strides = [64, 4]> -> <lm, 1x12xi8, strides = [32, 1]>
func.func @main(%x: tensor<2x6xi64> {graph.name = "x"}, %y: tensor<2x6xi64> {graph.name = "y"}) -> (tensor<2x6xi1> {graph.name = "eq"}) {
  %0 = graph.equal %x, %y : (tensor<2x6xi64>, tensor<2x6xi64>) -> tensor<2x6xi1>
  return %0 : tensor<2x6xi1>
}

// -----

// And is V_BIN AND on the 0/1 bytes, Not is V_BINI XOR 1 on them (an i8
// immediate); the And result goes through an i8 arena buffer.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.alloc {emit.boundary = i1, name = "a", offset = 0 : i64} : <input, 3x4xi8, strides = [4, 1]>
// CHECK:      emit.alloc {emit.boundary = i1, name = "b", offset = 64 : i64} : <input, 3x4xi8, strides = [4, 1]>
// CHECK:      emit.alloc {emit.boundary = i1, name = "y", offset = 0 : i64} : <output, 3x4xi8, strides = [4, 1]>
// CHECK-NEXT: emit.alloc : <arena, 3x4xi8, strides = [4, 1]>
// CHECK:      emit.vbin AND %[[P:.*]], %[[Q:.*]] -> %[[P]] : <lm, 1x12xi8, strides = [32, 1]>, <lm, 1x12xi8, strides = [32, 1]> -> <lm, 1x12xi8, strides = [32, 1]>
// CHECK-NOT:  emit.{{vbin|vun|vcmp|vsel|reduce|cast}}
// CHECK:      emit.vbini XOR %[[N:.*]], 1 : i8 -> %[[N]] : <lm, 1x12xi8, strides = [32, 1]> -> <lm, 1x12xi8, strides = [32, 1]>
// CHECK-NOT:  emit.{{vbin|vun|vcmp|vsel|reduce|cast}}
// CHECK:      }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.vbin AND
// TINY:       emit.vbini XOR %{{.*}}, 1 : i8
func.func @main(%a: tensor<3x4xi1> {graph.name = "a"}, %b: tensor<3x4xi1> {graph.name = "b"}) -> (tensor<3x4xi1> {graph.name = "y"}) {
  %0 = graph.and %a, %b : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
  %1 = graph.not %0 : (tensor<3x4xi1>) -> tensor<3x4xi1>
  return %1 : tensor<3x4xi1>
}

// -----

// Where of f32 with a bool condition: the condition's bytes (an i8 tile of
// 32-byte pitch) are copied into a mask with the f32 tile's 64-byte pitch,
// which V_SEL reads with d's; the selection is in place in x's tile.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.alloc {emit.boundary = i1, name = "c", offset = 0 : i64} : <input, 2x8xi8, strides = [8, 1]>
// CHECK:      %[[XIN:.*]] = emit.alloc {name = "x", offset = 64 : i64} : <input, 2x8xf32, strides = [32, 4]>
// CHECK:      %[[YIN:.*]] = emit.alloc {name = "y", offset = 128 : i64} : <input, 2x8xf32, strides = [32, 4]>
// CHECK:      %[[C:.*]] = emit.alloc : <lm, 1x16xi8, strides = [32, 1]>
// CHECK:      %[[X:.*]] = emit.alloc : <lm, 1x16xf32, strides = [64, 4]>
// CHECK-NEXT: %[[XT:.*]] = emit.view %[[X]][0]
// CHECK-NEXT: %[[XV:.*]] = emit.view %[[XIN]][0]
// CHECK-NEXT: emit.dma %[[XV]] -> %[[XT]]
// CHECK-NEXT: %[[Y:.*]] = emit.alloc : <lm, 1x16xf32, strides = [64, 4]>
// CHECK-NEXT: %[[YT:.*]] = emit.view %[[Y]][0]
// CHECK-NEXT: %[[YV:.*]] = emit.view %[[YIN]][0]
// CHECK-NEXT: emit.dma %[[YV]] -> %[[YT]]
// CHECK-NEXT: %[[M:.*]] = emit.alloc : <lm, 1x16xi8, strides = [64, 1]>
// CHECK-NEXT: emit.vun COPY %[[C]] -> %[[M]] : <lm, 1x16xi8, strides = [32, 1]> -> <lm, 1x16xi8, strides = [64, 1]>
// CHECK-NEXT: emit.vsel %[[M]] ? %[[X]] : %[[Y]] -> %[[X]] : <lm, 1x16xi8, strides = [64, 1]>, <lm, 1x16xf32, strides = [64, 4]>, <lm, 1x16xf32, strides = [64, 4]> -> <lm, 1x16xf32, strides = [64, 4]>
// CHECK-NEXT: emit.view
// CHECK-NEXT: %[[XV:.*]] = emit.view %[[X]][0]
// CHECK-NEXT: emit.dma %[[XV]]
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.vun COPY {{.*}} : <lm, 1x16xi8, strides = [32, 1]> -> <lm, 1x16xi8, strides = [64, 1]>
// TINY-NEXT:  emit.vsel
func.func @main(%c: tensor<2x8xi1> {graph.name = "c"}, %x: tensor<2x8xf32> {graph.name = "x"}, %y: tensor<2x8xf32> {graph.name = "y"}) -> (tensor<2x8xf32> {graph.name = "z"}) {
  %0 = graph.where %c, %x, %y : (tensor<2x8xi1>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// A Where whose tiles the targets cut differently (8 and 4 rows of 200): a
// [1, 1000] condition broadcast down the rows and a scalar y. The mask has
// the f32 tile's 800-byte pitch on both, not the condition tile's 224.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.alloc : <lm, 2x8x200xi8, strides = [1792, 224, 1]>
// CHECK:      emit.alloc : <lm, 2x8x200xi8, strides = [5824, 800, 1]>
// CHECK:      emit.vun COPY %{{.*}} -> %[[M:.*]] : <lm, 8x200xi8, strides = [224, 1]> -> <lm, 8x200xi8, strides = [800, 1]>
// CHECK-NEXT: %[[X:.*]] = emit.view
// CHECK-NEXT: %[[Y:.*]] = emit.view
// CHECK-NEXT: emit.vsel %[[M]] ? %[[X]] : %[[Y]] -> %[[X]] : <lm, 8x200xi8, strides = [800, 1]>, <lm, 8x200xf32, strides = [800, 4]>, <lm, 8x200xf32, strides = [800, 4]> -> <lm, 8x200xf32, strides = [800, 4]>
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.vun COPY %{{.*}} -> %[[M:.*]] : <lm, 4x200xi8, strides = [224, 1]> -> <lm, 4x200xi8, strides = [800, 1]>
// TINY-NEXT:  %[[X:.*]] = emit.view
// TINY-NEXT:  %[[Y:.*]] = emit.view
// TINY-NEXT:  emit.vsel %[[M]] ? %[[X]] : %[[Y]] -> %[[X]] : <lm, 4x200xi8, strides = [800, 1]>, <lm, 4x200xf32, strides = [800, 4]>, <lm, 4x200xf32, strides = [800, 4]> -> <lm, 4x200xf32, strides = [800, 4]>
func.func @main(%c: tensor<1x1000xi1> {graph.name = "c"}, %x: tensor<64x1000xf32> {graph.name = "x"}, %y: tensor<f32> {graph.name = "y"}) -> (tensor<64x1000xf32> {graph.name = "z"}) {
  %0 = graph.where %c, %x, %y : (tensor<1x1000xi1>, tensor<64x1000xf32>, tensor<f32>) -> tensor<64x1000xf32>
  return %0 : tensor<64x1000xf32>
}

// -----

// Cast f32 -> int64 truncates toward zero, sign(x) * floor(|x|), then V_CAST
// to the i32 storage of the int64 output.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.alloc {emit.boundary = i64, name = "y", offset = 0 : i64} : <output, 3x4xi32, strides = [16, 4]>
// CHECK:      emit.dma
// CHECK-NEXT: %[[S:.*]] = emit.alloc : <lm, 1x12xf32, strides = [64, 4]>
// CHECK-NEXT: emit.vun SIGN %[[X:.*]] -> %[[S]] : <lm, 1x12xf32, strides = [64, 4]> -> <lm, 1x12xf32, strides = [64, 4]>
// CHECK-NEXT: emit.vun ABS %[[X]] -> %[[X]]
// CHECK-NEXT: emit.vun FLOOR %[[X]] -> %[[X]]
// CHECK-NEXT: emit.vbin MUL %[[X]], %[[S]] -> %[[X]]
// CHECK-NEXT: %[[D:.*]] = emit.alloc : <lm, 1x12xi32, strides = [64, 4]>
// CHECK-NEXT: emit.cast %[[X]] -> %[[D]] : <lm, 1x12xf32, strides = [64, 4]> -> <lm, 1x12xi32, strides = [64, 4]>
// CHECK-NEXT: emit.view
// CHECK-NEXT: emit.view %[[D]][0]
// CHECK-NEXT: emit.dma
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.vun SIGN
// TINY-NEXT:  emit.vun ABS
// TINY-NEXT:  emit.vun FLOOR
// TINY-NEXT:  emit.vbin MUL
// TINY-NEXT:  emit.alloc
// TINY-NEXT:  emit.cast {{.*}} -> <lm, 1x12xi32, strides = [64, 4]>
func.func @main(%x: tensor<3x4xf32> {graph.name = "x"}) -> (tensor<3x4xi64> {graph.name = "y"}) {
  %0 = graph.cast %x : (tensor<3x4xf32>) -> tensor<3x4xi64>
  return %0 : tensor<3x4xi64>
}

// -----

// Cast f32 -> bool is x != 0: a [1, 1] zero from CONST, broadcast by V_CMP NE.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.alloc {emit.boundary = i1, name = "y", offset = 0 : i64} : <output, 3x4xi8, strides = [4, 1]>
// CHECK-NEXT: %[[ZC:.*]] = emit.constant dense<0.000000e+00> : tensor<1x1xf32> : <const, 1x1xf32, strides = [4, 4]>
// CHECK:      %[[X:.*]] = emit.alloc : <lm, 1x12xf32, strides = [64, 4]>
// CHECK:      emit.dma
// CHECK-NEXT: %[[Z:.*]] = emit.alloc : <lm, 1x1xf32, strides = [32, 4]>
// CHECK-NEXT: emit.dma %[[ZC]] -> %[[Z]]
// CHECK-NEXT: %[[D:.*]] = emit.alloc : <lm, 1x12xi8, strides = [32, 1]>
// CHECK-NEXT: emit.vcmp NE %[[X]], %[[Z]] -> %[[D]] : <lm, 1x12xf32, strides = [64, 4]>, <lm, 1x1xf32, strides = [32, 4]> -> <lm, 1x12xi8, strides = [32, 1]>
// CHECK-NEXT: emit.view
// CHECK-NEXT: emit.view %[[D]][0]
// CHECK-NEXT: emit.dma
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.constant dense<0.000000e+00> : tensor<1x1xf32>
// TINY:       emit.vcmp NE {{.*}} : <lm, 1x12xf32, strides = [64, 4]>, <lm, 1x1xf32, strides = [32, 4]> -> <lm, 1x12xi8, strides = [32, 1]>
func.func @main(%x: tensor<3x4xf32> {graph.name = "x"}) -> (tensor<3x4xi1> {graph.name = "y"}) {
  %0 = graph.cast %x : (tensor<3x4xf32>) -> tensor<3x4xi1>
  return %0 : tensor<3x4xi1>
}

// -----

// Cast bool -> f32 is one V_CAST of the 0/1 bytes.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.alloc {emit.boundary = i1, name = "x", offset = 0 : i64} : <input, 3x4xi8, strides = [4, 1]>
// CHECK:      emit.dma
// CHECK-NEXT: %[[D:.*]] = emit.alloc : <lm, 1x12xf32, strides = [64, 4]>
// CHECK-NEXT: emit.cast %{{.*}} -> %[[D]] : <lm, 1x12xi8, strides = [32, 1]> -> <lm, 1x12xf32, strides = [64, 4]>
// CHECK-NEXT: emit.view
// CHECK-NEXT: emit.view %[[D]][0]
// CHECK-NEXT: emit.dma
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.cast {{.*}} : <lm, 1x12xi8, strides = [32, 1]> -> <lm, 1x12xf32, strides = [64, 4]>
func.func @main(%x: tensor<3x4xi1> {graph.name = "x"}) -> (tensor<3x4xf32> {graph.name = "y"}) {
  %0 = graph.cast %x : (tensor<3x4xi1>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Cast int64 -> int32 copies the int32 storage: a load and a store of the
// same tile, no VECTOR op at all.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.alloc {emit.boundary = i64, name = "x", offset = 0 : i64} : <input, 3x4xi32, strides = [16, 4]>
// CHECK-NEXT: emit.value
// CHECK-NEXT: emit.alloc {name = "y", offset = 0 : i64} : <output, 3x4xi32, strides = [16, 4]>
// CHECK-NEXT: %[[T:.*]] = emit.alloc : <lm, 1x12xi32, strides = [64, 4]>
// CHECK-NEXT: emit.view %[[T]][0]
// CHECK-NEXT: emit.view
// CHECK-NEXT: emit.dma
// CHECK-NOT:  emit.{{vbin|vun|vcmp|vsel|reduce|cast}}
// CHECK:      emit.view %[[T]][0]
// CHECK-NEXT: emit.dma
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY-NOT:   emit.{{vbin|vun|vcmp|vsel|reduce|cast}}
// TINY:       }
func.func @main(%x: tensor<3x4xi64> {graph.name = "x"}) -> (tensor<3x4xi32> {graph.name = "y"}) {
  %0 = graph.cast %x : (tensor<3x4xi64>) -> tensor<3x4xi32>
  return %0 : tensor<3x4xi32>
}

// -----

// ArgMax along the rows (the reduced axis innermost), first and last index:
// the row maximum, an EQ mask with the i32 select tile's pitch, the [1, 5]
// iota where masked, else r = 5 (first index, then MIN) or -1 (last index,
// then MAX). The int64 results are i32 buffers marked i64.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.alloc {emit.boundary = i64, name = "first", offset = 0 : i64} : <output, 3x1xi32, strides = [4, 4]>
// CHECK:      %[[LAST:.*]] = emit.alloc {emit.boundary = i64, name = "last", offset = 64 : i64} : <output, 3xi32, strides = [4]>
// CHECK-NEXT: %[[IOTA:.*]] = emit.constant dense<{{\[\[}}0, 1, 2, 3, 4]]> : tensor<1x5xi32> : <const, 1x5xi32, strides = [20, 4]>
// CHECK-NEXT: %[[R:.*]] = emit.constant dense<5> : tensor<1x1xi32> : <const, 1x1xi32, strides = [4, 4]>
// CHECK-NEXT: %[[T:.*]] = emit.alloc : <lm, 3x5xf32, strides = [32, 4]>
// CHECK-NEXT: emit.dma %{{.*}} -> %[[T]]
// CHECK-NEXT: %[[E:.*]] = emit.alloc : <lm, 3x1xf32, strides = [32, 4]>
// CHECK-NEXT: emit.reduce MAX cols %[[T]] -> %[[E]] : <lm, 3x5xf32, strides = [32, 4]> -> <lm, 3x1xf32, strides = [32, 4]>
// CHECK-NEXT: %[[SEL:.*]] = emit.alloc : <lm, 3x5xi32, strides = [32, 4]>
// CHECK-NEXT: %[[M:.*]] = emit.alloc : <lm, 3x5xi8, strides = [32, 1]>
// CHECK-NEXT: emit.vcmp EQ %[[T]], %[[E]] -> %[[M]] : <lm, 3x5xf32, strides = [32, 4]>, <lm, 3x1xf32, strides = [32, 4]> -> <lm, 3x5xi8, strides = [32, 1]>
// CHECK-NEXT: %[[I:.*]] = emit.alloc : <lm, 1x5xi32, strides = [32, 4]>
// CHECK-NEXT: emit.dma %[[IOTA]] -> %[[I]]
// CHECK-NEXT: %[[O:.*]] = emit.alloc : <lm, 1x1xi32, strides = [32, 4]>
// CHECK-NEXT: emit.dma %[[R]] -> %[[O]]
// CHECK-NEXT: emit.vsel %[[M]] ? %[[I]] : %[[O]] -> %[[SEL]] : <lm, 3x5xi8, strides = [32, 1]>, <lm, 1x5xi32, strides = [32, 4]>, <lm, 1x1xi32, strides = [32, 4]> -> <lm, 3x5xi32, strides = [32, 4]>
// CHECK-NEXT: %[[RES:.*]] = emit.alloc : <lm, 3x1xi32, strides = [32, 4]>
// CHECK-NEXT: emit.reduce MIN cols %[[SEL]] -> %[[RES]] : <lm, 3x5xi32, strides = [32, 4]> -> <lm, 3x1xi32, strides = [32, 4]>
// CHECK-NEXT: emit.dma %[[RES]] -> %{{.*}} : <lm, 3x1xi32, strides = [32, 4]> -> <output, 3x1xi32, strides = [4, 4]>
// CHECK-NEXT: %[[IOTA2:.*]] = emit.constant dense<{{\[\[}}0, 1, 2, 3, 4]]> : tensor<1x5xi32>
// CHECK-NEXT: %[[NEG:.*]] = emit.constant dense<-1> : tensor<1x1xi32> : <const, 1x1xi32, strides = [4, 4]>
// CHECK-NEXT: %[[LV:.*]] = emit.view %[[LAST]][0] : <output, 3xi32, strides = [4]> -> <output, 3x1xi32, strides = [4, 4]>
// CHECK:      emit.reduce MAX cols
// CHECK:      emit.vcmp EQ
// CHECK-NEXT: %[[I2:.*]] = emit.alloc : <lm, 1x5xi32, strides = [32, 4]>
// CHECK-NEXT: emit.dma %[[IOTA2]] -> %[[I2]]
// CHECK-NEXT: %[[O2:.*]] = emit.alloc : <lm, 1x1xi32, strides = [32, 4]>
// CHECK-NEXT: emit.dma %[[NEG]] -> %[[O2]]
// CHECK-NEXT: emit.vsel %{{.*}} ? %[[I2]] : %[[O2]] -> %[[SEL2:.*]] :
// CHECK-NEXT: %[[RES2:.*]] = emit.alloc : <lm, 3x1xi32, strides = [32, 4]>
// CHECK-NEXT: emit.reduce MAX cols %[[SEL2]] -> %[[RES2]] : <lm, 3x5xi32, strides = [32, 4]> -> <lm, 3x1xi32, strides = [32, 4]>
// CHECK-NEXT: emit.dma %[[RES2]] -> %[[LV]]
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.constant dense<5> : tensor<1x1xi32>
// TINY:       emit.reduce MIN cols
// TINY:       emit.constant dense<-1> : tensor<1x1xi32>
// TINY:       emit.reduce MAX cols {{.*}} : <lm, 3x5xi32, strides = [32, 4]> -> <lm, 3x1xi32, strides = [32, 4]>
func.func @main(%x: tensor<3x5xf32> {graph.name = "x"}) -> (tensor<3x1xi64> {graph.name = "first"}, tensor<3xi64> {graph.name = "last"}) {
  %0 = qk.arg_reduce %x {fn = #qk.reduce_fn<MAX>, axis = 1 : i64, keepdims = true, select_last_index = false} : (tensor<3x5xf32>) -> tensor<3x1xi64>
  %1 = qk.arg_reduce %x {fn = #qk.reduce_fn<MAX>, axis = 1 : i64, keepdims = false, select_last_index = true} : (tensor<3x5xf32>) -> tensor<3xi64>
  return %0, %1 : tensor<3x1xi64>, tensor<3xi64>
}

// -----

// ArgMax along columns (axis 1 of [2, 3, 4]: 4 elements after it): a [3, 4]
// tile per block, the column maximum broadcast down the rows, a [3, 1] iota
// broadcast across them, MIN (first index) or MAX (last) along the rows.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.alloc {emit.boundary = i64, name = "first", offset = 0 : i64} : <output, 2x1x4xi32, strides = [16, 16, 4]>
// CHECK-NEXT: emit.alloc {emit.boundary = i64, name = "last", offset = 64 : i64} : <output, 2x1x4xi32, strides = [16, 16, 4]>
// CHECK-NEXT: emit.constant dense<{{\[\[}}0], [1], [2]]> : tensor<3x1xi32> : <const, 3x1xi32, strides = [4, 4]>
// CHECK-NEXT: emit.constant dense<3> : tensor<1x1xi32> : <const, 1x1xi32, strides = [4, 4]>
// CHECK:      emit.alloc : <lm, 2x3x4xi8, strides = [128, 32, 1]>
// CHECK:      emit.reduce MAX rows %[[T:.*]] -> %[[E:.*]] : <lm, 3x4xf32, strides = [32, 4]> -> <lm, 1x4xf32, strides = [32, 4]>
// CHECK-NEXT: %[[M:.*]] = emit.view
// CHECK-NEXT: emit.vcmp EQ %[[T]], %[[E]] -> %[[M]] : <lm, 3x4xf32, strides = [32, 4]>, <lm, 1x4xf32, strides = [32, 4]> -> <lm, 3x4xi8, strides = [32, 1]>
// CHECK-NEXT: %[[I:.*]] = emit.view
// CHECK-NEXT: %[[O:.*]] = emit.view
// CHECK-NEXT: %[[SEL:.*]] = emit.view
// CHECK-NEXT: emit.vsel %[[M]] ? %[[I]] : %[[O]] -> %[[SEL]] : <lm, 3x4xi8, strides = [32, 1]>, <lm, 3x1xi32, strides = [32, 4]>, <lm, 1x1xi32, strides = [32, 4]> -> <lm, 3x4xi32, strides = [32, 4]>
// CHECK-NEXT: %[[RES:.*]] = emit.view
// CHECK-NEXT: emit.reduce MIN rows %[[SEL]] -> %[[RES]] : <lm, 3x4xi32, strides = [32, 4]> -> <lm, 1x4xi32, strides = [32, 4]>
// CHECK-NEXT: %[[Y:.*]] = emit.view %{{.*}}[0] : <output, 2x1x4xi32, strides = [16, 16, 4]> -> <output, 1x4xi32, strides = [0, 4]>
// CHECK-NEXT: emit.dma %[[RES]] -> %[[Y]]
// CHECK:      emit.constant dense<{{\[\[}}0], [1], [2]]> : tensor<3x1xi32>
// CHECK-NEXT: emit.constant dense<-1> : tensor<1x1xi32>
// CHECK:      emit.vsel
// CHECK-NEXT: emit.view
// CHECK-NEXT: emit.reduce MAX rows {{.*}} : <lm, 3x4xi32, strides = [32, 4]> -> <lm, 1x4xi32, strides = [32, 4]>
// CHECK-NOT:  emit.reduce MIN
// CHECK:      }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.constant dense<{{\[\[}}0], [1], [2]]> : tensor<3x1xi32>
// TINY-NEXT:  emit.constant dense<3> : tensor<1x1xi32>
// TINY:       emit.reduce MIN rows
// TINY:       emit.constant dense<-1> : tensor<1x1xi32>
// TINY:       emit.reduce MAX rows {{.*}} : <lm, 3x4xi32, strides = [32, 4]> -> <lm, 1x4xi32, strides = [32, 4]>
func.func @main(%x: tensor<2x3x4xf32> {graph.name = "x"}) -> (tensor<2x1x4xi64> {graph.name = "first"}, tensor<2x1x4xi64> {graph.name = "last"}) {
  %0 = qk.arg_reduce %x {fn = #qk.reduce_fn<MAX>, axis = 1 : i64, keepdims = true, select_last_index = false} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  %1 = qk.arg_reduce %x {fn = #qk.reduce_fn<MAX>, axis = 1 : i64, keepdims = true, select_last_index = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  return %0, %1 : tensor<2x1x4xi64>, tensor<2x1x4xi64>
}

// -----

// uint8 Add in int32, wrapped like ONNX: both operands widened, ADD, AND 255,
// V_CAST back into the first operand's ui8 tile.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[A:.*]] = emit.alloc : <lm, 1x12xui8, strides = [32, 1]>
// CHECK:      %[[B:.*]] = emit.alloc : <lm, 1x12xui8, strides = [32, 1]>
// CHECK:      emit.dma
// CHECK-NEXT: %[[WA:.*]] = emit.alloc : <lm, 1x12xi32, strides = [64, 4]>
// CHECK-NEXT: emit.cast %[[A]] -> %[[WA]] : <lm, 1x12xui8, strides = [32, 1]> -> <lm, 1x12xi32, strides = [64, 4]>
// CHECK-NEXT: %[[WB:.*]] = emit.alloc : <lm, 1x12xi32, strides = [64, 4]>
// CHECK-NEXT: emit.cast %[[B]] -> %[[WB]] : <lm, 1x12xui8, strides = [32, 1]> -> <lm, 1x12xi32, strides = [64, 4]>
// CHECK-NEXT: emit.vbin ADD %[[WA]], %[[WB]] -> %[[WA]] : <lm, 1x12xi32, strides = [64, 4]>
// CHECK-NEXT: emit.vbini AND %[[WA]], 255 : i32 -> %[[WA]]
// CHECK-NEXT: emit.cast %[[WA]] -> %[[A]] : <lm, 1x12xi32, strides = [64, 4]> -> <lm, 1x12xui8, strides = [32, 1]>
// CHECK-NEXT: emit.view
// CHECK-NEXT: emit.view %[[A]][0]
// CHECK-NEXT: emit.dma
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.vbin ADD {{.*}} : <lm, 1x12xi32, strides = [64, 4]>
// TINY-NEXT:  emit.vbini AND %{{.*}}, 255 : i32
// TINY-NEXT:  emit.cast {{.*}} -> <lm, 1x12xui8, strides = [32, 1]>
func.func @main(%x: tensor<3x4xui8> {graph.name = "x"}, %y: tensor<3x4xui8> {graph.name = "y"}) -> (tensor<3x4xui8> {graph.name = "sum"}) {
  %0 = graph.add %x, %y : (tensor<3x4xui8>, tensor<3x4xui8>) -> tensor<3x4xui8>
  return %0 : tensor<3x4xui8>
}

// -----

// int8 Add: the signed wrap is (s + 128) & 255 - 128, in int32.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[A:.*]] = emit.alloc : <lm, 1x12xi8, strides = [32, 1]>
// CHECK:      emit.cast %[[A]] -> %[[WA:.*]] : <lm, 1x12xi8, strides = [32, 1]> -> <lm, 1x12xi32, strides = [64, 4]>
// CHECK-NEXT: %[[WB:.*]] = emit.alloc : <lm, 1x12xi32, strides = [64, 4]>
// CHECK-NEXT: emit.cast %{{.*}} -> %[[WB]] : <lm, 1x12xi8, strides = [32, 1]> -> <lm, 1x12xi32, strides = [64, 4]>
// CHECK-NEXT: emit.vbin ADD %[[WA]], %[[WB]] -> %[[WA]]
// CHECK-NEXT: emit.vbini ADD %[[WA]], 128 : i32 -> %[[WA]]
// CHECK-NEXT: emit.vbini AND %[[WA]], 255 : i32 -> %[[WA]]
// CHECK-NEXT: emit.vbini SUB %[[WA]], 128 : i32 -> %[[WA]]
// CHECK-NEXT: emit.cast %[[WA]] -> %[[A]] : <lm, 1x12xi32, strides = [64, 4]> -> <lm, 1x12xi8, strides = [32, 1]>
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.vbin ADD
// TINY-NEXT:  emit.vbini ADD %{{.*}}, 128 : i32
// TINY-NEXT:  emit.vbini AND %{{.*}}, 255 : i32
// TINY-NEXT:  emit.vbini SUB %{{.*}}, 128 : i32
func.func @main(%x: tensor<3x4xi8> {graph.name = "x"}, %y: tensor<3x4xi8> {graph.name = "y"}) -> (tensor<3x4xi8> {graph.name = "sum"}) {
  %0 = graph.add %x, %y : (tensor<3x4xi8>, tensor<3x4xi8>) -> tensor<3x4xi8>
  return %0 : tensor<3x4xi8>
}

// -----

// An int64 constant int32 cannot hold is an error at the op that takes it
// (its int32 storage would change the value).
func.func @main(%x: tensor<4xi64> {graph.name = "x"}) -> (tensor<4xi64> {graph.name = "y"}) {
  %c = graph.constant dense<[1, -2147483648, 2147483648, 2147483647]> : tensor<4xi64>
  // expected-error @+1 {{'qk.binary' op takes the 'i64' constant 2147483648, outside int32, the type 'i64' is narrowed to on the NPU}}
  %0 = graph.add %x, %c : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// The int32 limits themselves are kept, narrowed to i32 in CONST.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.constant dense<[1, -2147483648, 2147483647, 3]> : tensor<4xi32> : <const, 4xi32, strides = [4]>
// CHECK:      emit.vbin ADD {{.*}} : <lm, 1x4xi32, strides = [32, 4]>, <lm, 1x4xi32, strides = [32, 4]> -> <lm, 1x4xi32, strides = [32, 4]>
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.constant dense<[1, -2147483648, 2147483647, 3]> : tensor<4xi32>
func.func @main(%x: tensor<4xi64> {graph.name = "x"}) -> (tensor<4xi64> {graph.name = "y"}) {
  %c = graph.constant dense<[1, -2147483648, 2147483647, 3]> : tensor<4xi64>
  %0 = graph.add %x, %c : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// A uint32 constant is zero-extended, so 4294967295 is outside int32 too
// (not -1).
func.func @main(%x: tensor<4xui32> {graph.name = "x"}) -> (tensor<4xui32> {graph.name = "y"}) {
  %c = graph.constant dense<[1, 2, 4294967295, 3]> : tensor<4xui32>
  // expected-error @+1 {{'qk.binary' op takes the 'ui32' constant 4294967295, outside int32, the type 'ui32' is narrowed to on the NPU}}
  %0 = graph.add %x, %c : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

// A constant returned as it is, outside int32: an error at the constant (it
// is copied to the output, not taken by an op).
func.func @main(%x: tensor<3xi64> {graph.name = "x"}) -> (tensor<3xi64> {graph.name = "y"}) {
  // expected-error @+1 {{graph output 0 is the 'i64' constant value 4294967296, outside int32, the type it is stored as on the NPU}}
  %c = graph.constant dense<[1, 4294967296, -5]> : tensor<3xi64>
  return %c : tensor<3xi64>
}

// -----

// uint16 Add, stored as i32: the sum wraps to 16 bits (AND 65535).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.vbin ADD %[[A:.*]], %{{.*}} -> %[[A]] : <lm, 1x4xi32
// CHECK-NEXT: emit.vbini AND %[[A]], 65535 : i32 -> %[[A]]
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.vbini AND %{{.*}}, 65535 : i32
func.func @main(%x: tensor<4xui16> {graph.name = "x"}, %y: tensor<4xui16> {graph.name = "y"}) -> (tensor<4xui16> {graph.name = "z"}) {
  %0 = graph.add %x, %y : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xui16>
  return %0 : tensor<4xui16>
}

// -----

// ArgMax of a [512, 2048] f32 tensor fits LM on both targets: the estimate
// counts the mask at the i32 indices' pitch (4 bytes an element).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.reduce MIN cols
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.reduce MIN cols
func.func @main(%x: tensor<512x2048xf32> {graph.name = "x"}) -> (tensor<512x1xi64> {graph.name = "i"}) {
  %0 = qk.arg_reduce %x {fn = #qk.reduce_fn<MAX>, axis = 1 : i64, keepdims = true, select_last_index = false} : (tensor<512x2048xf32>) -> tensor<512x1xi64>
  return %0 : tensor<512x1xi64>
}

// -----

// BitwiseNot of uint8 XORs each u8 byte with 255 (~x of the type's width,
// in range); of int16 with -1; BitwiseAnd of int32 is V_BIN AND on the i32
// storage.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.vbini XOR %{{.*}}, 255 : i32 -> %{{.*}} : <lm, {{.*}}xui8
// CHECK:      emit.vbini XOR %{{.*}}, -1 : i32 -> %{{.*}} : <lm, {{.*}}xi16
// CHECK:      emit.vbin AND {{.*}} : <lm, {{.*}}xi32
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.vbini XOR %{{.*}}, 255 : i32
func.func @main(%x: tensor<2x8xui8> {graph.name = "x"}, %y: tensor<3x5xi16> {graph.name = "y"}, %a: tensor<4x6xi32> {graph.name = "a"}, %b: tensor<6xi32> {graph.name = "b"}) -> (tensor<2x8xui8> {graph.name = "nx"}, tensor<3x5xi16> {graph.name = "ny"}, tensor<4x6xi32> {graph.name = "ab"}) {
  %0 = graph.not %x : (tensor<2x8xui8>) -> tensor<2x8xui8>
  %1 = graph.not %y : (tensor<3x5xi16>) -> tensor<3x5xi16>
  %2 = graph.and %a, %b : (tensor<4x6xi32>, tensor<6xi32>) -> tensor<4x6xi32>
  return %0, %1, %2 : tensor<2x8xui8>, tensor<3x5xi16>, tensor<4x6xi32>
}
