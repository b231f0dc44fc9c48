// RUN: npuc-opt %s --pass-pipeline='builtin.module(emit.program(emit-plan-memory{gm-budget=1000}))' -verify-diagnostics -o /dev/null
// RUN: npuc-opt %s --pass-pipeline='builtin.module(emit.program(emit-plan-memory{gm-budget=1240}))' | FileCheck %s

// The arena is bounded by gm-budget (what the runtime provides), separately
// from what the 32-bit offset field can encode (convert-emit-to-enc). Two
// 600-byte tensors live at once need 64 + 600 rounded to 64-byte alignment:
// offsets 0 and 640, 1240 bytes.
// CHECK: emit.alloc {offset = 0 : i64} : <arena, 600xi8
// CHECK: emit.alloc {offset = 640 : i64} : <arena, 600xi8
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 600xi8, strides = [1]>
  %a = emit.alloc : !emit.buffer<arena, 600xi8, strides = [1]>
  // expected-error @+1 {{'emit.alloc' op the arena needs 1240 bytes at this point, more than the GM budget of 1000 bytes (--gm-budget)}}
  %b = emit.alloc : !emit.buffer<arena, 600xi8, strides = [1]>
  %t = emit.alloc : !emit.buffer<lm, 600xi8, strides = [1]>
  emit.dma %in -> %t : !emit.buffer<input, 600xi8, strides = [1]> -> !emit.buffer<lm, 600xi8, strides = [1]>
  emit.dma %t -> %a : !emit.buffer<lm, 600xi8, strides = [1]> -> !emit.buffer<arena, 600xi8, strides = [1]>
  emit.dma %t -> %b : !emit.buffer<lm, 600xi8, strides = [1]> -> !emit.buffer<arena, 600xi8, strides = [1]>
  emit.dma %a -> %t : !emit.buffer<arena, 600xi8, strides = [1]> -> !emit.buffer<lm, 600xi8, strides = [1]>
}
