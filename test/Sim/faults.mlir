// Programs that must fault, each with the message naming the instructions,
// engines and addresses involved, and exit code 3.
// RUN: split-file %s %t
// RUN: npuc-translate --export-npu-model %t/race.mlir -o %t/race.bin
// RUN: sh -c 'npu-sim %t/race.bin -o %t/out; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: npu-sim: fault: data race on LM byte 0x0: instruction 3 (dma_out) on DMA_OUT reads its source at LM [0x0, 0x1), which instruction 1 (dma_in) on DMA_IN wrote; no flag or barrier orders them
// RACE: exit=3

// RUN: npuc-translate --export-npu-model %t/deadlock.mlir -o %t/deadlock.bin
// RUN: sh -c 'npu-sim %t/deadlock.bin -o %t/out; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// DEADLOCK: npu-sim: fault: deadlock: no engine can make progress. DMA_OUT waits at instruction 0 (wait_flag) for flag (DMA_IN -> DMA_OUT, 1), which nothing sets
// DEADLOCK: exit=3

// RUN: npuc-translate --export-npu-model %t/double-set.mlir -o %t/double-set.bin
// RUN: sh -c 'npu-sim %t/double-set.bin -o %t/out; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=DOUBLE
// DOUBLE: npu-sim: fault: flag (MATRIX -> VECTOR, 0) may be set twice: instruction 1 (set_flag) sets it while the signal instruction 0 (set_flag) set is pending, and nothing orders it after the wait_flag that consumes that signal (a lost signal)
// DOUBLE: exit=3

// A flag set before the producing transfer (not after it completes) orders
// nothing: the dma_in happens to run first in simulated time, but no flag
// covers it, and races are decided on ordering, not on timing (contract S6).
// RUN: npuc-translate --export-npu-model %t/early-flag.mlir -o %t/early-flag.bin
// RUN: sh -c 'npu-sim %t/early-flag.bin -o %t/out; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: npu-sim: fault: data race on LM byte 0x0: instruction 5 (dma_out) on DMA_OUT reads its source at LM [0x0, 0x1), which instruction 4 (dma_in) on DMA_IN wrote; no flag or barrier orders them
// EARLY: exit=3

// RUN: npuc-translate --export-npu-model %t/oob.mlir -o %t/oob.bin
// RUN: sh -c 'npu-sim %t/oob.bin -o %t/out; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=OOB
// OOB: npu-sim: fault: out-of-bounds access: instruction 1 (dma_in) on DMA_IN writes its destination at LM [0x20000, 0x20001)
// OOB-SAME: but LM has 0x20000 bytes
// OOB: exit=3

// RUN: npuc-translate --export-npu-model %t/misaligned.mlir -o %t/misaligned.bin
// RUN: sh -c 'npu-sim %t/misaligned.bin -o %t/out; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=ALIGN
// ALIGN: npu-sim: fault: misaligned access: instruction 3 (matmul) on MATRIX uses matrix A at 32, which is not 64-byte aligned
// ALIGN: exit=3

// A read of bytes no one wrote.
// RUN: npuc-translate --export-npu-model %t/uninit.mlir -o %t/uninit.bin
// RUN: sh -c 'npu-sim %t/uninit.bin -o %t/out; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=UNINIT
// UNINIT: npu-sim: fault: read of uninitialized memory: instruction 1 (dma_out) on DMA_OUT reads its source at LM [0x40, 0x41), but byte 0x40 of LM was never written
// UNINIT: exit=3

// Descriptor registers must be configured before use.
// RUN: npuc-translate --export-npu-model %t/unconfigured.mlir -o %t/unconfigured.bin
// RUN: sh -c 'npu-sim %t/unconfigured.bin -o %t/out; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=UNCONFIGURED
// UNCONFIGURED: npu-sim: fault: instruction 0 (v_bin) on VECTOR runs before any v_shape configured its engine
// UNCONFIGURED: exit=3

// Found in review: an address beyond 32 bits faults instead of wrapping; loops
// must nest; every DMA element is aligned; one instruction cannot run forever.
// RUN: npuc-translate --export-npu-model %t/gmwrap.mlir -o %t/gmwrap.bin
// RUN: not npu-sim %t/gmwrap.bin -o %t/out 2>&1 | FileCheck %s --check-prefix=GMWRAP
// GMWRAP: fault: out-of-bounds access: instruction 2 (dma_in) on DMA_IN reads its source at CONST [0x100000000, 0x100000001), but CONST has 0x40 bytes
// RUN: npuc-translate --export-npu-model %t/loopnest.mlir -o %t/loopnest.bin
// RUN: not npu-sim %t/loopnest.bin -o %t/out 2>&1 | FileCheck %s --check-prefix=LOOPNEST
// LOOPNEST: fault: instruction 1 (loop) has a body that ends after the body of the enclosing loop at instruction 0 (loops must nest)
// RUN: npuc-translate --export-npu-model %t/dmaalign.mlir -o %t/dmaalign.bin
// RUN: not npu-sim %t/dmaalign.bin -o %t/out 2>&1 | FileCheck %s --check-prefix=DMAALIGN
// DMAALIGN: fault: misaligned access: instruction 2 (dma_in) on DMA_IN moves 4-byte elements with a stride of dimension 0 that is not a multiple of 4
// RUN: npuc-translate --export-npu-model %t/hang.mlir -o %t/hang.bin
// RUN: not npu-sim %t/hang.bin -o %t/out 2>&1 | FileCheck %s --check-prefix=HANG
// HANG: fault: more than 68719476736 element operations: instruction 1 (dma_in) asks for 18445618199572250625
// Padding makes the box 65536^4 = 2^64 elements: the count saturates instead of wrapping to 0.
// RUN: npuc-translate --export-npu-model %t/hangpad.mlir -o %t/hangpad.bin
// RUN: not npu-sim %t/hangpad.bin -o %t/out 2>&1 | FileCheck %s --check-prefix=HANGPAD
// HANGPAD: fault: more than 68719476736 element operations: instruction 2 (dma_in) asks for 18446744073709551615

