// RUN: npuc-opt %s -split-input-file --convert-emit-to-enc -verify-diagnostics | FileCheck %s

// Descriptor words are sent only when they change: the second load has the
// same shape and strides, so only its dma_in follows. A local address that is
// not a multiple of 32 bytes (LM byte 72 = granule 2 + 8) takes the remainder
// from a borrowed register set just before. Flags and barriers carry their
// physical ids and engine masks; the program ends with `end`, and records the
// arena's extent. Inputs, outputs and constants become enc.tensor / enc.const.
// CHECK:      enc.const offset 0 dense<7> : tensor<4xi8>
// CHECK:      enc.tensor "input" "x" : i8 shape [2, 8] strides [8, 1] offset 0
// CHECK:      enc.tensor "output" "y" : i8 shape [2, 8] strides [8, 1] offset 0
// CHECK:      enc.program target "npu-v1" attributes {arena_size = 64 : i64} {
// CHECK-NEXT:   enc.dma_in_shape n0 = 8, n1 = 2, n2 = 1, n3 = 1
// CHECK-NEXT:   enc.dma_in_sstride s0 = 1, s1 = 8, s2 = 0, s3 = 0
// CHECK-NEXT:   enc.dma_in_dstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
// CHECK-NEXT:   enc.dma_in src_region = 2, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
// CHECK-NEXT:   enc.li rd = 1, imm = 8
// CHECK-NEXT:   enc.dma_in src_region = 2, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 1, dst_addr = 2, src_off = 0
// CHECK-NEXT:   enc.set_flag eng = 1, peer = 4, id = 1
// CHECK-NEXT:   enc.wait_flag eng = 4, peer = 1, id = 1
// CHECK-NEXT:   enc.barrier mask = 10
// CHECK-NEXT:   enc.v_shape rows = 2, cols = 8, a_pitch = 32, b_pitch = 0, d_pitch = 32, a_bcast = 0, b_bcast = 0
// CHECK-NEXT:   enc.v_un func = 1, dtype = 0, a_space = 0, d_space = 0, a_reg = 0, d_reg = 0, a_addr = 0, d_addr = 5
// CHECK-NEXT:   enc.dma_out_shape n0 = 8, n1 = 2, n2 = 1, n3 = 1
// CHECK-NEXT:   enc.dma_out_sstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
// CHECK-NEXT:   enc.dma_out_dstride s0 = 1, s1 = 8, s2 = 0, s3 = 0
// CHECK-NEXT:   enc.dma_out src_space = 0, src_reg = 0, dst_region = 1, elem = 0, dst_reg = 0, src_addr = 5, dst_off = 0
// CHECK-NEXT:   enc.end
module {
  emit.program target "npu-v1" {
    %k = emit.constant dense<7> : tensor<4xi8> {offset = 0} : !emit.buffer<const, 4xi8, strides = [1]>
    %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 2x8xi8, strides = [8, 1]>
    %out = emit.alloc {name = "y", offset = 0} : !emit.buffer<output, 2x8xi8, strides = [8, 1]>
    %ar = emit.alloc {offset = 0} : !emit.buffer<arena, 2x8xi8, strides = [8, 1]>
    %t = emit.alloc {offset = 0} : !emit.buffer<lm, 5x8xi8, strides = [32, 1]>
    %t0 = emit.view %t[0] : !emit.buffer<lm, 5x8xi8, strides = [32, 1]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
    %t1 = emit.view %t[72] : !emit.buffer<lm, 5x8xi8, strides = [32, 1]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
    %u = emit.alloc {offset = 160} : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
    emit.dma %in -> %t0 : !emit.buffer<input, 2x8xi8, strides = [8, 1]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
    emit.dma %in -> %t1 : !emit.buffer<input, 2x8xi8, strides = [8, 1]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
    %f = emit.flag {id = 1} : !emit.flag<dma_in -> vector>
    emit.signal %f : !emit.flag<dma_in -> vector>
    emit.wait %f : !emit.flag<dma_in -> vector>
    emit.barrier [#emit<engine dma_out>, #emit<engine vector>]
    emit.vun NEG %t0 -> %u : !emit.buffer<lm, 2x8xi8, strides = [32, 1]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
    emit.dma %u -> %ar : !emit.buffer<lm, 2x8xi8, strides = [32, 1]> -> !emit.buffer<arena, 2x8xi8, strides = [8, 1]>
  }
}

// -----

// MATRIX modes follow the operand types (uint8 x int8 is U8I8 = 1), mm_cfg
// carries pitches and zero points; a per-row requantization table is pmode ROW.
// CHECK:      enc.mm_cfg lda = 64, ldb = 64, ldc = 64, a_zp = 3, b_zp = 0
// CHECK-NEXT: enc.matmul mode = 1, acc = 0, a_reg = 0, b_reg = 0, c_reg = 0, a_addr = 0, b_addr = 2, c_addr = 0, m = 2, n = 4, k = 8
// CHECK:      enc.v_requant otype = 0, pmode = 2, a_space = 1, d_space = 0, a_reg = 0, d_reg = 0, p_reg = 0, a_addr = 0, d_addr = 4, p_addr = 6
module {
  emit.program target "npu-v1" {
    %a = emit.alloc {offset = 0} : !emit.buffer<lm, 2x8xui8, strides = [64, 1]>
    %b = emit.alloc {offset = 64} : !emit.buffer<lm, 8x4xi8, strides = [64, 1]>
    %c = emit.alloc {offset = 0} : !emit.buffer<acc, 2x4xi32, strides = [64, 4]>
    %d = emit.alloc {offset = 128} : !emit.buffer<lm, 2x4xi8, strides = [32, 1]>
    %p = emit.alloc {offset = 192} : !emit.buffer<lm, 2x16xi8, strides = [16, 1]>
    emit.matmul %a, %b -> %c {a_zp = 3} : !emit.buffer<lm, 2x8xui8, strides = [64, 1]>, !emit.buffer<lm, 8x4xi8, strides = [64, 1]> -> !emit.buffer<acc, 2x4xi32, strides = [64, 4]>
    emit.requant %c params %p : !emit.buffer<lm, 2x16xi8, strides = [16, 1]> -> %d {per_row} : !emit.buffer<acc, 2x4xi32, strides = [64, 4]> -> !emit.buffer<lm, 2x4xi8, strides = [32, 1]>
  }
}

// -----

// The MATRIX output stage: mm_cfg keeps the product's operand pitches and
// carries the accumulators' (ldc), mm_rq_cfg the per-tensor parameters and
// the destination pitch; mm_out names the bias (LM byte 200 = granule 6 + 8,
// the remainder in a borrowed register) and pmode TENSOR. A table instead
// is pmode COL and keeps the per-tensor words the engine holds.
// CHECK:      enc.mm_cfg lda = 64, ldb = 64, ldc = 64, a_zp = 0, b_zp = 0
// CHECK-NEXT: enc.matmul
// CHECK-NEXT: enc.mm_rq_cfg mult = 1073741824, ls = 1, rs = 2, zp = 3, lo = -128, hi = 20, ldd = 32
// CHECK-NEXT: enc.li rd = [[R:[0-9]+]], imm = 8
// CHECK-NEXT: enc.mm_out otype = 0, pmode = 0, bias = 1, a_reg = 0, d_reg = 0, p_reg = 0, b_reg = [[R]], a_addr = 0, d_addr = 4, p_addr = 0, b_addr = 6, m = 2, n = 4, bias_row = 0
// CHECK-NEXT: enc.mm_out otype = 0, pmode = 1, bias = 0, a_reg = 0, d_reg = 0, p_reg = 0, b_reg = 0, a_addr = 0, d_addr = 4, p_addr = 8, b_addr = 0, m = 2, n = 4, bias_row = 0
module {
  emit.program target "npu-v1" {
    %a = emit.alloc {offset = 0} : !emit.buffer<lm, 2x8xi8, strides = [64, 1]>
    %b = emit.alloc {offset = 64} : !emit.buffer<lm, 8x4xi8, strides = [64, 1]>
    %c = emit.alloc {offset = 0} : !emit.buffer<acc, 2x4xi32, strides = [64, 4]>
    %d = emit.alloc {offset = 128} : !emit.buffer<lm, 2x4xi8, strides = [32, 1]>
    %bb = emit.alloc {offset = 192} : !emit.buffer<lm, 1x8xi32, strides = [32, 4]>
    %bias = emit.view %bb[8] : !emit.buffer<lm, 1x8xi32, strides = [32, 4]> -> !emit.buffer<lm, 1x4xi32, strides = [16, 4]>
    %p = emit.alloc {offset = 256} : !emit.buffer<lm, 4x16xi8, strides = [16, 1]>
    emit.matmul %a, %b -> %c : !emit.buffer<lm, 2x8xi8, strides = [64, 1]>, !emit.buffer<lm, 8x4xi8, strides = [64, 1]> -> !emit.buffer<acc, 2x4xi32, strides = [64, 4]>
    emit.drain %c bias %bias : !emit.buffer<lm, 1x4xi32, strides = [16, 4]> -> %d {mult = 1073741824, ls = 1, rs = 2, zp = 3, lo = -128, hi = 20} : !emit.buffer<acc, 2x4xi32, strides = [64, 4]> -> !emit.buffer<lm, 2x4xi8, strides = [32, 1]>
    emit.drain %c params %p : !emit.buffer<lm, 4x16xi8, strides = [16, 1]> -> %d : !emit.buffer<acc, 2x4xi32, strides = [64, 4]> -> !emit.buffer<lm, 2x4xi8, strides = [32, 1]>
  }
}

// -----

// emit.depthwise on the array (matrix): mm_cfg carries the pitches within a
// channel (lda: image rows of 8 B, ldb: 9 taps, ldc: 64 B of results per
// channel) and the zero points, mm_dw_cfg the window, the output rows, the
// image's channel pitch (64) and extent (4 x 6; no pads: the image holds
// every row the window reaches), mm_dw the operands, 2 channels and 4
// columns. With pads [1, 2] the feeder pads: pt = 1, pl = 2. No VECTOR
// instruction.
// CHECK:      enc.mm_cfg lda = 8, ldb = 9, ldc = 64, a_zp = 3, b_zp = -1
// CHECK-NEXT: enc.mm_dw_cfg kh = 3, kw = 3, sh = 1, sw = 1, dh = 1, dw = 1, orows = 2, a_pitch = 64, e_pitch = 0, pt = 0, pl = 0, ih = 4, iw = 6
// CHECK-NEXT: enc.mm_dw mode = 1, acc = 0, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 4, d_addr = 0, e_reg = 0, e_addr = 0, bias = 0, relu = 0, channels = 2, cols = 4
// CHECK-NEXT: enc.mm_dw_cfg kh = 3, kw = 3, sh = 1, sw = 1, dh = 1, dw = 1, orows = 2, a_pitch = 64, e_pitch = 0, pt = 1, pl = 2, ih = 4, iw = 6
// CHECK-NEXT: enc.mm_dw mode = 1,
// CHECK-NOT:  enc.v_
module {
  emit.program target "npu-v1" {
    %a = emit.alloc {offset = 0} : !emit.buffer<lm, 2x4x6xui8, strides = [64, 8, 1]>
    %b = emit.alloc {offset = 128} : !emit.buffer<lm, 2x9xi8, strides = [9, 1]>
    %d = emit.alloc {offset = 0} : !emit.buffer<acc, 2x2x4xi32, strides = [64, 16, 4]>
    emit.depthwise MAC %a, %b -> %d {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, a_zp = 3, b_zp = -1, matrix} : !emit.buffer<lm, 2x4x6xui8, strides = [64, 8, 1]>, !emit.buffer<lm, 2x9xi8, strides = [9, 1]> -> !emit.buffer<acc, 2x2x4xi32, strides = [64, 16, 4]>
    emit.depthwise MAC %a, %b -> %d {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, a_zp = 3, b_zp = -1, matrix, pads = array<i64: 1, 2>} : !emit.buffer<lm, 2x4x6xui8, strides = [64, 8, 1]>, !emit.buffer<lm, 2x9xi8, strides = [9, 1]> -> !emit.buffer<acc, 2x2x4xi32, strides = [64, 16, 4]>
  }
}

// -----

// What a field can encode is checked here, apart from capacity: a GM offset
// past 4 GiB cannot be written into the 32-bit offset field.
module {
  emit.program target "npu-v1" {
    %ar = emit.alloc {offset = 4294967296} : !emit.buffer<arena, 8xi8, strides = [1]>
    %t = emit.alloc {offset = 0} : !emit.buffer<lm, 8xi8, strides = [1]>
    // expected-error @+1 {{'emit.dma' op GM address 4294967296 spanning 8 bytes is outside the 32-bit offset field's range (4 GiB), an encoding limit, not a capacity one}}
    emit.dma %ar -> %t : !emit.buffer<arena, 8xi8, strides = [1]> -> !emit.buffer<lm, 8xi8, strides = [1]>
  }
}

// -----

// A repeated matmul (one product per depthwise channel) becomes a hardware
// loop: three borrowed registers start at 0 and advance by the steps after
// each product; the loop body is the matmul and the three adds.
// CHECK:      enc.mm_cfg lda = 9, ldb = 1, ldc = 4, a_zp = 0, b_zp = 0
// CHECK-NEXT: enc.li rd = 1, imm = 0
// CHECK-NEXT: enc.li rd = 2, imm = 0
// CHECK-NEXT: enc.li rd = 3, imm = 0
// CHECK-NEXT: enc.loop rc = 0, count = 3, body = 4
// CHECK-NEXT: enc.matmul mode = 0, acc = 0, a_reg = 1, b_reg = 2, c_reg = 3, a_addr = 0, b_addr = 12, c_addr = 0, m = 4, n = 1, k = 9
// CHECK-NEXT: enc.alui func = 0, rd = 1, rs1 = 1, imm = 64
// CHECK-NEXT: enc.alui func = 0, rd = 2, rs1 = 2, imm = 64
// CHECK-NEXT: enc.alui func = 0, rd = 3, rs1 = 3, imm = 64
// CHECK-NEXT: enc.end
module {
  emit.program target "npu-v1-tiny" {
    %a = emit.alloc {offset = 0} : !emit.buffer<lm, 3x64xi8, strides = [64, 1]>
    %w = emit.alloc {offset = 384} : !emit.buffer<lm, 3x64xi8, strides = [64, 1]>
    %c = emit.alloc {offset = 0} : !emit.buffer<acc, 3x16xi32, strides = [64, 4]>
    %a0 = emit.view %a[0] : !emit.buffer<lm, 3x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 4x9xi8, strides = [9, 1]>
    %w0 = emit.view %w[0] : !emit.buffer<lm, 3x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 9x1xi8, strides = [1, 1]>
    %c0 = emit.view %c[0] : !emit.buffer<acc, 3x16xi32, strides = [64, 4]> -> !emit.buffer<acc, 4x1xi32, strides = [4, 4]>
    emit.matmul %a0, %w0 -> %c0 {count = 3, a_step = 64, b_step = 64, c_step = 64} : !emit.buffer<lm, 4x9xi8, strides = [9, 1]>, !emit.buffer<lm, 9x1xi8, strides = [1, 1]> -> !emit.buffer<acc, 4x1xi32, strides = [4, 4]>
  }
}

// -----

// An integer immediate encodes the value its type says: 128 as uint8 is
// 0x80 (128), -128 as int8 sign-extends (0xffffff80), as the elements read it.
// CHECK: enc.v_bini func = 8, dtype = 1, {{.*}}imm = 128
// CHECK: enc.v_bini func = 8, dtype = 0, {{.*}}imm = 4294967168
module {
  emit.program target "npu-v1" {
    %u = emit.alloc {offset = 0} : !emit.buffer<lm, 1x32xui8, strides = [32, 1]>
    %s = emit.alloc {offset = 64} : !emit.buffer<lm, 1x32xi8, strides = [32, 1]>
    emit.vbini XOR %u, 128 : ui8 -> %u : !emit.buffer<lm, 1x32xui8, strides = [32, 1]> -> !emit.buffer<lm, 1x32xui8, strides = [32, 1]>
    emit.vbini XOR %s, -128 : i8 -> %s : !emit.buffer<lm, 1x32xi8, strides = [32, 1]> -> !emit.buffer<lm, 1x32xi8, strides = [32, 1]>
  }
}

// -----

// emit.hw_loop: one register per address stream (here the GM source,
// stepping 64 bytes per iteration) starts at 0 before the LOOP and advances
// at the end of the body. A descriptor word the body sends as the only one
// of its kind is the same every iteration: it is sent once, before the
// LOOP. Body: the dma_in and the alui.
// CHECK:      enc.tensor "input" "x" : i8 shape [8, 64]
// CHECK:      enc.li rd = 1, imm = 0
// CHECK-NEXT: enc.dma_in_shape
// CHECK-NEXT: enc.dma_in_sstride
// CHECK-NEXT: enc.dma_in_dstride
// CHECK-NEXT: enc.loop rc = 0, count = 4, body = 2
// CHECK-NEXT: enc.dma_in src_region = 2, src_reg = 1, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 2, src_off = 128
// CHECK-NEXT: enc.alui func = 0, rd = 1, rs1 = 1, imm = 64
// CHECK-NEXT: enc.end
module {
  emit.program target "npu-v1" {
    %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 8x64xi8, strides = [64, 1]>
    %lm = emit.alloc {offset = 64} : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %v = emit.view %in[128] : !emit.buffer<input, 8x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    emit.hw_loop 4 {
      emit.dma %v -> %lm {emit.steps = array<i64: 64, 0>} : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    }
  }
}

// -----

// Nested hardware loops share one register per stream: the inner body adds
// the inner step (64); the outer body adds its own step less what the inner
// loop added (1024 - 5 * 64 = 704). The LM tile steps by 64 per row only
// (its inner level is 0): a second stream, which orders first (local before
// global). Both registers are set before the nest, and the descriptor words
// leave both loops.
// CHECK:      enc.tensor "input" "x" : i8 shape [3, 1024]
// CHECK:      enc.li rd = 1, imm = 0
// CHECK-NEXT: enc.li rd = 2, imm = 0
// CHECK-NEXT: enc.dma_in_shape
// CHECK-NEXT: enc.dma_in_sstride
// CHECK-NEXT: enc.dma_in_dstride
// CHECK-NEXT: enc.loop rc = 0, count = 3, body = 5
// CHECK-NEXT: enc.loop rc = 0, count = 5, body = 2
// CHECK-NEXT: enc.dma_in src_region = 2, src_reg = 2, dst_space = 0, elem = 0, pad = 0, dst_reg = 1, dst_addr = 0, src_off = 0
// CHECK-NEXT: enc.alui func = 0, rd = 2, rs1 = 2, imm = 64
// CHECK-NEXT: enc.alui func = 0, rd = 1, rs1 = 1, imm = 64
// CHECK-NEXT: enc.alui func = 0, rd = 2, rs1 = 2, imm = 704
// CHECK-NEXT: enc.end
module {
  emit.program target "npu-v1-tiny" {
    %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 3x1024xi8, strides = [1024, 1]>
    %lm = emit.alloc {offset = 0} : !emit.buffer<lm, 3x64xi8, strides = [64, 1]>
    %v = emit.view %in[0] : !emit.buffer<input, 3x1024xi8, strides = [1024, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %t = emit.view %lm[0] : !emit.buffer<lm, 3x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    emit.hw_loop 3 {
      emit.hw_loop 5 {
        emit.dma %v -> %t {emit.steps = array<i64: 64, 0, 1024, 64>} : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
      }
    }
  }
}

// -----

// A repeated matmul in a hardware loop is a LOOP in a LOOP; its three
// registers are borrowed inside the outer loop's scope. Its A operand steps
// with the outer loop (stream register r1), so the matmul's own register for
// A starts as a copy of r1 (alu add), not at 0.
// CHECK:      enc.program target "npu-v1-tiny" {
// CHECK-NEXT: enc.li rd = 1, imm = 0
// CHECK-NEXT: enc.mm_cfg
// CHECK-NEXT: enc.loop rc = 0, count = 2, body = 9
// CHECK-NEXT: enc.alu func = 0, rd = 2, rs1 = 1, rs2 = 0
// CHECK-NEXT: enc.li rd = 3, imm = 0
// CHECK-NEXT: enc.li rd = 4, imm = 0
// CHECK-NEXT: enc.loop rc = 0, count = 3, body = 4
// CHECK-NEXT: enc.matmul mode = 0, acc = 0, a_reg = 2, b_reg = 3, c_reg = 4
// CHECK-NEXT: enc.alui func = 0, rd = 2, rs1 = 2, imm = 64
// CHECK-NEXT: enc.alui func = 0, rd = 3, rs1 = 3, imm = 64
// CHECK-NEXT: enc.alui func = 0, rd = 4, rs1 = 4, imm = 64
// CHECK-NEXT: enc.alui func = 0, rd = 1, rs1 = 1, imm = 192
// CHECK-NEXT: enc.end
module {
  emit.program target "npu-v1-tiny" {
    %a = emit.alloc {offset = 0} : !emit.buffer<lm, 6x64xi8, strides = [64, 1]>
    %w = emit.alloc {offset = 384} : !emit.buffer<lm, 3x64xi8, strides = [64, 1]>
    %c = emit.alloc {offset = 0} : !emit.buffer<acc, 3x16xi32, strides = [64, 4]>
    %a0 = emit.view %a[0] : !emit.buffer<lm, 6x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 4x9xi8, strides = [9, 1]>
    %w0 = emit.view %w[0] : !emit.buffer<lm, 3x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 9x1xi8, strides = [1, 1]>
    %c0 = emit.view %c[0] : !emit.buffer<acc, 3x16xi32, strides = [64, 4]> -> !emit.buffer<acc, 4x1xi32, strides = [4, 4]>
    emit.hw_loop 2 {
      emit.matmul %a0, %w0 -> %c0 {count = 3, a_step = 64, b_step = 64, c_step = 64, emit.steps = array<i64: 192, 0, 0>} : !emit.buffer<lm, 4x9xi8, strides = [9, 1]>, !emit.buffer<lm, 9x1xi8, strides = [1, 1]> -> !emit.buffer<acc, 4x1xi32, strides = [4, 4]>
    }
  }
}

// -----

// Registers run out: five address streams hold r1..r5 of npu-v1-tiny's
// r1..r7, and the repeated matmul in the body needs three more. The
// diagnostic is located at the matmul and says how many are free.
module {
  emit.program target "npu-v1-tiny" {
    %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 8x64xi8, strides = [64, 1]>
    %l = emit.alloc {offset = 512} : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %v = emit.view %in[0] : !emit.buffer<input, 8x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    %a = emit.alloc {offset = 0} : !emit.buffer<lm, 3x64xi8, strides = [64, 1]>
    %w = emit.alloc {offset = 384} : !emit.buffer<lm, 3x64xi8, strides = [64, 1]>
    %c = emit.alloc {offset = 0} : !emit.buffer<acc, 3x16xi32, strides = [64, 4]>
    %a0 = emit.view %a[0] : !emit.buffer<lm, 3x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 4x9xi8, strides = [9, 1]>
    %w0 = emit.view %w[0] : !emit.buffer<lm, 3x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 9x1xi8, strides = [1, 1]>
    %c0 = emit.view %c[0] : !emit.buffer<acc, 3x16xi32, strides = [64, 4]> -> !emit.buffer<acc, 4x1xi32, strides = [4, 4]>
    emit.hw_loop 2 {
      emit.dma %v -> %l {emit.steps = array<i64: 1, 0>} : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
      emit.dma %v -> %l {emit.steps = array<i64: 2, 0>} : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
      emit.dma %v -> %l {emit.steps = array<i64: 3, 0>} : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
      emit.dma %v -> %l {emit.steps = array<i64: 4, 0>} : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
      emit.dma %v -> %l {emit.steps = array<i64: 5, 0>} : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
      // expected-error @+1 {{'emit.matmul' op needs 3 scalar registers but only 2 of npu-v1-tiny's 7 (r1..r7) are free}}
      emit.matmul %a0, %w0 -> %c0 {count = 3, a_step = 64, b_step = 64, c_step = 64} : !emit.buffer<lm, 4x9xi8, strides = [9, 1]>, !emit.buffer<lm, 9x1xi8, strides = [1, 1]> -> !emit.buffer<acc, 4x1xi32, strides = [4, 4]>
    }
  }
}

// -----

// A local step must keep every iteration's alignment (a multiple of the
// MATRIX alignment, 64), and its last iteration must stay in LM.
module {
  emit.program target "npu-v1-tiny" {
    %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 8x64xi8, strides = [64, 1]>
    %l = emit.alloc {offset = 0} : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %v = emit.view %in[0] : !emit.buffer<input, 8x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    emit.hw_loop 4 {
      // expected-error @+1 {{'emit.dma' op steps a local operand by 32 bytes, not a multiple of 64: every iteration must keep the first one's alignment}}
      emit.dma %v -> %l {emit.steps = array<i64: 0, 32>} : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    }
  }
}

// -----

module {
  emit.program target "npu-v1-tiny" {
    %in = emit.alloc {name = "x", offset = 0} : !emit.buffer<input, 8x64xi8, strides = [64, 1]>
    %l = emit.alloc {offset = 0} : !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    %v = emit.view %in[0] : !emit.buffer<input, 8x64xi8, strides = [64, 1]> -> !emit.buffer<input, 1x64xi8, strides = [64, 1]>
    emit.hw_loop 3 {
      // expected-error @+1 {{'emit.dma' op steps a local operand to [0, 131072], outside the 131072 bytes of lm}}
      emit.dma %v -> %l {emit.steps = array<i64: 0, 65536>} : !emit.buffer<input, 1x64xi8, strides = [64, 1]> -> !emit.buffer<lm, 1x64xi8, strides = [64, 1]>
    }
  }
}

// -----

// A cast with a scale is one V_DEQUANT (integer -> f32) or V_QUANT (f32 ->
// integer): the scale as its fp32 bits (0.5 = 0x3f000000 = 1056964608), the
// zero point in its field.
// CHECK:      enc.tensor "input" "q" : ui8 shape [1, 8]
// CHECK:      enc.v_dequant itype = 1, a_space = 0, d_space = 0, a_reg = 0, d_reg = 0, a_addr = 0, d_addr = 2, scale = 1056964608, zp = 128
// CHECK-NEXT: enc.v_quant otype = 0, a_space = 0, d_space = 0, a_reg = 0, d_reg = 0, a_addr = 2, d_addr = 4, scale = 1056964608, zp = -5
module {
  emit.program target "npu-v1" {
    %in = emit.alloc {name = "q", offset = 0} : !emit.buffer<input, 1x8xui8, strides = [8, 1]>
    %a = emit.alloc {offset = 0} : !emit.buffer<lm, 1x8xui8, strides = [32, 1]>
    %f = emit.alloc {offset = 64} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %d = emit.alloc {offset = 128} : !emit.buffer<lm, 1x8xi8, strides = [32, 1]>
    emit.cast %a -> %f {scale = 0.5 : f32, zp = 128} : !emit.buffer<lm, 1x8xui8, strides = [32, 1]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    emit.cast %f -> %d {scale = 0.5 : f32, zp = -5} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xi8, strides = [32, 1]>
  }
}

// -----

// V_CMP and V_SEL: func (GT = 4 of CmpFunc) and dtype (F32 = 5, I32 = 3) of
// the compared or selected elements, not of the i8 mask; V_SEL's third
// operand m (the mask, read with d's pitch) gets its own space, register and
// granule (m_addr, LM byte 128 = granule 4 and byte 352 = granule 11). Each
// op's v_shape carries its broadcasts: b a row (pitch 0), then b a column
// (b_bcast), then a a [1, 1] (a_pitch 0 and a_bcast) against an acc b and d.
// CHECK:      enc.program target "npu-v1"
// CHECK-NEXT:   enc.v_shape rows = 2, cols = 8, a_pitch = 32, b_pitch = 0, d_pitch = 32, a_bcast = 0, b_bcast = 0
// CHECK-NEXT:   enc.v_cmp func = 4, dtype = 5, a_space = 0, b_space = 0, d_space = 0, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 2, d_addr = 4
// CHECK-NEXT:   enc.v_shape rows = 2, cols = 8, a_pitch = 32, b_pitch = 32, d_pitch = 32, a_bcast = 0, b_bcast = 1
// CHECK-NEXT:   enc.v_sel dtype = 5, a_space = 0, b_space = 0, d_space = 0, m_space = 0, a_reg = 0, b_reg = 0, d_reg = 0, m_reg = 0, a_addr = 0, b_addr = 6, d_addr = 8, m_addr = 4
// CHECK-NEXT:   enc.v_shape rows = 2, cols = 8, a_pitch = 0, b_pitch = 32, d_pitch = 32, a_bcast = 1, b_bcast = 0
// CHECK-NEXT:   enc.v_sel dtype = 3, a_space = 0, b_space = 1, d_space = 1, m_space = 0, a_reg = 0, b_reg = 0, d_reg = 0, m_reg = 0, a_addr = 14, b_addr = 0, d_addr = 0, m_addr = 11
// CHECK-NEXT:   enc.end
module {
  emit.program target "npu-v1" {
    %a = emit.alloc {offset = 0} : !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
    %b = emit.alloc {offset = 64} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
    %m = emit.alloc {offset = 128} : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
    %c = emit.alloc {offset = 192} : !emit.buffer<lm, 2x1xf32, strides = [32, 4]>
    %d = emit.alloc {offset = 256} : !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
    %mm = emit.alloc {offset = 352} : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
    %acc = emit.alloc {offset = 0} : !emit.buffer<acc, 2x8xi32, strides = [32, 4]>
    %one = emit.alloc {offset = 448} : !emit.buffer<lm, 1x1xi32, strides = [32, 4]>
    emit.vcmp GT %a, %b -> %m : !emit.buffer<lm, 2x8xf32, strides = [32, 4]>, !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
    emit.vsel %m ? %a : %c -> %d : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>, !emit.buffer<lm, 2x8xf32, strides = [32, 4]>, !emit.buffer<lm, 2x1xf32, strides = [32, 4]> -> !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
    emit.vsel %mm ? %one : %acc -> %acc : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>, !emit.buffer<lm, 1x1xi32, strides = [32, 4]>, !emit.buffer<acc, 2x8xi32, strides = [32, 4]> -> !emit.buffer<acc, 2x8xi32, strides = [32, 4]>
  }
}

// -----

// A gather: the row box innermost (8 f32 of a row), the list's length in
// dimension 3 with the table's row stride and the destination's pitch, the
// index list and the table's row count in dma_in_idx, then dma_in_gather.
// CHECK:      enc.dma_in_shape n0 = 8, n1 = 1, n2 = 1, n3 = 2
// CHECK-NEXT: enc.dma_in_sstride s0 = 4, s1 = 0, s2 = 0, s3 = 32
// CHECK-NEXT: enc.dma_in_dstride s0 = 4, s1 = 0, s2 = 0, s3 = 64
// CHECK-NEXT: enc.dma_in_idx idx_reg = 0, idx_addr = 8, rows = 4
// CHECK-NEXT: enc.dma_in_gather src_region = 1, src_reg = 0, elem = 2, dst_reg = 0, dst_addr = 16, src_off = 128
module {
  emit.program target "npu-v1" {
    %t = emit.alloc {offset = 128} : !emit.buffer<arena, 4x8xf32, strides = [32, 4]>
    %i = emit.alloc {offset = 256} : !emit.buffer<lm, 2xi32, strides = [4]>
    %d = emit.alloc {offset = 512} : !emit.buffer<lm, 2x8xf32, strides = [64, 4]>
    emit.gather %t[%i] -> %d : !emit.buffer<arena, 4x8xf32, strides = [32, 4]>, !emit.buffer<lm, 2xi32, strides = [4]> -> !emit.buffer<lm, 2x8xf32, strides = [64, 4]>
  }
}

// -----

// A scatter with MAX: the box and the list as for a gather, on DMA_OUT; the
// combining function and the element type in dma_out_idx.
// CHECK:      enc.dma_out_shape n0 = 8, n1 = 1, n2 = 1, n3 = 2
// CHECK-NEXT: enc.dma_out_sstride s0 = 4, s1 = 0, s2 = 0, s3 = 64
// CHECK-NEXT: enc.dma_out_dstride s0 = 4, s1 = 0, s2 = 0, s3 = 32
// CHECK-NEXT: enc.dma_out_idx idx_reg = 0, idx_addr = 8, rows = 4, func = 2, dtype = 5
// CHECK-NEXT: enc.dma_out_scatter src_reg = 0, dst_region = 1, elem = 2, dst_reg = 0, src_addr = 16, dst_off = 128
module {
  emit.program target "npu-v1" {
    %t = emit.alloc {offset = 128} : !emit.buffer<arena, 4x8xf32, strides = [32, 4]>
    %i = emit.alloc {offset = 256} : !emit.buffer<lm, 2xi32, strides = [4]>
    %s = emit.alloc {offset = 512} : !emit.buffer<lm, 2x8xf32, strides = [64, 4]>
    emit.scatter MAX %s -> %t[%i] : !emit.buffer<lm, 2x8xf32, strides = [64, 4]>, !emit.buffer<lm, 2xi32, strides = [4]> -> !emit.buffer<arena, 4x8xf32, strides = [32, 4]>
  }
}

// -----

// A row box of one element along a dimension has no stride to encode: the
// table's A dimension (extent 1, stride past the 28-bit field, as a table of
// more than 128 MiB has) is sent as 0.
// CHECK:      enc.dma_in_shape n0 = 8, n1 = 1, n2 = 1, n3 = 2
// CHECK-NEXT: enc.dma_in_sstride s0 = 4, s1 = 0, s2 = 0, s3 = 32
module {
  emit.program target "npu-v1" {
    %t = emit.alloc {offset = 0} : !emit.buffer<arena, 4x1x8xf32, strides = [32, 400000000, 4]>
    %i = emit.alloc {offset = 256} : !emit.buffer<lm, 2xi32, strides = [4]>
    %d = emit.alloc {offset = 512} : !emit.buffer<lm, 2x1x8xf32, strides = [32, 32, 4]>
    emit.gather %t[%i] -> %d : !emit.buffer<arena, 4x1x8xf32, strides = [32, 400000000, 4]>, !emit.buffer<lm, 2xi32, strides = [4]> -> !emit.buffer<lm, 2x1x8xf32, strides = [32, 32, 4]>
  }
}
