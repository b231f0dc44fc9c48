// The out-of-flags pattern of test/Dialect/Emit/insert-sync.mlir, synchronised,
// encoded and executed on npu-v1-tiny: three loads, each negated by VECTOR and
// stored; npu-sim decides races on ordering, so a missing or lost flag would
// fault here (exit 3) rather than pass by timing luck.
// RUN: npuc-opt %s --pass-pipeline='builtin.module(emit.program(emit-insert-sync),convert-emit-to-enc)' -o %t.mlir
// RUN: FileCheck %s --check-prefix=ENC < %t.mlir
// RUN: npuc-translate --export-npu-model %t.mlir -o %t.bin
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(8, dtype=np.float32).reshape(1, 8))"
// RUN: rm -rf %t.out && npu-sim %t.bin -i %t.x.npy -o %t.out
// RUN: %python -c "import numpy as np; print(np.load('%t.out/output_0.npy').tolist())" | FileCheck %s
// ENC: enc.barrier mask = 8
// Without the barrier the third set of flag 0 is not ordered after VECTOR's
// first wait; npu-sim faults on that ordering whatever the timing.
// RUN: grep -v enc.barrier %t.mlir > %t.nobarrier.mlir
// RUN: npuc-translate --export-npu-model %t.nobarrier.mlir -o %t.nobarrier.bin
// RUN: rm -rf %t.nb && not npu-sim %t.nobarrier.bin -i %t.x.npy -o %t.nb 2>&1 | FileCheck %s --check-prefix=LOST
// LOST: flag (DMA_IN -> VECTOR, 0) may be set twice: instruction {{[0-9]+}} (set_flag) sets it {{with nothing ordering it after instruction [0-9]+ \(wait_flag\)|while the signal instruction [0-9]+ \(set_flag\) set is pending}}
// CHECK: {{\[\[}}-0.0, -1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0], [-0.0, -1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0], [-0.0, -1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0]]
emit.program target "npu-v1-tiny" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 1x8xf32, strides = [32, 4]>
  %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 3x8xf32, strides = [32, 4]>
  %a = emit.alloc {offset = 0} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %b = emit.alloc {offset = 64} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %c = emit.alloc {offset = 128} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %d = emit.alloc {offset = 192} : !emit.buffer<lm, 3x8xf32, strides = [32, 4]>
  %d0 = emit.view %d[0] : !emit.buffer<lm, 3x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %d1 = emit.view %d[32] : !emit.buffer<lm, 3x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %d2 = emit.view %d[64] : !emit.buffer<lm, 3x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %in -> %a : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.vun NEG %a -> %d0 : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %in -> %b : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.vun NEG %b -> %d1 : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %in -> %c : !emit.buffer<input, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.vun NEG %c -> %d2 : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  emit.dma %d -> %out : !emit.buffer<lm, 3x8xf32, strides = [32, 4]> -> !emit.buffer<output, 3x8xf32, strides = [32, 4]>
}
