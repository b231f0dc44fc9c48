// emit-elide-reloads: a load that copies the same GM bytes the same way into
// the same local bytes as an earlier one, with nothing in between writing
// either side, is removed; anything that writes them keeps the next load.
// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-elide-reloads{remarks=1}))' -verify-diagnostics | FileCheck %s

// The weights of a channel tile, loaded into one slot by two row tiles, and
// read by each: the second load goes, the second reader reads what the first
// load left.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.dma %[[W:.*]] -> %[[T:.*]] :
// CHECK-NEXT: emit.vun RELU %[[T]]
// CHECK-NEXT: emit.vun RELU %[[T]]
// CHECK-NOT:  emit.dma
// expected-remark @below {{1 of 2 loads copy bytes already in place and are removed}}
emit.program target "npu-v1" {
  %w = emit.constant dense<1.0> : tensor<1x16xf32> {offset = 0} : !emit.buffer<const, 1x16xf32, strides = [64, 4]>
  %t = emit.alloc {offset = 0} : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  %o = emit.alloc {offset = 64} : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  emit.dma %w -> %t : !emit.buffer<const, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  emit.vun RELU %t -> %o : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  emit.dma %w -> %t : !emit.buffer<const, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  emit.vun RELU %t -> %o : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
}

// -----

// Kept: the tile written in between (VECTOR, into the loaded bytes), the
// source written in between (DMA_OUT into the arena bytes it reads), and a
// copy of the same bytes in another shape.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK-COUNT-6: emit.dma
// expected-remark @below {{0 of 5 loads copy bytes already in place and are removed}}
emit.program target "npu-v1" {
  %g = emit.alloc {offset = 0} : !emit.buffer<arena, 1x16xf32, strides = [64, 4]>
  %t = emit.alloc {offset = 0} : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  %u = emit.alloc {offset = 64} : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  %v = emit.view %t[0] : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
  %h = emit.view %g[0] : !emit.buffer<arena, 1x16xf32, strides = [64, 4]> -> !emit.buffer<arena, 2x8xf32, strides = [32, 4]>
  emit.dma %g -> %t : !emit.buffer<arena, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  emit.vun RELU %u -> %t : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  emit.dma %g -> %t : !emit.buffer<arena, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  emit.dma %u -> %g : !emit.buffer<lm, 1x16xf32, strides = [64, 4]> -> !emit.buffer<arena, 1x16xf32, strides = [64, 4]>
  emit.dma %g -> %t : !emit.buffer<arena, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  emit.dma %h -> %v : !emit.buffer<arena, 2x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
  emit.dma %g -> %t : !emit.buffer<arena, 1x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
}
