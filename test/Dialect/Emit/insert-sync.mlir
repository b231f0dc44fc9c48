// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-insert-sync))' | FileCheck %s

// A DMA_IN load read by VECTOR (read after write): the flag is set on DMA_IN
// right before the reader and waited on by VECTOR; the second vector op on the
// same bytes needs nothing more (same engine, already ordered). DMA_OUT then
// reads what VECTOR wrote.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.dma %{{.*}} -> %[[T:.*]] :
// CHECK-NEXT: %[[F:.*]] = emit.flag {id = 0 : i64} : <dma_in -> vector>
// CHECK-NEXT: emit.signal %[[F]]
// CHECK-NEXT: emit.wait %[[F]]
// CHECK-NEXT: emit.vbini ADD
// CHECK-NEXT: emit.vbini MUL
// CHECK-NEXT: %[[G:.*]] = emit.flag {id = 0 : i64} : <vector -> dma_out>
// CHECK-NEXT: emit.signal %[[G]]
// CHECK-NEXT: emit.wait %[[G]]
// CHECK-NEXT: emit.dma
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 1x8xf32, strides = [32, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 1x8xf32, strides = [32, 4]>
  %t = emit.alloc {offset = 0} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %in -> %t : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.vbini ADD %t, 1.0 : f32 -> %t : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.vbini MUL %t, 2.0 : f32 -> %t : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %t -> %out : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
}

// -----

// Write after read: a second load into the same LM bytes must wait until the
// VECTOR reader of the first is done (VECTOR -> DMA_IN), and loads into
// disjoint bytes need no flag at all. The signal is issued right after its
// producer, not before the consumer, so VECTOR sets it when the reader is done
// and not after whatever VECTOR runs later.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.dma
// CHECK:      emit.vun NEG
// CHECK-NEXT: %[[W:.*]] = emit.flag {id = 0 : i64} : <vector -> dma_in>
// CHECK-NEXT: emit.signal %[[W]]
// CHECK-NEXT: emit.dma %{{.*}} -> %{{.*}} : <input, 1x8xf32, strides = [32, 4]> -> <lm, 1x8xf32, strides = [32, 4]>
// CHECK-NEXT: emit.wait %[[W]]
// CHECK-NEXT: emit.dma
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 1x8xf32, strides = [32, 4]>
  %a = emit.alloc {offset = 0} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %b = emit.alloc {offset = 64} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %c = emit.alloc {offset = 128} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %in -> %a : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.vun NEG %a -> %b : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %in -> %c : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %in -> %a : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
}

// -----

// Out of flags: on npu-v1-tiny (2 flags per engine pair) each of three loads
// into disjoint buffers is read by VECTOR before the next load, and DMA_IN
// never learns that VECTOR consumed a flag (nothing orders DMA_IN after
// VECTOR). Flags 0 and 1 are used; a third signal on flag 0 could come before
// VECTOR's first wait has run (a lost signal), so a barrier drains VECTOR first
// and flag 0 is reused after it.
// CHECK-LABEL: emit.program target "npu-v1-tiny"
// CHECK:      emit.flag {id = 0 : i64} : <dma_in -> vector>
// CHECK:      emit.vun NEG
// CHECK:      emit.flag {id = 1 : i64} : <dma_in -> vector>
// CHECK:      emit.vun NEG
// CHECK:      emit.dma
// CHECK-NEXT: emit.barrier [#emit<engine vector>]
// CHECK-NEXT: emit.flag {id = 0 : i64} : <dma_in -> vector>
// CHECK:      emit.vun NEG
emit.program target "npu-v1-tiny" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 1x8xf32, strides = [32, 4]>
  %a = emit.alloc {offset = 0} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %b = emit.alloc {offset = 64} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %c = emit.alloc {offset = 128} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %d = emit.alloc {offset = 192} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %in -> %a : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.vun NEG %a -> %d : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %in -> %b : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.vun NEG %b -> %d : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %in -> %c : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.vun NEG %c -> %d : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
}

// -----

// A repeated matmul reads every iteration's operands: a later load into the
// third channel's block (bytes 128..) must wait for MATRIX, although the
// first iteration's view covers only bytes 0..36.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.matmul
// CHECK-NEXT: %[[F:.*]] = emit.flag {id = 0 : i64} : <matrix -> dma_in>
// CHECK-NEXT: emit.signal %[[F]]
// CHECK-NEXT: emit.view
// CHECK-NEXT: emit.wait %[[F]]
// CHECK-NEXT: emit.dma
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 36xi8, strides = [1]>
  %a = emit.alloc {offset = 0} : !emit.buffer<lm, 3x64xi8, strides = [64, 1]>
  %w = emit.alloc {offset = 192} : !emit.buffer<lm, 3x64xi8, strides = [64, 1]>
  %c = emit.alloc {offset = 0} : !emit.buffer<acc, 3x16xi32, strides = [64, 4]>
  %a0 = emit.view %a[0] : !emit.buffer<lm, 3x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 4x9xi8, strides = [9, 1]>
  %w0 = emit.view %w[0] : !emit.buffer<lm, 3x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 9x1xi8, strides = [1, 1]>
  %c0 = emit.view %c[0] : !emit.buffer<acc, 3x16xi32, strides = [64, 4]> -> !emit.buffer<acc, 4x1xi32, strides = [4, 4]>
  emit.matmul %a0, %w0 -> %c0 {count = 3, a_step = 64, b_step = 64, c_step = 64} : !emit.buffer<lm, 4x9xi8, strides = [9, 1]>, !emit.buffer<lm, 9x1xi8, strides = [1, 1]> -> !emit.buffer<acc, 4x1xi32, strides = [4, 4]>
  %a2 = emit.view %a[128] : !emit.buffer<lm, 3x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 36xi8, strides = [1]>
  emit.dma %in -> %a2 : !emit.buffer<input, 36xi8, strides = [1]> -> !emit.buffer<lm, 36xi8, strides = [1]>
}

// -----

// The signal follows its producer: the second VECTOR op reads the first load
// only, so VECTOR waits on a flag DMA_IN sets right after that load, before
// the unrelated second load. Placed before the consumer instead, DMA_IN would
// set it after the second load, and VECTOR would wait for that one too.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.dma %{{.*}} -> %[[A:[^ ]*]] :
// CHECK-NEXT: %[[F:.*]] = emit.flag {id = 0 : i64} : <dma_in -> vector>
// CHECK-NEXT: emit.signal %[[F]]
// CHECK-NEXT: emit.dma %{{.*}} -> %[[B:[^ ]*]] :
// CHECK-NEXT: emit.wait %[[F]]
// CHECK-NEXT: emit.vun NEG %[[A]]
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 1x8xf32, strides = [32, 4]>
  %a = emit.alloc {offset = 0} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %b = emit.alloc {offset = 64} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %c = emit.alloc {offset = 128} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %in -> %a : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %in -> %b : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.vun NEG %a -> %c : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
}
