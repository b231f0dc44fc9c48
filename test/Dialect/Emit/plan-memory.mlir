// RUN: npuc-opt %s -split-input-file --pass-pipeline='builtin.module(emit.program(emit-plan-memory))' -verify-diagnostics | FileCheck %s

// Liveness over every view: %a is read through a view after %b is created,
// so the two overlap in time and get disjoint bytes; %c is created after the
// last use of %a (through its view): local memory is placed by next fit, so
// %c takes the bytes after %b, not the ones %a has just released (a load
// into them would wait for %a's last reader). Offsets are 64-byte aligned;
// constants are laid out in order in the CONST region.
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK: emit.alloc {name = "x", offset = 0 : i64}
// CHECK: emit.constant dense<1> : tensor<4xi8> {offset = 0 : i64}
// CHECK: emit.constant dense<2> : tensor<100xi8> {offset = 64 : i64}
// CHECK: %[[A:.*]] = emit.alloc {offset = 0 : i64} : <lm, 2x8xi8, strides = [32, 1]>
// CHECK: %[[B:.*]] = emit.alloc {offset = 64 : i64} : <lm, 2x8xi8, strides = [32, 1]>
// CHECK: %[[C:.*]] = emit.alloc {offset = 128 : i64} : <lm, 2x8xi8, strides = [32, 1]>
emit.program target "npu-v1" {
  %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 2x8xi8, strides = [8, 1]>
  %k1 = emit.constant dense<1> : tensor<4xi8> : !emit.buffer<const, 4xi8, strides = [1]>
  %k2 = emit.constant dense<2> : tensor<100xi8> : !emit.buffer<const, 100xi8, strides = [1]>
  %a = emit.alloc : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
  emit.dma %in -> %a : !emit.buffer<input, 2x8xi8, strides = [8, 1]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
  %b = emit.alloc : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
  %av = emit.view %a[0] : !emit.buffer<lm, 2x8xi8, strides = [32, 1]> -> !emit.buffer<lm, 1x8xi8, strides = [32, 1]>
  %bv = emit.view %b[0] : !emit.buffer<lm, 2x8xi8, strides = [32, 1]> -> !emit.buffer<lm, 1x8xi8, strides = [32, 1]>
  emit.vun NEG %av -> %bv : !emit.buffer<lm, 1x8xi8, strides = [32, 1]> -> !emit.buffer<lm, 1x8xi8, strides = [32, 1]>
  %c = emit.alloc : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
  emit.vun NEG %b -> %c : !emit.buffer<lm, 2x8xi8, strides = [32, 1]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
}

// -----

// Capacity is the target's: 40 KiB of LM live at once fits npu-v1 (1 MiB) ...
// CHECK-LABEL: emit.program target "npu-v1"
// CHECK: emit.alloc {offset = 0 : i64} : <lm, 640x64xi8, strides = [64, 1]>
// CHECK: emit.alloc {offset = 40960 : i64} : <lm, 640x64xi8, strides = [64, 1]>
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 640x64xi8, strides = [64, 1]>
  %b = emit.alloc : !emit.buffer<lm, 640x64xi8, strides = [64, 1]>
  emit.vun NEG %a -> %b : !emit.buffer<lm, 640x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 640x64xi8, strides = [64, 1]>
}

// -----

// ... and is a diagnostic of its own on npu-v1-tiny (128 KiB), naming the
// buffer that does not fit.
emit.program target "npu-v1-tiny" {
  %a = emit.alloc : !emit.buffer<lm, 1024x64xi8, strides = [64, 1]>
  %b = emit.alloc : !emit.buffer<lm, 1024x64xi8, strides = [64, 1]>
  // expected-error @+1 {{'emit.alloc' op needs 65536 bytes of lm at offset 131072; npu-v1-tiny has 131072 bytes}}
  %c = emit.alloc : !emit.buffer<lm, 1024x64xi8, strides = [64, 1]>
  emit.vbin ADD %a, %b -> %c : !emit.buffer<lm, 1024x64xi8, strides = [64, 1]>, !emit.buffer<lm, 1024x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1024x64xi8, strides = [64, 1]>
}

// -----

// Next fit wraps around at the capacity: on npu-v1-tiny (128 KiB of LM) %c
// does not fit after %b and takes the bytes %a released.
// CHECK-LABEL: emit.program target "npu-v1-tiny"
// CHECK: emit.alloc {offset = 0 : i64} : <lm, 1024x64xi8, strides = [64, 1]>
// CHECK: emit.alloc {offset = 65536 : i64} : <lm, 768x64xi8, strides = [64, 1]>
// CHECK: emit.alloc {offset = 0 : i64} : <lm, 512x64xi8, strides = [64, 1]>
emit.program target "npu-v1-tiny" {
  %a = emit.alloc : !emit.buffer<lm, 1024x64xi8, strides = [64, 1]>
  emit.vun NEG %a -> %a : !emit.buffer<lm, 1024x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1024x64xi8, strides = [64, 1]>
  %b = emit.alloc : !emit.buffer<lm, 768x64xi8, strides = [64, 1]>
  %c = emit.alloc : !emit.buffer<lm, 512x64xi8, strides = [64, 1]>
  emit.vun NEG %b -> %b : !emit.buffer<lm, 768x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 768x64xi8, strides = [64, 1]>
  emit.vun NEG %c -> %c : !emit.buffer<lm, 512x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 512x64xi8, strides = [64, 1]>
}

// -----

// Where next fit fragments the memory past its capacity and first fit does
// not, the space is placed by first fit: by next fit %c would go after %b
// (64 KiB) and leave no 64 KiB gap for %d; first fit puts %c where %a was.
// CHECK-LABEL: emit.program target "npu-v1-tiny"
// CHECK: emit.alloc {offset = 0 : i64} : <lm, 512x64xi8, strides = [64, 1]>
// CHECK: emit.alloc {offset = 32768 : i64} : <lm, 512x64xi8, strides = [64, 1]>
// CHECK: emit.alloc {offset = 0 : i64} : <lm, 512x64xi8, strides = [64, 1]>
// CHECK: emit.alloc {offset = 65536 : i64} : <lm, 1024x64xi8, strides = [64, 1]>
emit.program target "npu-v1-tiny" {
  %a = emit.alloc : !emit.buffer<lm, 512x64xi8, strides = [64, 1]>
  %b = emit.alloc : !emit.buffer<lm, 512x64xi8, strides = [64, 1]>
  emit.vun NEG %a -> %b : !emit.buffer<lm, 512x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 512x64xi8, strides = [64, 1]>
  %c = emit.alloc : !emit.buffer<lm, 512x64xi8, strides = [64, 1]>
  %d = emit.alloc : !emit.buffer<lm, 1024x64xi8, strides = [64, 1]>
  emit.vun NEG %b -> %c : !emit.buffer<lm, 512x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 512x64xi8, strides = [64, 1]>
  emit.vun NEG %d -> %d : !emit.buffer<lm, 1024x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1024x64xi8, strides = [64, 1]>
}
