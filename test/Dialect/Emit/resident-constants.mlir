// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-resident-constants{remarks=1}))' -verify-diagnostics | FileCheck %s

// Three time steps of a recurrence, each a kernel whose product loads the
// recurrent weights whole into a fresh LM buffer (select-tiling's resident
// B): the first load stays, the later kernels' products read its buffer,
// and their loads and buffers go.
// CHECK-LABEL: emit.program
// CHECK:       %[[R:.*]] = emit.constant
// CHECK:       %[[B0:.*]] = emit.alloc : <lm, 16x16xf32, strides = [64, 4]>
// CHECK-NEXT:  emit.dma %[[R]] -> %[[B0]]
// CHECK-NEXT:  emit.matmul %{{.*}}, %[[B0]] -> %{{.*}}
// CHECK-NOT:   emit.dma %[[R]]
// CHECK:       emit.matmul %{{.*}}, %[[B0]] -> %{{.*}}
// CHECK-NOT:   emit.dma %[[R]]
// CHECK:       emit.matmul %{{.*}}, %[[B0]] -> %{{.*}}
// CHECK-NOT:   emit.alloc : <lm, 16x16xf32
// expected-remark @below {{2 of 3 constant loads removed: their kernels read the buffer an earlier load of the same bytes left in LM (2048 bytes not loaded again)}}
emit.program target "npu-v1" {
  %r = emit.constant dense<1.0> : tensor<16x16xf32> : !emit.buffer<const, 16x16xf32, strides = [64, 4]>
  %h = emit.alloc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  %acc = emit.alloc : !emit.buffer<acc, 1x16xf32, strides = [64, 4]>
  %b0 = emit.alloc : !emit.buffer<lm, 16x16xf32, strides = [64, 4]>
  emit.dma %r -> %b0 : !emit.buffer<const, 16x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 16x16xf32, strides = [64, 4]> loc("step0")
  emit.matmul %h, %b0 -> %acc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>, !emit.buffer<lm, 16x16xf32, strides = [64, 4]> -> !emit.buffer<acc, 1x16xf32, strides = [64, 4]> loc("step0")
  %b1 = emit.alloc : !emit.buffer<lm, 16x16xf32, strides = [64, 4]>
  emit.dma %r -> %b1 : !emit.buffer<const, 16x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 16x16xf32, strides = [64, 4]> loc("step1")
  emit.matmul %h, %b1 -> %acc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>, !emit.buffer<lm, 16x16xf32, strides = [64, 4]> -> !emit.buffer<acc, 1x16xf32, strides = [64, 4]> loc("step1")
  %b2 = emit.alloc : !emit.buffer<lm, 16x16xf32, strides = [64, 4]>
  emit.dma %r -> %b2 : !emit.buffer<const, 16x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 16x16xf32, strides = [64, 4]> loc("step2")
  emit.matmul %h, %b2 -> %acc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>, !emit.buffer<lm, 16x16xf32, strides = [64, 4]> -> !emit.buffer<acc, 1x16xf32, strides = [64, 4]> loc("step2")
}

// -----

