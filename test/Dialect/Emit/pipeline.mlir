// emit-pipeline: the loads of iteration t + 1 go before the compute of t, in a
// prologue / kernel / epilogue of loops; where that reordering could change
// the result, the loop stays as it is, with a remark (contract S10).
// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-pipeline))' -verify-diagnostics | FileCheck %s

// Two rotating slots: prologue [0, 1) loads tile 0; the kernel [0, 3) loads
// tile t + 1 (shift 1: its input rows and its slot) before it adds and stores
// tile t; the epilogue [3, 4) adds and stores the last tile.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.for %[[P:.*]] basis [4] range [0, 1) {
// CHECK-NEXT:   emit.iter_view %{{.*}}[%[[P]]] offset 0 coeffs [32] :
// CHECK-NEXT:   emit.iter_view %{{.*}}[%[[P]]] offset 0 coeffs [0] {slot_bytes = 64 : i64, slots = 2 : i64}
// CHECK-NEXT:   emit.dma
// CHECK-NEXT: }
// CHECK-NEXT: emit.for %[[K:.*]] basis [4] range [0, 3) {
// CHECK-NEXT:   emit.iter_view %{{.*}}[%[[K]]] offset 0 coeffs [32] {shift = 1 : i64}
// CHECK-NEXT:   emit.iter_view %{{.*}}[%[[K]]] offset 0 coeffs [0] {shift = 1 : i64, slot_bytes = 64 : i64, slots = 2 : i64}
// CHECK-NEXT:   emit.dma
// CHECK-NEXT:   %[[NOW:.*]] = emit.iter_view %{{.*}}[%[[K]]] offset 0 coeffs [0] {slot_bytes = 64 : i64, slots = 2 : i64}
// CHECK-NEXT:   emit.vbini ADD %[[NOW]]
// CHECK-NEXT:   emit.iter_view %{{.*}}[%[[K]]] offset 0 coeffs [32] :
// CHECK-NEXT:   emit.dma %[[NOW]]
// CHECK-NEXT: }
// CHECK-NEXT: emit.for %[[E:.*]] basis [4] range [3, 4) {
// CHECK-NEXT:   emit.iter_view
// CHECK-NEXT:   emit.vbini ADD
// CHECK-NEXT:   emit.iter_view
// CHECK-NEXT:   emit.dma
// CHECK-NEXT: }
// CHECK-NOT:  emit.for
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x8xf32, strides = [32, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 4x8xf32, strides = [32, 4]>
  %slots = emit.alloc : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]>
  emit.for %t basis [4] range [0, 4) attributes {pipeline} {
    %tile = emit.iter_view %slots[%t] offset 0 coeffs [0] {slot_bytes = 64, slots = 2} : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %src = emit.iter_view %in[%t] offset 0 coeffs [32] : !emit.buffer<input, 4x8xf32, strides = [32, 4]> -> !emit.buffer<input, 1x8xf32, strides = [32, 4]>
    emit.dma %src -> %tile : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    emit.vbini ADD %tile, 1.0 : f32 -> %tile : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %dst = emit.iter_view %out[%t] offset 0 coeffs [32] : !emit.buffer<output, 4x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
    emit.dma %tile -> %dst : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
  }
}

// -----

// One slot: loading tile t + 1 before tile t is used would overwrite it.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.for %{{.*}} basis [4] range [0, 4) {
// CHECK-NOT:  emit.for
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x8xf32, strides = [32, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 4x8xf32, strides = [32, 4]>
  // expected-remark @+1 {{not pipelined: a load writes a tile without rotating slots (buffers = 1); the loop runs its iterations in order}}
  emit.for %t basis [4] range [0, 4) attributes {pipeline} {
    %tile = emit.alloc : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %src = emit.iter_view %in[%t] offset 0 coeffs [32] : !emit.buffer<input, 4x8xf32, strides = [32, 4]> -> !emit.buffer<input, 1x8xf32, strides = [32, 4]>
    emit.dma %src -> %tile : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %dst = emit.iter_view %out[%t] offset 0 coeffs [32] : !emit.buffer<output, 4x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
    emit.dma %tile -> %dst : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
  }
}

// -----

