// Round trip of every emit op and type, in the custom form and through the
// generic form. Inside an op's custom form the printer elides the `!emit.`
// prefix of emit types, so those CHECK lines start at the `<`.
// RUN: npuc-opt %s -split-input-file | npuc-opt -split-input-file | FileCheck %s
// RUN: npuc-opt %s -split-input-file --mlir-print-op-generic | npuc-opt -split-input-file | FileCheck %s

// CHECK-LABEL: emit.program target "npu-v1" {
emit.program target "npu-v1" {
  // Every memory space; offset is optional until memory planning.
  // CHECK: %[[CST:.*]] = emit.alloc {offset = 0 : i64} : <const, 16xi8, strides = [1]>
  %cst = emit.alloc {offset = 0} : !emit.buffer<const, 16xi8, strides = [1]>
  // CHECK: emit.alloc {offset = 4096 : i64} : <arena, 2x3x4xf32, strides = [48, 16, 4]>
  %arena = emit.alloc {offset = 4096} : !emit.buffer<arena, 2x3x4xf32, strides = [48, 16, 4]>
  // CHECK: %[[IN:.*]] = emit.alloc : <input, 3x7xi8, strides = [7, 1]>
  %in = emit.alloc : !emit.buffer<input, 3x7xi8, strides = [7, 1]>
  // CHECK: %[[OUT:.*]] = emit.alloc : <output, 4x4xi32, strides = [16, 4]>
  %out = emit.alloc : !emit.buffer<output, 4x4xi32, strides = [16, 4]>
  // CHECK: emit.alloc : <state, 8xf16, strides = [2]>
  %state = emit.alloc : !emit.buffer<state, 8xf16, strides = [2]>
  // CHECK: %[[LM:.*]] = emit.alloc {offset = 64 : i64} : <lm, 5x9xi8, strides = [32, 1]>
  %lm = emit.alloc {offset = 64} : !emit.buffer<lm, 5x9xi8, strides = [32, 1]>
  // CHECK: %[[ACC:.*]] = emit.alloc {offset = 0 : i64} : <acc, 4x4xi32, strides = [32, 4]>
  %acc = emit.alloc {offset = 0} : !emit.buffer<acc, 4x4xi32, strides = [32, 4]>
  // CHECK: emit.alloc {offset = 1024 : i64} : <lut, 512xi16, strides = [2]>
  %lut = emit.alloc {offset = 1024} : !emit.buffer<lut, 512xi16, strides = [2]>
  // A zero stride is a broadcast view; rank 0 is allowed.
  // CHECK: emit.alloc : <lm, 4x32xui8, strides = [0, 1]>
  %bview = emit.alloc : !emit.buffer<lm, 4x32xui8, strides = [0, 1]>
  // CHECK: emit.alloc : <lm, i32, strides = []>
  %scalar = emit.alloc : !emit.buffer<lm, i32, strides = []>

  // CHECK: %[[F:.*]] = emit.flag : <dma_in -> dma_out>
  %f = emit.flag : !emit.flag<dma_in -> dma_out>
  // DMA_IN with padding and fill, then DMA_OUT.
  // CHECK: emit.dma %[[IN]] -> %[[LM]] {fill = -3 : i64, pad_hi = array<i64: 0, 1>, pad_lo = array<i64: 2, 1>} : <input, 3x7xi8, strides = [7, 1]> -> <lm, 5x9xi8, strides = [32, 1]>
  emit.dma %in -> %lm {pad_lo = array<i64: 2, 1>, pad_hi = array<i64: 0, 1>, fill = -3} : !emit.buffer<input, 3x7xi8, strides = [7, 1]> -> !emit.buffer<lm, 5x9xi8, strides = [32, 1]>
  // CHECK: emit.signal %[[F]] : <dma_in -> dma_out>
  emit.signal %f : !emit.flag<dma_in -> dma_out>
  // CHECK: emit.wait %[[F]] : <dma_in -> dma_out>
  emit.wait %f : !emit.flag<dma_in -> dma_out>
  // CHECK: emit.dma %[[ACC]] -> %[[OUT]] : <acc, 4x4xi32, strides = [32, 4]> -> <output, 4x4xi32, strides = [16, 4]>
  emit.dma %acc -> %out : !emit.buffer<acc, 4x4xi32, strides = [32, 4]> -> !emit.buffer<output, 4x4xi32, strides = [16, 4]>
  // CHECK: emit.barrier [#emit<engine dma_in>, #emit<engine vector>, #emit<engine dma_out>]
  emit.barrier [#emit<engine dma_in>, #emit<engine vector>, #emit<engine dma_out>]
}

// -----

// CHECK-LABEL: emit.program target "npu-v1-tiny" attributes {note = "compute"} {
emit.program target "npu-v1-tiny" attributes {note = "compute"} {
  // CHECK: %[[A:.*]] = emit.alloc : <lm, 4x8xi8, strides = [32, 1]>
  %a = emit.alloc : !emit.buffer<lm, 4x8xi8, strides = [32, 1]>
  // CHECK: %[[B:.*]] = emit.alloc : <lm, 8x2xi8, strides = [32, 1]>
  %b = emit.alloc : !emit.buffer<lm, 8x2xi8, strides = [32, 1]>
  // CHECK: %[[C:.*]] = emit.alloc : <acc, 4x2xi32, strides = [32, 4]>
  %c = emit.alloc : !emit.buffer<acc, 4x2xi32, strides = [32, 4]>
  // CHECK: %[[FA:.*]] = emit.alloc : <lm, 4x8xf16, strides = [32, 2]>
  %fa = emit.alloc : !emit.buffer<lm, 4x8xf16, strides = [32, 2]>
  // CHECK: %[[FB:.*]] = emit.alloc : <lm, 8x2xf16, strides = [32, 2]>
  %fb = emit.alloc : !emit.buffer<lm, 8x2xf16, strides = [32, 2]>
  // CHECK: %[[FC:.*]] = emit.alloc : <acc, 4x2xf32, strides = [32, 4]>
  %fc = emit.alloc : !emit.buffer<acc, 4x2xf32, strides = [32, 4]>
  // CHECK: %[[ROW:.*]] = emit.alloc : <acc, 1x2xi32, strides = [0, 4]>
  %row = emit.alloc : !emit.buffer<acc, 1x2xi32, strides = [0, 4]>

  // CHECK: emit.matmul %[[A]], %[[B]] -> %[[C]] {a_zp = -128 : i64, accumulate, b_zp = 255 : i64} : <lm, 4x8xi8, strides = [32, 1]>, <lm, 8x2xi8, strides = [32, 1]> -> <acc, 4x2xi32, strides = [32, 4]>
  emit.matmul %a, %b -> %c {accumulate, a_zp = -128, b_zp = 255} : !emit.buffer<lm, 4x8xi8, strides = [32, 1]>, !emit.buffer<lm, 8x2xi8, strides = [32, 1]> -> !emit.buffer<acc, 4x2xi32, strides = [32, 4]>
  // Default zero points are not printed.
  // CHECK: emit.matmul %[[FA]], %[[FB]] -> %[[FC]] : <lm, 4x8xf16, strides = [32, 2]>, <lm, 8x2xf16, strides = [32, 2]> -> <acc, 4x2xf32, strides = [32, 4]>
  emit.matmul %fa, %fb -> %fc : !emit.buffer<lm, 4x8xf16, strides = [32, 2]>, !emit.buffer<lm, 8x2xf16, strides = [32, 2]> -> !emit.buffer<acc, 4x2xf32, strides = [32, 4]>
  // b broadcasts a [1, cols] row by address.
  // CHECK: emit.vbin ADD %[[C]], %[[ROW]] -> %[[C]] : <acc, 4x2xi32, strides = [32, 4]>, <acc, 1x2xi32, strides = [0, 4]> -> <acc, 4x2xi32, strides = [32, 4]>
  emit.vbin ADD %c, %row -> %c : !emit.buffer<acc, 4x2xi32, strides = [32, 4]>, !emit.buffer<acc, 1x2xi32, strides = [0, 4]> -> !emit.buffer<acc, 4x2xi32, strides = [32, 4]>
  // CHECK: emit.vbin SRA %[[C]], %[[C]] -> %[[C]] : <acc, 4x2xi32, strides = [32, 4]>, <acc, 4x2xi32, strides = [32, 4]> -> <acc, 4x2xi32, strides = [32, 4]>
  emit.vbin SRA %c, %c -> %c : !emit.buffer<acc, 4x2xi32, strides = [32, 4]>, !emit.buffer<acc, 4x2xi32, strides = [32, 4]> -> !emit.buffer<acc, 4x2xi32, strides = [32, 4]>
}

// -----

// CHECK-LABEL: emit.program target "npu-v1" {
emit.program target "npu-v1" {
  // CHECK: %[[F:.*]] = emit.flag : <matrix -> vector>
  %f = emit.flag : !emit.flag<matrix -> vector>
  // CHECK: emit.signal %[[F]] : <matrix -> vector>
  emit.signal %f : !emit.flag<matrix -> vector>
  // CHECK: emit.wait %[[F]] : <matrix -> vector>
  emit.wait %f : !emit.flag<matrix -> vector>
  // CHECK: emit.barrier [#emit<engine matrix>]
  emit.barrier [#emit<engine matrix>]
}

// -----

// A signal inside a tile loop satisfies a wait after it.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK: emit.for
// CHECK: emit.signal
// CHECK: emit.wait
emit.program target "npu-v1" {
  %f = emit.flag : !emit.flag<matrix -> vector>
  emit.for %t basis [2] range [0, 2) {
    emit.signal %f : !emit.flag<matrix -> vector>
  }
  emit.wait %f : !emit.flag<matrix -> vector>
}

// -----

// V_CMP writes an i8 0/1 mask from two operands of one type, b broadcast
// like vbin's; V_SEL picks a where the mask is nonzero, else b, each of a
// and b broadcast, the mask read with d's row pitch (here a [4, 8] f32 tile
// of 64-byte pitch and a mask of the same pitch). Operands may be in acc
// (i32 or f32 only: the masks stay in lm); a one-row mask's pitch is never
// used, so it may differ from d's.
// CHECK-LABEL: emit.program target "npu-v1" {
emit.program target "npu-v1" {
  // CHECK: %[[X:.*]] = emit.alloc : <lm, 4x8xf32, strides = [64, 4]>
  %x = emit.alloc : !emit.buffer<lm, 4x8xf32, strides = [64, 4]>
  // CHECK: %[[COL:.*]] = emit.alloc : <lm, 4x1xf32, strides = [32, 4]>
  %col = emit.alloc : !emit.buffer<lm, 4x1xf32, strides = [32, 4]>
  // CHECK: %[[M:.*]] = emit.alloc : <lm, 4x8xi8, strides = [64, 1]>
  %m = emit.alloc : !emit.buffer<lm, 4x8xi8, strides = [64, 1]>
  // CHECK: %[[ROW:.*]] = emit.alloc : <lm, 1x8xf32, strides = [32, 4]>
  %row = emit.alloc : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  // CHECK: %[[ONE:.*]] = emit.alloc : <lm, 1x1xf32, strides = [32, 4]>
  %one = emit.alloc : !emit.buffer<lm, 1x1xf32, strides = [32, 4]>
  // CHECK: %[[C:.*]] = emit.alloc : <acc, 1x8xi32, strides = [32, 4]>
  %c = emit.alloc : !emit.buffer<acc, 1x8xi32, strides = [32, 4]>
  // CHECK: %[[M1:.*]] = emit.alloc : <lm, 1x8xi8, strides = [8, 1]>
  %m1 = emit.alloc : !emit.buffer<lm, 1x8xi8, strides = [8, 1]>

  // CHECK: emit.vcmp EQ %[[X]], %[[COL]] -> %[[M]] : <lm, 4x8xf32, strides = [64, 4]>, <lm, 4x1xf32, strides = [32, 4]> -> <lm, 4x8xi8, strides = [64, 1]>
  emit.vcmp EQ %x, %col -> %m : !emit.buffer<lm, 4x8xf32, strides = [64, 4]>, !emit.buffer<lm, 4x1xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x8xi8, strides = [64, 1]>
  // CHECK: emit.vcmp NE %[[X]], %[[ONE]] -> %[[M]] : <lm, 4x8xf32, strides = [64, 4]>, <lm, 1x1xf32, strides = [32, 4]> -> <lm, 4x8xi8, strides = [64, 1]>
  emit.vcmp NE %x, %one -> %m : !emit.buffer<lm, 4x8xf32, strides = [64, 4]>, !emit.buffer<lm, 1x1xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x8xi8, strides = [64, 1]>
  // CHECK: emit.vcmp GE %[[C]], %[[C]] -> %[[M1]] : <acc, 1x8xi32, strides = [32, 4]>, <acc, 1x8xi32, strides = [32, 4]> -> <lm, 1x8xi8, strides = [8, 1]>
  emit.vcmp GE %c, %c -> %m1 : !emit.buffer<acc, 1x8xi32, strides = [32, 4]>, !emit.buffer<acc, 1x8xi32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xi8, strides = [8, 1]>
  // CHECK: emit.vsel %[[M]] ? %[[X]] : %[[ONE]] -> %[[X]] : <lm, 4x8xi8, strides = [64, 1]>, <lm, 4x8xf32, strides = [64, 4]>, <lm, 1x1xf32, strides = [32, 4]> -> <lm, 4x8xf32, strides = [64, 4]>
  emit.vsel %m ? %x : %one -> %x : !emit.buffer<lm, 4x8xi8, strides = [64, 1]>, !emit.buffer<lm, 4x8xf32, strides = [64, 4]>, !emit.buffer<lm, 1x1xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x8xf32, strides = [64, 4]>
  // CHECK: emit.vsel %[[M]] ? %[[ROW]] : %[[COL]] -> %[[X]] : <lm, 4x8xi8, strides = [64, 1]>, <lm, 1x8xf32, strides = [32, 4]>, <lm, 4x1xf32, strides = [32, 4]> -> <lm, 4x8xf32, strides = [64, 4]>
  emit.vsel %m ? %row : %col -> %x : !emit.buffer<lm, 4x8xi8, strides = [64, 1]>, !emit.buffer<lm, 1x8xf32, strides = [32, 4]>, !emit.buffer<lm, 4x1xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x8xf32, strides = [64, 4]>
  // CHECK: emit.vsel %[[M1]] ? %[[C]] : %[[C]] -> %[[C]] : <lm, 1x8xi8, strides = [8, 1]>, <acc, 1x8xi32, strides = [32, 4]>, <acc, 1x8xi32, strides = [32, 4]> -> <acc, 1x8xi32, strides = [32, 4]>
  emit.vsel %m1 ? %c : %c -> %c : !emit.buffer<lm, 1x8xi8, strides = [8, 1]>, !emit.buffer<acc, 1x8xi32, strides = [32, 4]>, !emit.buffer<acc, 1x8xi32, strides = [32, 4]> -> !emit.buffer<acc, 1x8xi32, strides = [32, 4]>
}
