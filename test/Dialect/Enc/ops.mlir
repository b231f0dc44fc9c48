// Round trip of enc.program and of every instruction op, in the custom form
// and through the generic form. The first program names npu-v1-tiny and stays
// within its 8 registers (r0..r7) and 2 flags per engine pair (ids 0..1).
// RUN: npuc-opt %s -split-input-file | npuc-opt -split-input-file | FileCheck %s
// RUN: npuc-opt %s -split-input-file --mlir-print-op-generic | npuc-opt -split-input-file | FileCheck %s

// CHECK-LABEL: enc.program target "npu-v1-tiny" {
enc.program target "npu-v1-tiny" {
  // CHECK-NEXT: enc.nop
  enc.nop
  // CHECK-NEXT: enc.li rd = 1, imm = -2147483648
  enc.li rd = 1, imm = -2147483648
  // CHECK-NEXT: enc.li rd = 7, imm = 2147483647
  enc.li rd = 7, imm = 2147483647
  // CHECK-NEXT: enc.alu func = 10, rd = 2, rs1 = 1, rs2 = 7
  enc.alu func = 10, rd = 2, rs1 = 1, rs2 = 7
  // CHECK-NEXT: enc.alui func = 0, rd = 3, rs1 = 0, imm = -5
  enc.alui func = 0, rd = 3, rs1 = 0, imm = -5
  // CHECK-NEXT: enc.cmp func = 6, rd = 4, rs1 = 3, rs2 = 2
  enc.cmp func = 6, rd = 4, rs1 = 3, rs2 = 2
  // CHECK-NEXT: enc.br cond = 1, rs1 = 4, rs2 = 0, offset = -3
  enc.br cond = 1, rs1 = 4, rs2 = 0, offset = -3
  // CHECK-NEXT: enc.jmp offset = 2
  enc.jmp offset = 2
  // CHECK-NEXT: enc.loop rc = 5, count = 65535, body = 1
  enc.loop rc = 5, count = 65535, body = 1
  // CHECK-NEXT: enc.barrier mask = 15
  enc.barrier mask = 15
  // CHECK-NEXT: enc.dma_in_shape n0 = 7, n1 = 3, n2 = 1, n3 = 65535
  enc.dma_in_shape n0 = 7, n1 = 3, n2 = 1, n3 = 65535
  // CHECK-NEXT: enc.dma_in_sstride s0 = 1, s1 = 7, s2 = -134217728, s3 = 0
  enc.dma_in_sstride s0 = 1, s1 = 7, s2 = -134217728, s3 = 0
  // CHECK-NEXT: enc.dma_in_dstride s0 = 1, s1 = 32, s2 = 134217727, s3 = 0
  enc.dma_in_dstride s0 = 1, s1 = 32, s2 = 134217727, s3 = 0
  // CHECK-NEXT: enc.dma_in_pad lo0 = 1, lo1 = 2, lo2 = 0, lo3 = 0, hi0 = 255, hi1 = 4, hi2 = 0, hi3 = 0, fill = 4294967295
  enc.dma_in_pad lo0 = 1, lo1 = 2, lo2 = 0, lo3 = 0, hi0 = 255, hi1 = 4, hi2 = 0, hi3 = 0, fill = 4294967295
  // CHECK-NEXT: enc.dma_in src_region = 2, src_reg = 0, dst_space = 0, elem = 0, pad = 1, dst_reg = 6, dst_addr = 2, src_off = 4096
  enc.dma_in src_region = 2, src_reg = 0, dst_space = 0, elem = 0, pad = 1, dst_reg = 6, dst_addr = 2, src_off = 4096
  // CHECK-NEXT: enc.set_flag eng = 1, peer = 3, id = 1
  enc.set_flag eng = 1, peer = 3, id = 1
  // CHECK-NEXT: enc.wait_flag eng = 3, peer = 1, id = 1
  enc.wait_flag eng = 3, peer = 1, id = 1
  // CHECK-NEXT: enc.mm_cfg lda = 32, ldb = 64, ldc = 128, a_zp = -128, b_zp = 255
  enc.mm_cfg lda = 32, ldb = 64, ldc = 128, a_zp = -128, b_zp = 255
  // CHECK-NEXT: enc.matmul mode = 1, acc = 1, a_reg = 0, b_reg = 1, c_reg = 7, a_addr = 2, b_addr = 100, c_addr = 65535, m = 3, n = 4095, k = 7
  enc.matmul mode = 1, acc = 1, a_reg = 0, b_reg = 1, c_reg = 7, a_addr = 2, b_addr = 100, c_addr = 65535, m = 3, n = 4095, k = 7
  // CHECK-NEXT: enc.set_flag eng = 3, peer = 4, id = 0
  enc.set_flag eng = 3, peer = 4, id = 0
  // CHECK-NEXT: enc.wait_flag eng = 4, peer = 3, id = 0
  enc.wait_flag eng = 4, peer = 3, id = 0
  // CHECK-NEXT: enc.v_shape rows = 3, cols = 7, a_pitch = 32, b_pitch = 0, d_pitch = -8388608, a_bcast = 0, b_bcast = 1
  enc.v_shape rows = 3, cols = 7, a_pitch = 32, b_pitch = 0, d_pitch = -8388608, a_bcast = 0, b_bcast = 1
  // CHECK-NEXT: enc.v_bin func = 10, dtype = 3, a_space = 1, b_space = 0, d_space = 1, a_reg = 1, b_reg = 2, d_reg = 3, a_addr = 4, b_addr = 5, d_addr = 6
  enc.v_bin func = 10, dtype = 3, a_space = 1, b_space = 0, d_space = 1, a_reg = 1, b_reg = 2, d_reg = 3, a_addr = 4, b_addr = 5, d_addr = 6
  // CHECK-NEXT: enc.v_bini func = 2, dtype = 5, a_space = 0, d_space = 1, a_reg = 7, d_reg = 6, a_addr = 8, d_addr = 9, imm = 1065353216
  enc.v_bini func = 2, dtype = 5, a_space = 0, d_space = 1, a_reg = 7, d_reg = 6, a_addr = 8, d_addr = 9, imm = 1065353216
  // CHECK-NEXT: enc.v_un func = 15, dtype = 4, a_space = 0, d_space = 0, a_reg = 0, d_reg = 0, a_addr = 10, d_addr = 11
  enc.v_un func = 15, dtype = 4, a_space = 0, d_space = 0, a_reg = 0, d_reg = 0, a_addr = 10, d_addr = 11
  // CHECK-NEXT: enc.v_rq_cfg mult = 2147483647, ls = 31, rs = 7, zp = -3, lo = -128, hi = 127
  enc.v_rq_cfg mult = 2147483647, ls = 31, rs = 7, zp = -3, lo = -128, hi = 127
  // CHECK-NEXT: enc.v_requant otype = 0, pmode = 2, a_space = 1, d_space = 0, a_reg = 1, d_reg = 2, p_reg = 3, a_addr = 12, d_addr = 13, p_addr = 14
  enc.v_requant otype = 0, pmode = 2, a_space = 1, d_space = 0, a_reg = 1, d_reg = 2, p_reg = 3, a_addr = 12, d_addr = 13, p_addr = 14
  // CHECK-NEXT: enc.v_lut table = 3, itype = 2, otype = 1, a_space = 0, d_space = 1, a_reg = 4, d_reg = 5, a_addr = 15, d_addr = 16
  enc.v_lut table = 3, itype = 2, otype = 1, a_space = 0, d_space = 1, a_reg = 4, d_reg = 5, a_addr = 15, d_addr = 16
  // CHECK-NEXT: enc.v_reduce func = 2, axis = 1, itype = 3, a_space = 1, d_space = 1, a_reg = 0, d_reg = 0, a_addr = 17, d_addr = 18, otype = 3
  enc.v_reduce func = 2, axis = 1, itype = 3, a_space = 1, d_space = 1, a_reg = 0, d_reg = 0, a_addr = 17, d_addr = 18, otype = 3
  // CHECK-NEXT: enc.v_cast itype = 5, otype = 0, a_space = 1, d_space = 0, a_reg = 6, d_reg = 7, a_addr = 19, d_addr = 20
  enc.v_cast itype = 5, otype = 0, a_space = 1, d_space = 0, a_reg = 6, d_reg = 7, a_addr = 19, d_addr = 20
  // CHECK-NEXT: enc.v_cmp func = 5, dtype = 1, a_space = 0, b_space = 1, d_space = 0, a_reg = 1, b_reg = 2, d_reg = 3, a_addr = 21, b_addr = 22, d_addr = 23
  enc.v_cmp func = 5, dtype = 1, a_space = 0, b_space = 1, d_space = 0, a_reg = 1, b_reg = 2, d_reg = 3, a_addr = 21, b_addr = 22, d_addr = 23
  // CHECK-NEXT: enc.v_sel dtype = 0, a_space = 0, b_space = 0, d_space = 1, m_space = 0, a_reg = 1, b_reg = 2, d_reg = 3, m_reg = 4, a_addr = 24, b_addr = 25, d_addr = 26, m_addr = 27
  enc.v_sel dtype = 0, a_space = 0, b_space = 0, d_space = 1, m_space = 0, a_reg = 1, b_reg = 2, d_reg = 3, m_reg = 4, a_addr = 24, b_addr = 25, d_addr = 26, m_addr = 27
  // CHECK-NEXT: enc.set_flag eng = 4, peer = 2, id = 1
  enc.set_flag eng = 4, peer = 2, id = 1
  // CHECK-NEXT: enc.wait_flag eng = 2, peer = 4, id = 1
  enc.wait_flag eng = 2, peer = 4, id = 1
  // CHECK-NEXT: enc.dma_out_shape n0 = 7, n1 = 3, n2 = 1, n3 = 1
  enc.dma_out_shape n0 = 7, n1 = 3, n2 = 1, n3 = 1
  // CHECK-NEXT: enc.dma_out_sstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
  enc.dma_out_sstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
  // CHECK-NEXT: enc.dma_out_dstride s0 = 1, s1 = 7, s2 = 0, s3 = 0
  enc.dma_out_dstride s0 = 1, s1 = 7, s2 = 0, s3 = 0
  // CHECK-NEXT: enc.dma_out src_space = 1, src_reg = 0, dst_region = 3, elem = 2, dst_reg = 5, src_addr = 65535, dst_off = 4294967295
  enc.dma_out src_space = 1, src_reg = 0, dst_region = 3, elem = 2, dst_reg = 5, src_addr = 65535, dst_off = 4294967295
  // CHECK-NEXT: enc.end
  enc.end
// CHECK-NEXT: }
}