// In place in GM: iteration t + 1 reads what iteration t writes (a running
// prefix), so its load cannot move ahead of t's store.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.for %{{.*}} basis [3] range [0, 3) {
// CHECK-NOT:  emit.for
emit.program target "npu-v1" {
  %g = emit.alloc {offset = 0} : !emit.buffer<arena, 4x8xf32, strides = [32, 4]>
  %slots = emit.alloc : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]>
  // expected-remark @+1 {{not pipelined: a load reads a GM buffer the loop writes}}
  emit.for %t basis [3] range [0, 3) attributes {pipeline} {
    %tile = emit.iter_view %slots[%t] offset 0 coeffs [0] {slot_bytes = 64, slots = 2} : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %src = emit.iter_view %g[%t] offset 0 coeffs [32] : !emit.buffer<arena, 4x8xf32, strides = [32, 4]> -> !emit.buffer<arena, 1x8xf32, strides = [32, 4]>
    emit.dma %src -> %tile : !emit.buffer<arena, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    emit.vbini ADD %tile, 1.0 : f32 -> %tile : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %dst = emit.iter_view %g[%t] offset 32 coeffs [32] : !emit.buffer<arena, 4x8xf32, strides = [32, 4]> -> !emit.buffer<arena, 1x8xf32, strides = [32, 4]>
    emit.dma %tile -> %dst : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<arena, 1x8xf32, strides = [32, 4]>
  }
}

// -----

// Two chunks of one iteration share their tile: the second load would
// overwrite the first chunk's data before its product ran.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.for %{{.*}} basis [2] range [0, 2) {
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x8xf32, strides = [32, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 4x8xf32, strides = [32, 4]>
  %slots = emit.alloc : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]>
  // expected-remark @+1 {{not pipelined: a tile is loaded again after the iteration read it}}
  emit.for %t basis [2] range [0, 2) attributes {pipeline} {
    %tile = emit.iter_view %slots[%t] offset 0 coeffs [0] {slot_bytes = 64, slots = 2} : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %a = emit.iter_view %in[%t] offset 0 coeffs [64] : !emit.buffer<input, 4x8xf32, strides = [32, 4]> -> !emit.buffer<input, 1x8xf32, strides = [32, 4]>
    emit.dma %a -> %tile : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %d0 = emit.iter_view %out[%t] offset 0 coeffs [64] : !emit.buffer<output, 4x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
    emit.dma %tile -> %d0 : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
    %b = emit.iter_view %in[%t] offset 32 coeffs [64] : !emit.buffer<input, 4x8xf32, strides = [32, 4]> -> !emit.buffer<input, 1x8xf32, strides = [32, 4]>
    emit.dma %b -> %tile : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %d1 = emit.iter_view %out[%t] offset 32 coeffs [64] : !emit.buffer<output, 4x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
    emit.dma %tile -> %d1 : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
  }
}

// -----

// Two loads fill the two halves of one tile before anything reads it (a
// stacked image's kernel rows): both move one iteration ahead together.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.for %{{.*}} basis [2] range [0, 1) {
// CHECK-COUNT-2: emit.dma {{.*}} -> {{.*}}<lm, 1x4xf32
// CHECK:      emit.for %{{.*}} basis [2] range [0, 1) {
// CHECK-COUNT-2: emit.dma {{.*}} -> {{.*}}<lm, 1x4xf32
// CHECK:        emit.dma {{.*}} -> {{.*}}<output
// CHECK:      emit.for %{{.*}} basis [2] range [1, 2) {
// CHECK-NOT:    <lm, 1x4xf32
// CHECK:        emit.dma {{.*}} -> {{.*}}<output
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 2x8xf32, strides = [32, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 2x8xf32, strides = [32, 4]>
  %slots = emit.alloc : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]>
  emit.for %t basis [2] range [0, 2) attributes {pipeline} {
    %tile = emit.iter_view %slots[%t] offset 0 coeffs [0] {slot_bytes = 64, slots = 2} : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %lo = emit.view %tile[0] : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x4xf32, strides = [32, 4]>
    %a = emit.iter_view %in[%t] offset 0 coeffs [32] : !emit.buffer<input, 2x8xf32, strides = [32, 4]> -> !emit.buffer<input, 1x4xf32, strides = [32, 4]>
    emit.dma %a -> %lo : !emit.buffer<input, 1x4xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x4xf32, strides = [32, 4]>
    %hi = emit.view %tile[16] : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x4xf32, strides = [32, 4]>
    %b = emit.iter_view %in[%t] offset 16 coeffs [32] : !emit.buffer<input, 2x8xf32, strides = [32, 4]> -> !emit.buffer<input, 1x4xf32, strides = [32, 4]>
    emit.dma %b -> %hi : !emit.buffer<input, 1x4xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x4xf32, strides = [32, 4]>
    %d = emit.iter_view %out[%t] offset 0 coeffs [32] : !emit.buffer<output, 2x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
    emit.dma %tile -> %d : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
  }
}

