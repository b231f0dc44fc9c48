// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-prefetch-constants{remarks=1}))' -verify-diagnostics | FileCheck %s

// Kernel k1 loads a constant into a fresh tile: the alloc, the view of the
// constant and the DMA move before kernel k0's first engine op, so DMA_IN
// runs the load while k0 computes instead of after k1's input load.
// CHECK-LABEL: emit.program
// CHECK:       %[[W:.*]] = emit.alloc : <lm, 4x16xf32
// CHECK-NEXT:  %[[CV:.*]] = emit.view
// CHECK-NEXT:  emit.dma %[[CV]] -> %[[W]] : <const
// CHECK-NEXT:  emit.dma %{{.*}} -> %{{.*}} : <input, 2x16xf32
// CHECK:       emit.vbini ADD
// CHECK:       emit.dma %{{.*}} -> %{{.*}} : <input, 4x16xf32
// CHECK:       emit.vbin ADD
// expected-remark @below {{1 of 1 constant loads issued up to 1 kernel(s) ahead of their own}}
emit.program target "npu-v1" {
  %x = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 2x16xf32, strides = [64, 4]>
  %z = emit.alloc {name = "z", offset = 128} : !emit.buffer<input, 4x16xf32, strides = [64, 4]>
  %y = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 2x16xf32, strides = [64, 4]>
  %o = emit.alloc {name = "o", offset = 128} : !emit.buffer<output, 4x16xf32, strides = [64, 4]>
  %a = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %x -> %a : !emit.buffer<input, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]> loc("k0")
  emit.vbini ADD %a, 1.0 : f32 -> %a : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]> loc("k0")
  emit.dma %a -> %y : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<output, 2x16xf32, strides = [64, 4]> loc("k0")
  %c = emit.constant dense<1.0> : tensor<64xf32> : !emit.buffer<const, 64xf32, strides = [4]>
  %b = emit.alloc : !emit.buffer<lm, 4x16xf32, strides = [64, 4]>
  emit.dma %z -> %b : !emit.buffer<input, 4x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 4x16xf32, strides = [64, 4]> loc("k1")
  %w = emit.alloc : !emit.buffer<lm, 4x16xf32, strides = [64, 4]>
  %cv = emit.view %c[0] : !emit.buffer<const, 64xf32, strides = [4]> -> !emit.buffer<const, 4x16xf32, strides = [64, 4]>
  emit.dma %cv -> %w : !emit.buffer<const, 4x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 4x16xf32, strides = [64, 4]> loc("k1")
  emit.vbin ADD %b, %w -> %b : !emit.buffer<lm, 4x16xf32, strides = [64, 4]>, !emit.buffer<lm, 4x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 4x16xf32, strides = [64, 4]> loc("k1")
  emit.dma %b -> %o : !emit.buffer<lm, 4x16xf32, strides = [64, 4]> -> !emit.buffer<output, 4x16xf32, strides = [64, 4]> loc("k1")
}

// -----

