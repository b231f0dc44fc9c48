// RUN: npuc-opt %s -split-input-file --pass-pipeline="builtin.module(select-tiling,convert-qk-to-emit,emit.program(emit-multi-buffer,emit-pipeline,emit-lower-loops))" -verify-diagnostics | FileCheck %s
// RUN: npuc-opt %s -split-input-file --pass-pipeline="builtin.module(set-target{target=npu-v1-tiny},select-tiling,convert-qk-to-emit,emit.program(emit-multi-buffer,emit-pipeline,emit-lower-loops))" -verify-diagnostics | FileCheck %s --check-prefix=TINY

// LayerNormalization (NormKernels.cpp) is one row kernel in ONNX's steps, in
// f32: mean = sum(x) / r, d = x - mean, corrected by the mean of d (so a
// row of equal values has d = 0 exactly), var = sum(d * d) / r,
// inv = 1 / sqrt(var + epsilon), y = d * inv * scale + bias. The [4, 32]
// input is one tile of whole rows; scale and bias are [1, 32] rows broadcast
// along the tile's rows; Mean, returned, is stored from its [4, 1] tile;
// InvStdDev, unused, is not stored.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[X:.*]] = emit.alloc {name = "x", offset = 0 : i64} : <input, 4x32xf32, strides = [128, 4]>
// CHECK:      %[[W:.*]] = emit.alloc {name = "w", offset = 512 : i64} : <input, 32xf32, strides = [4]>
// CHECK:      %[[B:.*]] = emit.alloc {name = "b", offset = 640 : i64} : <input, 32xf32, strides = [4]>
// CHECK:      %[[Y:.*]] = emit.alloc {name = "y", offset = 0 : i64} : <output, 4x32xf32, strides = [128, 4]>
// CHECK-NEXT: %[[MO:.*]] = emit.alloc {name = "mean", offset = 512 : i64} : <output, 4x1xf32, strides = [4, 4]>
// CHECK-NEXT: %[[F:.*]] = emit.alloc : <lm, 4x32xf32, strides = [128, 4]>
// CHECK-NEXT: emit.dma %[[X]] -> %[[F]]
// CHECK-NEXT: %[[M:.*]] = emit.alloc : <lm, 4x1xf32, strides = [32, 4]>
// CHECK-NEXT: emit.reduce SUM cols %[[F]] -> %[[M]]
// CHECK-NEXT: emit.vbini DIV %[[M]], 3.200000e+01 : f32 -> %[[M]]
// CHECK-NEXT: emit.vbin SUB %[[F]], %[[M]] -> %[[F]]
// CHECK-NEXT: %[[C:.*]] = emit.alloc : <lm, 4x1xf32, strides = [32, 4]>
// CHECK-NEXT: emit.reduce SUM cols %[[F]] -> %[[C]]
// CHECK-NEXT: emit.vbini DIV %[[C]], 3.200000e+01 : f32 -> %[[C]]
// CHECK-NEXT: emit.vbin SUB %[[F]], %[[C]] -> %[[F]]
// CHECK-NEXT: emit.vbin ADD %[[M]], %[[C]] -> %[[M]]
// CHECK-NEXT: %[[SQ:.*]] = emit.alloc : <lm, 4x32xf32, strides = [128, 4]>
// CHECK-NEXT: emit.vbin MUL %[[F]], %[[F]] -> %[[SQ]]
// CHECK-NEXT: %[[S:.*]] = emit.alloc : <lm, 4x1xf32, strides = [32, 4]>
// CHECK-NEXT: emit.reduce SUM cols %[[SQ]] -> %[[S]]
// CHECK-NEXT: emit.vbini DIV %[[S]], 3.200000e+01 : f32 -> %[[S]]
// CHECK-NEXT: emit.vbini ADD %[[S]], 9.99999974E-6 : f32 -> %[[S]]
// CHECK-NEXT: emit.vun SQRT %[[S]] -> %[[S]]
// CHECK-NEXT: emit.vun RECIP %[[S]] -> %[[S]]
// CHECK-NEXT: emit.vbin MUL %[[F]], %[[S]] -> %[[F]]
// CHECK-NEXT: %[[WT:.*]] = emit.alloc : <lm, 1x32xf32, strides = [128, 4]>
// CHECK-NEXT: %[[WV:.*]] = emit.view %[[W]][0] : <input, 32xf32, strides = [4]> -> <input, 1x32xf32, strides = [128, 4]>
// CHECK-NEXT: emit.dma %[[WV]] -> %[[WT]]
// CHECK-NEXT: emit.vbin MUL %[[F]], %[[WT]] -> %[[F]]
// CHECK-NEXT: %[[BT:.*]] = emit.alloc : <lm, 1x32xf32, strides = [128, 4]>
// CHECK-NEXT: %[[BV:.*]] = emit.view %[[B]][0] : <input, 32xf32, strides = [4]> -> <input, 1x32xf32, strides = [128, 4]>
// CHECK-NEXT: emit.dma %[[BV]] -> %[[BT]]
// CHECK-NEXT: emit.vbin ADD %[[F]], %[[BT]] -> %[[F]]
// CHECK-NEXT: emit.dma %[[F]] -> %[[Y]] : <lm, 4x32xf32, strides = [128, 4]> -> <output, 4x32xf32, strides = [128, 4]>
// CHECK-NEXT: emit.dma %[[M]] -> %[[MO]] : <lm, 4x1xf32, strides = [32, 4]> -> <output, 4x1xf32, strides = [4, 4]>
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.reduce SUM cols
// TINY:       emit.vun RECIP
// TINY:       emit.dma %{{.*}} -> %{{.*}} : <lm, 4x1xf32, strides = [32, 4]> -> <output, 4x1xf32, strides = [4, 4]>
// TINY-NEXT:  }
func.func @main(%x: tensor<4x32xf32> {graph.name = "x"}, %w: tensor<32xf32> {graph.name = "w"}, %b: tensor<32xf32> {graph.name = "b"}) -> (tensor<4x32xf32> {graph.name = "y"}, tensor<4x1xf32> {graph.name = "mean"}) {
  %y, %mean, %inv = qk.layer_norm %x, %w, %b {axis = 1 : i64, epsilon = 9.99999974E-6 : f32} : (tensor<4x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x32xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  return %y, %mean : tensor<4x32xf32>, tensor<4x1xf32>
}

// -----

// Neither statistic used, no bias, a one-value scale: the scale is a [1, 1]
// tile (broadcast by VECTOR); after the MUL by the scale nothing but the
// result's store: no ADD, no second DMA out.
// The scale constant is declared before the tile loop (here unrolled), not
// inside it.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[Y:.*]] = emit.alloc {name = "y", offset = 0 : i64} : <output, 4x32xf32, strides = [128, 4]>
// CHECK-NOT:  <output
// CHECK:      %[[C:.*]] = emit.constant dense<2.000000e+00> : tensor<1xf32>
// CHECK:      emit.reduce SUM cols
// CHECK:      emit.vbini ADD %{{.*}}, 1.000000e-03 : f32
// CHECK:      emit.vun SQRT
// CHECK-NEXT: emit.vun RECIP
// CHECK-NEXT: emit.vbin MUL %[[F:.*]], %{{.*}} -> %[[F]]
// CHECK-NEXT: %[[CT:.*]] = emit.alloc : <lm, 1x1xf32, strides = [32, 4]>
// CHECK-NEXT: %[[CV:.*]] = emit.view %[[C]][0]
// CHECK-NEXT: emit.dma %[[CV]] -> %[[CT]]
// CHECK-NEXT: emit.vbin MUL %[[F]], %[[CT]] -> %[[F]] : <lm, 4x32xf32, strides = [128, 4]>, <lm, 1x1xf32, strides = [32, 4]>
// CHECK-NEXT: emit.dma %[[F]] -> %[[Y]]
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY-NOT:   emit.vbin ADD
// TINY:       emit.dma %{{.*}} -> %{{.*}} : <lm, 4x32xf32, strides = [128, 4]> -> <output, 4x32xf32, strides = [128, 4]>
// TINY-NEXT:  }
func.func @main(%x: tensor<4x32xf32> {graph.name = "x"}) -> (tensor<4x32xf32> {graph.name = "y"}) {
  %w = graph.constant dense<2.0> : tensor<1xf32>
  %y, %mean, %inv = qk.layer_norm %x, %w {axis = 1 : i64, epsilon = 1.0e-03 : f32} : (tensor<4x32xf32>, tensor<1xf32>) -> (tensor<4x32xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  return %y : tensor<4x32xf32>
}

// -----

// Rows over several tiles, both statistics returned: each tile stores its
// rows of Mean and of InvStdDev at 4 bytes a row. npu-v1 takes 8 tiles of 8
// rows (32 bytes of each statistic apart); npu-v1-tiny 16 tiles of 4 rows
// (the last at byte 240).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      %[[MO:.*]] = emit.alloc {name = "mean", offset = 262144 : i64} : <output, 64x1xf32, strides = [4, 4]>
// CHECK-NEXT: %[[IO:.*]] = emit.alloc {name = "inv", offset = 262400 : i64} : <output, 64x1xf32, strides = [4, 4]>
// CHECK:      emit.view %[[MO]][0] : <output, 64x1xf32, strides = [4, 4]> -> <output, 8x1xf32, strides = [4, 4]>
// CHECK:      emit.view %[[IO]][0] : <output, 64x1xf32, strides = [4, 4]> -> <output, 8x1xf32, strides = [4, 4]>
// CHECK:      emit.view %[[MO]][32] : <output, 64x1xf32, strides = [4, 4]> -> <output, 8x1xf32, strides = [4, 4]>
// CHECK:      emit.view %[[IO]][32] : <output, 64x1xf32, strides = [4, 4]> -> <output, 8x1xf32, strides = [4, 4]>
// CHECK:      emit.view %[[MO]][224] : <output, 64x1xf32, strides = [4, 4]> -> <output, 8x1xf32, strides = [4, 4]>
// CHECK:      emit.view %[[IO]][224] : <output, 64x1xf32, strides = [4, 4]> -> <output, 8x1xf32, strides = [4, 4]>
// CHECK-NEXT: emit.dma
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       %[[MO:.*]] = emit.alloc {name = "mean", offset = 262144 : i64}
// TINY-NEXT:  %[[IO:.*]] = emit.alloc {name = "inv", offset = 262400 : i64}
// TINY:       emit.view %[[MO]][0] : <output, 64x1xf32, strides = [4, 4]> -> <output, 4x1xf32, strides = [4, 4]>
// TINY:       emit.view %[[IO]][0] : <output, 64x1xf32, strides = [4, 4]> -> <output, 4x1xf32, strides = [4, 4]>
// TINY:       emit.view %[[MO]][240] : <output, 64x1xf32, strides = [4, 4]> -> <output, 4x1xf32, strides = [4, 4]>
// TINY-NEXT:  emit.dma
// TINY-NEXT:  emit.view %[[IO]][240] : <output, 64x1xf32, strides = [4, 4]> -> <output, 4x1xf32, strides = [4, 4]>
// TINY-NEXT:  emit.dma
// TINY-NEXT:  }
func.func @main(%x: tensor<64x1024xf32> {graph.name = "x"}, %w: tensor<1024xf32> {graph.name = "w"}) -> (tensor<64x1024xf32> {graph.name = "y"}, tensor<64x1xf32> {graph.name = "mean"}, tensor<64x1xf32> {graph.name = "inv"}) {
  %y, %mean, %inv = qk.layer_norm %x, %w {axis = 1 : i64, epsilon = 9.99999974E-6 : f32} : (tensor<64x1024xf32>, tensor<1024xf32>) -> (tensor<64x1024xf32>, tensor<64x1xf32>, tensor<64x1xf32>)
  return %y, %mean, %inv : tensor<64x1024xf32>, tensor<64x1xf32>, tensor<64x1xf32>
}

// -----

// ReduceL2 (ONNX's test_reduce_l2_keep_dims_example, in f32): the square
// before the SUM, the root after it, then the store.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.dma %{{.*}} -> %[[F:.*]] :
// CHECK-NEXT: emit.vbin MUL %[[F]], %[[F]] -> %[[F]]
// CHECK-NEXT: %[[O:.*]] = emit.view
// CHECK-NEXT: %[[D:.*]] = emit.alloc : <lm, 6x1xf32, strides = [32, 4]>
// CHECK-NEXT: emit.reduce SUM cols %[[F]] -> %[[D]]
// CHECK-NEXT: emit.vun SQRT %[[D]] -> %[[D]]
// CHECK-NEXT: emit.dma %[[D]] -> %[[O]]
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.vbin MUL
// TINY-NEXT:  emit.view
// TINY-NEXT:  emit.alloc
// TINY-NEXT:  emit.reduce SUM cols
// TINY-NEXT:  emit.vun SQRT
func.func @main(%x: tensor<3x2x2xf32> {graph.name = "data"}) -> (tensor<3x2x1xf32> {graph.name = "reduced"}) {
  %0 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<square>, post = #qk.reduce_post<sqrt>, axes = array<i64: 2>, keepdims = true} : (tensor<3x2x2xf32>) -> tensor<3x2x1xf32>
  return %0 : tensor<3x2x1xf32>
}

// -----

// ReduceLogSumExp, stable for any range: m = max, log(sum(exp(x - m))) + m,
// the same m added back after the LOG.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.dma %{{.*}} -> %[[F:.*]] :
// CHECK-NEXT: %[[M:.*]] = emit.alloc : <lm, 4x1xf32, strides = [32, 4]>
// CHECK-NEXT: emit.reduce MAX cols %[[F]] -> %[[M]]
// CHECK-NEXT: emit.vbin SUB %[[F]], %[[M]] -> %[[F]]
// CHECK-NEXT: emit.vun EXP %[[F]] -> %[[F]]
// CHECK-NEXT: %[[S:.*]] = emit.alloc : <lm, 4x1xf32, strides = [32, 4]>
// CHECK-NEXT: emit.reduce SUM cols %[[F]] -> %[[S]]
// CHECK-NEXT: emit.vun LOG %[[S]] -> %[[S]]
// CHECK-NEXT: emit.vbin ADD %[[S]], %[[M]] -> %[[S]]
// CHECK-NEXT: emit.dma %[[S]] -> %{{.*}} : <lm, 4x1xf32, strides = [32, 4]> -> <output, 4x1xf32, strides = [4, 4]>
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.reduce MAX cols
// TINY-NEXT:  emit.vbin SUB
// TINY-NEXT:  emit.vun EXP
// TINY-NEXT:  emit.alloc
// TINY-NEXT:  emit.reduce SUM cols
// TINY-NEXT:  emit.vun LOG
// TINY-NEXT:  emit.vbin ADD
func.func @main(%x: tensor<4x8xf32> {graph.name = "x"}) -> (tensor<4x1xf32> {graph.name = "y"}) {
  %0 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<shifted_exp>, post = #qk.reduce_post<log_plus_max>, axes = array<i64: 1>, keepdims = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// The same over a middle axis (ONNX's test_reduce_log_sum_exp_keepdims_example,
// in f32): the column layout reduces along "rows", the max and the sum
// [1, 2] per outer index.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.reduce MAX rows %[[F:.*]] -> %[[M:[^ ]*]] : <lm, 2x2xf32, {{.*}}> -> <lm, 1x2xf32
// CHECK-NEXT: emit.vbin SUB %[[F]], %[[M]] -> %[[F]]
// CHECK-NEXT: emit.vun EXP %[[F]] -> %[[F]]
// CHECK-NEXT: %[[S:.*]] = emit.view
// CHECK-NEXT: emit.reduce SUM rows %[[F]] -> %[[S]]
// CHECK-NEXT: emit.vun LOG %[[S]] -> %[[S]]
// CHECK-NEXT: emit.vbin ADD %[[S]], %[[M]] -> %[[S]]
// CHECK-COUNT-2: emit.reduce MAX rows
// CHECK-NOT:  emit.reduce MAX
// CHECK:      }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY-COUNT-3: emit.reduce MAX rows
func.func @main(%x: tensor<3x2x2xf32> {graph.name = "data"}) -> (tensor<3x1x2xf32> {graph.name = "reduced"}) {
  %0 = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<shifted_exp>, post = #qk.reduce_post<log_plus_max>, axes = array<i64: 1>, keepdims = true} : (tensor<3x2x2xf32>) -> tensor<3x1x2xf32>
  return %0 : tensor<3x1x2xf32>
}

// -----

// Pow by a constant 2 is x * x, exact: no EXP, no LOG.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.dma %{{.*}} -> %[[V:.*]] :
// CHECK-NEXT: emit.vbin MUL %[[F:.*]], %[[F]] -> %[[F]] : <lm, 1x32xf32, strides = [128, 4]>, <lm, 1x32xf32, strides = [128, 4]> -> <lm, 1x32xf32, strides = [128, 4]>
// CHECK-NOT:  emit.vun
// CHECK-NOT:  emit.vbin
// CHECK:      }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.vbin MUL
// TINY-NOT:   emit.vun EXP
// TINY:       }
func.func @main(%x: tensor<4x8xf32> {graph.name = "x"}) -> (tensor<4x8xf32> {graph.name = "y"}) {
  %two = graph.constant dense<2.0> : tensor<f32>
  %0 = qk.pow %x, %two : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Pow by a constant 0.5 (a [1] splat) is SQRT, one op.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.dma %{{.*}} -> %{{.*}} :
// CHECK-NEXT: emit.vun SQRT %[[F:.*]] -> %[[F]] : <lm, 1x32xf32, strides = [128, 4]>
// CHECK-NOT:  emit.vun
// CHECK-NOT:  emit.vbin
// CHECK:      }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.vun SQRT
// TINY-NOT:   emit.vun EXP
// TINY:       }
func.func @main(%x: tensor<4x8xf32> {graph.name = "x"}) -> (tensor<4x8xf32> {graph.name = "y"}) {
  %h = graph.constant dense<0.5> : tensor<1xf32>
  %0 = qk.pow %x, %h : (tensor<4x8xf32>, tensor<1xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Pow by a tensor (ONNX's test_pow): exp(y * log(|x| + z)), z = 1 where x
// and y are both 0; times 1 - 2 * neg * odd(y) for the sign; plus
// sqrt(-(neg * frac(y))), NaN for a negative base and a non-integer y.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <input, 1x1x1x60xf32, strides = [0, 0, 0, 4]> -> <lm, 1x1x1x60xf32
// CHECK:      emit.dma %{{.*}} -> %{{.*}} : <input, 1x1x1x60xf32, strides = [0, 0, 0, 4]> -> <lm, 1x1x1x60xf32
// CHECK:      emit.vun SIGN %[[X:[^ ]*]] -> %[[NEG:[^ ]*]]
// CHECK-NEXT: emit.vun NEG %[[NEG]] -> %[[NEG]]
// CHECK-NEXT: emit.vun RELU %[[NEG]] -> %[[NEG]]
// CHECK-NEXT: emit.vun SIGN %[[X]] -> %[[T:[^ ]*]]
// CHECK-NEXT: emit.vun ABS %[[T]] -> %[[T]]
// CHECK-NEXT: emit.vbini SUB %[[T]], 1.000000e+00 : f32 -> %[[T]]
// CHECK-NEXT: emit.vun SIGN %[[Y:[^ ]*]] -> %[[U:[^ ]*]]
// CHECK-NEXT: emit.vun ABS %[[U]] -> %[[U]]
// CHECK-NEXT: emit.vbini SUB %[[U]], 1.000000e+00 : f32 -> %[[U]]
// CHECK-NEXT: emit.vbin MUL %[[T]], %[[U]] -> %[[T]]
// CHECK-NEXT: emit.vun ABS %[[X]] -> %[[X]]
// CHECK-NEXT: emit.vbin ADD %[[X]], %[[T]] -> %[[X]]
// CHECK-NEXT: emit.vun LOG %[[X]] -> %[[X]]
// CHECK-NEXT: emit.vbin MUL %[[X]], %[[Y]] -> %[[X]]
// CHECK-NEXT: emit.vun EXP %[[X]] -> %[[X]]
// CHECK-NEXT: emit.vbini MUL %[[Y]], 5.000000e-01 : f32 -> %[[T]]
// CHECK-NEXT: emit.vun FLOOR %[[T]] -> %[[U]]
// CHECK-NEXT: emit.vbin SUB %[[T]], %[[U]] -> %[[T]]
// CHECK-NEXT: emit.vbini MUL %[[T]], 4.000000e+00 : f32 -> %[[T]]
// CHECK-NEXT: emit.vbin MUL %[[T]], %[[NEG]] -> %[[T]]
// CHECK-NEXT: emit.vbini MUL %[[T]], -1.000000e+00 : f32 -> %[[T]]
// CHECK-NEXT: emit.vbini ADD %[[T]], 1.000000e+00 : f32 -> %[[T]]
// CHECK-NEXT: emit.vbin MUL %[[X]], %[[T]] -> %[[X]]
// CHECK-NEXT: emit.vun FLOOR %[[Y]] -> %[[U]]
// CHECK-NEXT: emit.vbin SUB %[[Y]], %[[U]] -> %[[U]]
// CHECK-NEXT: emit.vbin MUL %[[U]], %[[NEG]] -> %[[U]]
// CHECK-NEXT: emit.vun NEG %[[U]] -> %[[U]]
// CHECK-NEXT: emit.vun SQRT %[[U]] -> %[[U]]
// CHECK-NEXT: emit.vbin ADD %[[X]], %[[U]] -> %[[X]]
// CHECK-NEXT: emit.view
// CHECK-NEXT: emit.view %[[X]][0]
// CHECK-NEXT: emit.dma
// CHECK-NEXT: }
// TINY-LABEL: emit.program target "npu-v1-tiny"
// TINY:       emit.vun LOG
// TINY-NEXT:  emit.vbin MUL
// TINY-NEXT:  emit.vun EXP
func.func @main(%x: tensor<3x4x5xf32> {graph.name = "x"}, %y: tensor<3x4x5xf32> {graph.name = "y"}) -> (tensor<3x4x5xf32> {graph.name = "z"}) {
  %0 = qk.pow %x, %y : (tensor<3x4x5xf32>, tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  return %0 : tensor<3x4x5xf32>
}
