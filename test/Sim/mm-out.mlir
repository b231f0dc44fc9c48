// The MATRIX output stage (mm_out), executed: the matmul of matmul-requant.mlir
// (C = [[-13, 34], [78, -4]]), then bias [1, -2] per column and the same
// per-tensor requantization (M = 2^30, ls = 1, rs = 2: x / 4 rounded half away
// from zero; zero point 3; clamp [-128, 20]), drained from ACC into LM:
//   C + bias = [[-12, 32], [79, -6]]
//   / 4      = [[-3, 8], [19.75, -1.5]] -> [[-3, 8], [20, -2]]
//   + 3      = [[0, 11], [23, 1]] -> clamp -> [[0, 11], [20, 1]]
// Then a per-column table (column 0: M = 2^30, ls = 0, rs = 0, zp = 0, i.e.
// SaturatingRoundingDoublingHighMul(x, 2^30) = (x * 2^30 + nudge) / 2^31
// truncated, docs/numerics.md: -13 -> (-14 * 2^30 + 1) / 2^31 -> -6, 78 -> 39;
// column 1: M = 2^30, ls = 1, rs = 0, zp = -1, i.e. x - 1; clamp [-128, 127]
// both), no bias: [[-6, 33], [39, -5]].
// No VECTOR instruction runs: the int32 tile never leaves MATRIX.
// Cycles: the matmul 2 * 64 + 64 = 192 (docs/target.md "Timing"), each
// output stage ceil(2 * 2 / 64) = 1 (the second after the first's drain), and
// mm_cfg, wait_flag, mm_rq_cfg and set_flag 1 each: 198 busy.
// RUN: npuc-translate --export-npu-model %s -o %t.bin
// RUN: rm -rf %t.out && npu-sim %t.bin -o %t.out --stats | FileCheck %s --check-prefix=STATS
// RUN: %python -c "import numpy as np; print(np.load('%t.out/output_0.npy').tolist(), np.load('%t.out/output_1.npy').tolist())" | FileCheck %s
// CHECK: {{\[\[}}0, 11], [20, 1]] {{\[\[}}-6, 33], [39, -5]]
// STATS: engine MATRIX: 7 instructions, busy 198 cycles
// STATS: engine VECTOR: 0 instructions

enc.const offset 0 dense<[[1, 2, 3], [-4, 5, -6]]> : tensor<2x3xi8>
enc.const offset 64 dense<[[7, -8], [9, 10], [-11, 12]]> : tensor<3x2xi8>
enc.const offset 128 dense<[1, -2]> : tensor<2xi32>
// Two 16-byte entries: mult (4 bytes LE), ls, rs, zp (2), lo (2), hi (2), pad.
enc.const offset 192 dense<[0, 0, 0, 64, 0, 0, 0, 0, 128, 255, 127, 0, 0, 0, 0, 0, 0, 0, 0, 64, 1, 0, 255, 255, 128, 255, 127, 0, 0, 0, 0, 0]> : tensor<32xui8>
enc.tensor "output" "y" : i8 shape [2, 2] strides [2, 1] offset 0
enc.tensor "output" "z" : i8 shape [2, 2] strides [2, 1] offset 64
enc.program target "npu-v1" {
  enc.dma_in_shape n0 = 3, n1 = 2, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 3, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 1, s1 = 64, s2 = 0, s3 = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.dma_in_shape n0 = 2, n1 = 3, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 2, s2 = 0, s3 = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 32, src_off = 64
  enc.dma_in_shape n0 = 8, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 1, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 40, src_off = 128
  enc.dma_in_shape n0 = 32, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 42, src_off = 192
  enc.set_flag eng = 1, peer = 3, id = 0
  enc.mm_cfg lda = 64, ldb = 64, ldc = 64, a_zp = 1, b_zp = 0
  enc.wait_flag eng = 3, peer = 1, id = 0
  enc.matmul mode = 0, acc = 0, a_reg = 0, b_reg = 0, c_reg = 0, a_addr = 0, b_addr = 32, c_addr = 0, m = 2, n = 2, k = 3
  enc.mm_rq_cfg mult = 1073741824, ls = 1, rs = 2, zp = 3, lo = -128, hi = 20, ldd = 32
  enc.mm_out otype = 0, pmode = 0, bias = 1, a_reg = 0, d_reg = 0, p_reg = 0, b_reg = 0, a_addr = 0, d_addr = 44, p_addr = 0, b_addr = 40, m = 2, n = 2, bias_row = 0
  enc.mm_out otype = 0, pmode = 1, bias = 0, a_reg = 0, d_reg = 0, p_reg = 0, b_reg = 0, a_addr = 0, d_addr = 46, p_addr = 42, b_addr = 0, m = 2, n = 2, bias_row = 0
  enc.set_flag eng = 3, peer = 2, id = 0
  enc.dma_out_shape n0 = 2, n1 = 2, n2 = 1, n3 = 1
  enc.dma_out_sstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
  enc.dma_out_dstride s0 = 1, s1 = 2, s2 = 0, s3 = 0
  enc.wait_flag eng = 2, peer = 3, id = 0
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 44, dst_off = 0
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 46, dst_off = 64
  enc.end
}