// Left where they are: a load in a tile loop of two iterations (rolled into
// a hardware loop later), a load into a tile an engine op has written
// before, and a load of the first kernel.
// CHECK-LABEL: emit.program
// CHECK:       emit.dma {{.*}} : <const
// CHECK-NEXT:  %{{.*}} = emit.alloc
// CHECK-NEXT:  emit.dma {{.*}} : <input
// CHECK-NEXT:  emit.vbin ADD
// CHECK-NEXT:  %{{.*}} = emit.alloc
// CHECK-NEXT:  emit.vbini MUL
// CHECK-NEXT:  emit.dma {{.*}} : <const
// CHECK-NEXT:  %{{.*}} = emit.alloc {emit.iteration = array<i64: 5, 0>}
// CHECK-NEXT:  emit.dma {{.*}} {emit.iteration = array<i64: 5, 0>}
// CHECK-NEXT:  emit.vbin ADD
// CHECK-NEXT:  %{{.*}} = emit.alloc {emit.iteration = array<i64: 5, 1>}
// CHECK-NEXT:  emit.dma {{.*}} {emit.iteration = array<i64: 5, 1>}
// expected-remark @below {{0 of 4 constant loads issued up to 1 kernel(s) ahead of their own}}
emit.program target "npu-v1" {
  %x = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 2x16xf32, strides = [64, 4]>
  %c = emit.constant dense<1.0> : tensor<2x16xf32> : !emit.buffer<const, 2x16xf32, strides = [64, 4]>
  %a = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %c -> %a : !emit.buffer<const, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]> loc("k0")
  %b = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %x -> %b : !emit.buffer<input, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]> loc("k0")
  emit.vbin ADD %b, %a -> %b : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>, !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]> loc("k0")
  %t = emit.alloc : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.vbini MUL %b, 2.0 : f32 -> %t : !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]> loc("k1")
  emit.dma %c -> %t : !emit.buffer<const, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]> loc("k1")
  %l0 = emit.alloc {emit.iteration = array<i64: 5, 0>} : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %c -> %l0 {emit.iteration = array<i64: 5, 0>} : !emit.buffer<const, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]> loc("k2")
  emit.vbin ADD %t, %l0 -> %t {emit.iteration = array<i64: 5, 0>} : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>, !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]> loc("k2")
  %l1 = emit.alloc {emit.iteration = array<i64: 5, 1>} : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>
  emit.dma %c -> %l1 {emit.iteration = array<i64: 5, 1>} : !emit.buffer<const, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]> loc("k2")
  emit.vbin ADD %t, %l1 -> %t {emit.iteration = array<i64: 5, 1>} : !emit.buffer<lm, 2x16xf32, strides = [64, 4]>, !emit.buffer<lm, 2x16xf32, strides = [64, 4]> -> !emit.buffer<lm, 2x16xf32, strides = [64, 4]> loc("k2")
}

// -----

// On npu-v1-tiny (128 KiB of LM): k0's tile takes 96 KiB, three quarters
// of LM, so k1's constant tile may not live beside it.
// CHECK-LABEL: emit.program
// CHECK:       emit.vbini ADD
// CHECK:       %{{.*}} = emit.alloc : <lm, 1x1024xf32
// CHECK-NEXT:  emit.dma {{.*}} : <const
// expected-remark @below {{0 of 1 constant loads issued up to 1 kernel(s) ahead of their own}}
emit.program target "npu-v1-tiny" {
  %x = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 1x24576xf32, strides = [98304, 4]>
  %y = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 1x1024xf32, strides = [4096, 4]>
  %c = emit.constant dense<1.0> : tensor<1x1024xf32> : !emit.buffer<const, 1x1024xf32, strides = [4096, 4]>
  %a = emit.alloc : !emit.buffer<lm, 1x24576xf32, strides = [98304, 4]>
  emit.dma %x -> %a : !emit.buffer<input, 1x24576xf32, strides = [98304, 4]> -> !emit.buffer<lm, 1x24576xf32, strides = [98304, 4]> loc("k0")
  emit.vbini ADD %a, 1.0 : f32 -> %a : !emit.buffer<lm, 1x24576xf32, strides = [98304, 4]> -> !emit.buffer<lm, 1x24576xf32, strides = [98304, 4]> loc("k0")
  %w = emit.alloc : !emit.buffer<lm, 1x1024xf32, strides = [4096, 4]>
  emit.dma %c -> %w : !emit.buffer<const, 1x1024xf32, strides = [4096, 4]> -> !emit.buffer<lm, 1x1024xf32, strides = [4096, 4]> loc("k1")
  %av = emit.view %a[0] : !emit.buffer<lm, 1x24576xf32, strides = [98304, 4]> -> !emit.buffer<lm, 1x1024xf32, strides = [4096, 4]>
  emit.vbin ADD %av, %w -> %w : !emit.buffer<lm, 1x1024xf32, strides = [4096, 4]>, !emit.buffer<lm, 1x1024xf32, strides = [4096, 4]> -> !emit.buffer<lm, 1x1024xf32, strides = [4096, 4]> loc("k1")
  emit.dma %w -> %y : !emit.buffer<lm, 1x1024xf32, strides = [4096, 4]> -> !emit.buffer<output, 1x1024xf32, strides = [4096, 4]> loc("k1")
}