// RUN: npuc-translate --export-npu-model %t/runaway.mlir -o %t/runaway.bin
// RUN: sh -c 'npu-sim %t/runaway.bin -o %t/out --max-steps 1000; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=RUNAWAY
// RUNAWAY: npu-sim: fault: more than 1000 SCALAR steps: the program does not terminate (at instruction 0 (jmp))
// RUNAWAY: exit=3

//--- race.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.tensor "output" "y" : i8 shape [1] strides [1] offset 0
enc.program target "npu-v1" {
  enc.dma_in_shape n0 = 1, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.dma_out_shape n0 = 1, n1 = 1, n2 = 1, n3 = 1
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 0, dst_off = 0
  enc.end
}
//--- deadlock.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.program target "npu-v1" {
  enc.wait_flag eng = 2, peer = 1, id = 1
  enc.end
}
//--- double-set.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.program target "npu-v1" {
  enc.set_flag eng = 3, peer = 4, id = 0
  enc.set_flag eng = 3, peer = 4, id = 0
  enc.end
}
//--- early-flag.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.tensor "output" "y" : i8 shape [1] strides [1] offset 0
enc.program target "npu-v1" {
  enc.set_flag eng = 1, peer = 2, id = 0
  enc.dma_in_shape n0 = 1, n1 = 1, n2 = 1, n3 = 1
  enc.dma_out_shape n0 = 1, n1 = 1, n2 = 1, n3 = 1
  enc.wait_flag eng = 2, peer = 1, id = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 0, dst_off = 0
  enc.end
}
//--- oob.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.program target "npu-v1-tiny" {
  enc.dma_in_shape n0 = 1, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 4096, src_off = 0
  enc.end
}
//--- misaligned.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.program target "npu-v1" {
  enc.li rd = 1, imm = 32
  enc.mm_cfg lda = 64, ldb = 64, ldc = 64, a_zp = 0, b_zp = 0
  enc.nop
  enc.matmul mode = 0, acc = 0, a_reg = 1, b_reg = 0, c_reg = 0, a_addr = 0, b_addr = 32, c_addr = 0, m = 1, n = 1, k = 1
  enc.end
}
//--- uninit.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.tensor "output" "y" : i8 shape [4] strides [1] offset 0
enc.program target "npu-v1" {
  enc.dma_out_shape n0 = 4, n1 = 1, n2 = 1, n3 = 1
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 2, dst_off = 0
  enc.end
}
//--- unconfigured.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.program target "npu-v1" {
  enc.v_bin func = 0, dtype = 0, a_space = 0, b_space = 0, d_space = 0, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 0, d_addr = 0
  enc.end
}
//--- gmwrap.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.program target "npu-v1" {
  enc.li rd = 1, imm = 32
  enc.dma_in_shape n0 = 1, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in src_region = 0, src_reg = 1, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 4294967264
  enc.end
}
//--- loopnest.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.program target "npu-v1" {
  enc.loop rc = 0, count = 3, body = 2
  enc.loop rc = 0, count = 2, body = 2
  enc.nop
  enc.nop
  enc.end
}
//--- dmaalign.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.program target "npu-v1" {
  enc.dma_in_shape n0 = 2, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 2, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 2, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.end
}
//--- hangpad.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.program target "npu-v1" {
  enc.dma_in_shape n0 = 65535, n1 = 65535, n2 = 65535, n3 = 65535
  enc.dma_in_pad lo0 = 1, lo1 = 1, lo2 = 1, lo3 = 1, hi0 = 0, hi1 = 0, hi2 = 0, hi3 = 0, fill = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 1, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.end
}

//--- hang.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.program target "npu-v1" {
  enc.dma_in_shape n0 = 65535, n1 = 65535, n2 = 65535, n3 = 65535
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.end
}
//--- runaway.mlir
enc.const offset 0 dense<7> : tensor<64xi8>
enc.program target "npu-v1" {
  enc.jmp offset = 0
  enc.end
}