// -----

// A VECTOR copy that only rearranges a loaded tile (into another rotating
// tile) is stage 0 too; in the kernel it comes after this tile's compute up
// to its first VECTOR op (here the store of the loaded tile) and before the
// rest, so that VECTOR copies for t + 1 ahead of t's epilogue. The copy of %g
// after the ADD wrote it stays with the compute: %g is no longer what stage 0
// filled (moved ahead, it would copy the next tile's %g before its ADD).
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK:      emit.for %[[P:.*]] basis [4] range [0, 1) {
// CHECK:        emit.dma
// CHECK:        emit.cast
// CHECK-NOT:    emit.vbini
// CHECK:      }
// CHECK-NEXT: emit.for %[[K:.*]] basis [4] range [0, 3) {
// CHECK:        emit.dma %{{.*}} -> %{{.*}} : <input
// CHECK:        emit.dma %{{.*}} -> %{{.*}} : <lm, 1x8xf32, strides = [32, 4]> -> <output
// CHECK-NEXT:   %[[G1:.*]] = emit.iter_view %{{.*}}[%[[K]]] offset 0 coeffs [0] {shift = 1 : i64, slot_bytes = 64 : i64, slots = 2 : i64}
// CHECK-NEXT:   emit.cast %{{.*}} -> %[[G1]]
// CHECK-NEXT:   %[[G0:.*]] = emit.iter_view %{{.*}}[%[[K]]] offset 0 coeffs [0] {slot_bytes = 64 : i64, slots = 2 : i64}
// CHECK-NEXT:   emit.vbini ADD %[[G0]]
// CHECK-NEXT:   emit.iter_view
// CHECK-NEXT:   emit.cast %[[G0]]
// CHECK-NEXT:   emit.iter_view
// CHECK-NEXT:   emit.dma
// CHECK-NEXT: }
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 4x8xf32, strides = [32, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 4x8xf32, strides = [32, 4]>
  %out2 = emit.alloc {name = "z", offset = 128} : !emit.buffer<output, 4x8xf32, strides = [32, 4]>
  %slots = emit.alloc : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]>
  %gs = emit.alloc : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]>
  %hs = emit.alloc : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]>
  emit.for %t basis [4] range [0, 4) attributes {pipeline} {
    %tile = emit.iter_view %slots[%t] offset 0 coeffs [0] {slot_bytes = 64, slots = 2} : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %g = emit.iter_view %gs[%t] offset 0 coeffs [0] {slot_bytes = 64, slots = 2} : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %h = emit.iter_view %hs[%t] offset 0 coeffs [0] {slot_bytes = 64, slots = 2} : !emit.buffer<lm, 2x1x8xf32, strides = [64, 32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %src = emit.iter_view %in[%t] offset 0 coeffs [32] : !emit.buffer<input, 4x8xf32, strides = [32, 4]> -> !emit.buffer<input, 1x8xf32, strides = [32, 4]>
    emit.dma %src -> %tile : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    emit.cast %tile -> %g : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %dst2 = emit.iter_view %out2[%t] offset 0 coeffs [32] : !emit.buffer<output, 4x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
    emit.dma %tile -> %dst2 : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
    emit.vbini ADD %g, 1.0 : f32 -> %g : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    emit.cast %g -> %h : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %dst = emit.iter_view %out[%t] offset 0 coeffs [32] : !emit.buffer<output, 4x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
    emit.dma %h -> %dst : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<output, 1x8xf32, strides = [32, 4]>
  }
}