// -----

// The live bytes allow the move (at most 78 KiB of 128), but placement
// does not: k0's 64 KiB tile sits at [0, 64K), the moved 8 KiB tile after
// it, and k1's 70 KiB tile then finds neither [0, 64K) nor what follows the
// small tile wide enough. Every move is undone: the small tile is
// allocated after k1's large one again, where placement fits both.
// CHECK-LABEL: emit.program
// CHECK:       emit.vbini ADD
// CHECK:       %{{.*}} = emit.alloc : <lm, 1x17920xf32
// CHECK:       %{{.*}} = emit.alloc : <lm, 1x2048xf32
// CHECK-NEXT:  emit.dma {{.*}} : <const
// expected-remark @below {{constant loads issued ahead left where they were: with 1 moved, LM's placement would not fit}}
emit.program target "npu-v1-tiny" {
  %x = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 1x16384xf32, strides = [65536, 4]>
  %z = emit.alloc {name = "z", offset = 65536} : !emit.buffer<input, 1x17920xf32, strides = [71680, 4]>
  %y = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 1x16384xf32, strides = [65536, 4]>
  %o = emit.alloc {name = "o", offset = 65536} : !emit.buffer<output, 1x2048xf32, strides = [8192, 4]>
  %c = emit.constant dense<1.0> : tensor<1x2048xf32> : !emit.buffer<const, 1x2048xf32, strides = [8192, 4]>
  %a = emit.alloc : !emit.buffer<lm, 1x16384xf32, strides = [65536, 4]>
  emit.dma %x -> %a : !emit.buffer<input, 1x16384xf32, strides = [65536, 4]> -> !emit.buffer<lm, 1x16384xf32, strides = [65536, 4]> loc("k0")
  emit.vbini ADD %a, 1.0 : f32 -> %a : !emit.buffer<lm, 1x16384xf32, strides = [65536, 4]> -> !emit.buffer<lm, 1x16384xf32, strides = [65536, 4]> loc("k0")
  emit.dma %a -> %y : !emit.buffer<lm, 1x16384xf32, strides = [65536, 4]> -> !emit.buffer<output, 1x16384xf32, strides = [65536, 4]> loc("k0")
  %b = emit.alloc : !emit.buffer<lm, 1x17920xf32, strides = [71680, 4]>
  emit.dma %z -> %b : !emit.buffer<input, 1x17920xf32, strides = [71680, 4]> -> !emit.buffer<lm, 1x17920xf32, strides = [71680, 4]> loc("k1")
  %w = emit.alloc : !emit.buffer<lm, 1x2048xf32, strides = [8192, 4]>
  emit.dma %c -> %w : !emit.buffer<const, 1x2048xf32, strides = [8192, 4]> -> !emit.buffer<lm, 1x2048xf32, strides = [8192, 4]> loc("k1")
  %bv = emit.view %b[0] : !emit.buffer<lm, 1x17920xf32, strides = [71680, 4]> -> !emit.buffer<lm, 1x2048xf32, strides = [8192, 4]>
  emit.vbin ADD %bv, %w -> %w : !emit.buffer<lm, 1x2048xf32, strides = [8192, 4]>, !emit.buffer<lm, 1x2048xf32, strides = [8192, 4]> -> !emit.buffer<lm, 1x2048xf32, strides = [8192, 4]> loc("k1")
  emit.dma %w -> %o : !emit.buffer<lm, 1x2048xf32, strides = [8192, 4]> -> !emit.buffer<output, 1x2048xf32, strides = [8192, 4]> loc("k1")
}