// -----

// Without a target only the ISA ranges apply: r15 and flag id 7 are encodable.
// CHECK-LABEL: enc.program {
enc.program {
  // CHECK-NEXT: enc.li rd = 15, imm = 0
  enc.li rd = 15, imm = 0
  // CHECK-NEXT: enc.set_flag eng = 0, peer = 4, id = 7
  enc.set_flag eng = 0, peer = 4, id = 7
  // CHECK-NEXT: enc.end
  enc.end
}

// -----

// npu-v1 has 16 registers and 8 flags per engine pair.
// CHECK-LABEL: enc.program target "npu-v1" attributes {origin = "test"} {
enc.program target "npu-v1" attributes {origin = "test"} {
  // CHECK-NEXT: enc.loop rc = 15, count = 0, body = 2
  enc.loop rc = 15, count = 0, body = 2
  // CHECK-NEXT: enc.wait_flag eng = 4, peer = 0, id = 7
  enc.wait_flag eng = 4, peer = 0, id = 7
  // CHECK-NEXT: enc.nop {note = 1 : i64}
  enc.nop {note = 1}
  // CHECK-NEXT: enc.end
  enc.end
}

// -----

// An empty program.
// CHECK-LABEL: enc.program target "npu-v1-tiny" {
// CHECK-NEXT: }
enc.program target "npu-v1-tiny" {
}