// Not the same load: other bytes of the constant (a view at another
// offset), another layout in LM, or a buffer another op writes after the
// load (its bytes are no longer the constant's). Every load stays.
// CHECK-LABEL: emit.program
// CHECK-COUNT-4: emit.dma %{{.*}} -> %{{.*}}
// CHECK-NOT:   emit.dma
// expected-remark @below {{0 of 3 constant loads removed: their kernels read the buffer an earlier load of the same bytes left in LM (0 bytes not loaded again)}}
emit.program target "npu-v1" {
  %r = emit.constant dense<1.0> : tensor<16x32xf32> : !emit.buffer<const, 16x32xf32, strides = [128, 4]>
  %h = emit.alloc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>
  %acc = emit.alloc : !emit.buffer<acc, 1x16xf32, strides = [64, 4]>
  %left = emit.view %r[0] : !emit.buffer<const, 16x32xf32, strides = [128, 4]> -> !emit.buffer<const, 16x16xf32, strides = [128, 4]>
  %right = emit.view %r[64] : !emit.buffer<const, 16x32xf32, strides = [128, 4]> -> !emit.buffer<const, 16x16xf32, strides = [128, 4]>
  %b0 = emit.alloc : !emit.buffer<lm, 16x16xf32, strides = [64, 4]>
  emit.dma %left -> %b0 : !emit.buffer<const, 16x16xf32, strides = [128, 4]> -> !emit.buffer<lm, 16x16xf32, strides = [64, 4]> loc("k0")
  emit.matmul %h, %b0 -> %acc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>, !emit.buffer<lm, 16x16xf32, strides = [64, 4]> -> !emit.buffer<acc, 1x16xf32, strides = [64, 4]> loc("k0")
  %b1 = emit.alloc : !emit.buffer<lm, 16x16xf32, strides = [64, 4]>
  emit.dma %right -> %b1 : !emit.buffer<const, 16x16xf32, strides = [128, 4]> -> !emit.buffer<lm, 16x16xf32, strides = [64, 4]> loc("k1")
  emit.matmul %h, %b1 -> %acc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>, !emit.buffer<lm, 16x16xf32, strides = [64, 4]> -> !emit.buffer<acc, 1x16xf32, strides = [64, 4]> loc("k1")
  %b2 = emit.alloc : !emit.buffer<lm, 16x16xf32, strides = [128, 4]>
  emit.dma %left -> %b2 : !emit.buffer<const, 16x16xf32, strides = [128, 4]> -> !emit.buffer<lm, 16x16xf32, strides = [128, 4]> loc("k2")
  emit.matmul %h, %b2 -> %acc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>, !emit.buffer<lm, 16x16xf32, strides = [128, 4]> -> !emit.buffer<acc, 1x16xf32, strides = [64, 4]> loc("k2")
  %b3 = emit.alloc : !emit.buffer<lm, 16x16xf32, strides = [64, 4]>
  emit.dma %left -> %b3 : !emit.buffer<const, 16x16xf32, strides = [128, 4]> -> !emit.buffer<lm, 16x16xf32, strides = [64, 4]> loc("k3")
  emit.vbini MUL %b3, 2.0 : f32 -> %b3 : !emit.buffer<lm, 16x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 16x16xf32, strides = [64, 4]> loc("k3")
  emit.matmul %h, %b3 -> %acc : !emit.buffer<lm, 1x16xf32, strides = [64, 4]>, !emit.buffer<lm, 16x16xf32, strides = [64, 4]> -> !emit.buffer<acc, 1x16xf32, strides = [64, 4]> loc("k3")
}

// -----

// A constant of more than a quarter of LM (npu-v1-tiny: 131072 bytes) is
// loaded by each kernel: kept, it would crowd out their tiles.
// CHECK-LABEL: emit.program
// CHECK-COUNT-2: emit.dma
// expected-remark @below {{0 of 2 constant loads removed: their kernels read the buffer an earlier load of the same bytes left in LM (0 bytes not loaded again)}}
emit.program target "npu-v1-tiny" {
  %r = emit.constant dense<1.0> : tensor<160x64xf32> : !emit.buffer<const, 160x64xf32, strides = [256, 4]>
  %b0 = emit.alloc : !emit.buffer<lm, 160x64xf32, strides = [256, 4]>
  emit.dma %r -> %b0 : !emit.buffer<const, 160x64xf32, strides = [256, 4]> -> !emit.buffer<lm, 160x64xf32, strides = [256, 4]> loc("k0")
  %o0 = emit.alloc : !emit.buffer<lm, 1x64xf32, strides = [256, 4]>
  %row0 = emit.view %b0[0] : !emit.buffer<lm, 160x64xf32, strides = [256, 4]> -> !emit.buffer<lm, 1x64xf32, strides = [256, 4]>
  emit.vun RELU %row0 -> %o0 : !emit.buffer<lm, 1x64xf32, strides = [256, 4]> -> !emit.buffer<lm, 1x64xf32, strides = [256, 4]> loc("k0")
  %b1 = emit.alloc : !emit.buffer<lm, 160x64xf32, strides = [256, 4]>
  emit.dma %r -> %b1 : !emit.buffer<const, 160x64xf32, strides = [256, 4]> -> !emit.buffer<lm, 160x64xf32, strides = [256, 4]> loc("k1")
  %o = emit.alloc : !emit.buffer<lm, 1x64xf32, strides = [256, 4]>
  %row = emit.view %b1[0] : !emit.buffer<lm, 160x64xf32, strides = [256, 4]> -> !emit.buffer<lm, 1x64xf32, strides = [256, 4]>
  emit.vun RELU %row -> %o : !emit.buffer<lm, 1x64xf32, strides = [256, 4]> -> !emit.buffer<lm, 1x64xf32, strides = [256, 4]> loc("k1")
}
