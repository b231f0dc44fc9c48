// A 2x3 by 3x2 int8 matmul with input zero point 1, requantized per tensor
// (M = 2^30, ls = 1, rs = 2: x / 4 rounded half away from zero, zero point 3,
// clamp [-128, 20]). Worked by hand:
//   A - 1 = [[0, 1, 2], [-5, 4, -7]],  B = [[7, -8], [9, 10], [-11, 12]]
//   C = [[-13, 34], [78, -4]]
//   C / 4 = [[-3.25, 8.5], [19.5, -1]] -> [[-3, 9], [20, -1]]
//   + 3 = [[0, 12], [23, 2]] -> clamp -> [[0, 12], [20, 2]]
// RUN: npuc-translate --export-npu-model %s -o %t.bin
// RUN: rm -rf %t.out && npu-sim %t.bin -o %t.out --stats | FileCheck %s --check-prefix=STATS
// RUN: %python -c "import numpy as np; print(np.load('%t.out/output_0.npy').tolist())" | FileCheck %s
// CHECK: {{\[\[}}0, 12], [20, 2]]
// STATS: engine MATRIX: 4 instructions
// STATS: MACs: 12

enc.const offset 0 dense<[[1, 2, 3], [-4, 5, -6]]> : tensor<2x3xi8>
enc.const offset 64 dense<[[7, -8], [9, 10], [-11, 12]]> : tensor<3x2xi8>
enc.tensor "output" "y" : i8 shape [2, 2] strides [2, 1] offset 0
enc.program target "npu-v1" {
  enc.dma_in_shape n0 = 3, n1 = 2, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 3, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 1, s1 = 64, s2 = 0, s3 = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.dma_in_shape n0 = 2, n1 = 3, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 2, s2 = 0, s3 = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 32, src_off = 64
  enc.set_flag eng = 1, peer = 3, id = 0
  enc.mm_cfg lda = 64, ldb = 64, ldc = 64, a_zp = 1, b_zp = 0
  enc.wait_flag eng = 3, peer = 1, id = 0
  enc.matmul mode = 0, acc = 0, a_reg = 0, b_reg = 0, c_reg = 0, a_addr = 0, b_addr = 32, c_addr = 0, m = 2, n = 2, k = 3 loc("gemm_node")
  enc.set_flag eng = 3, peer = 4, id = 0
  enc.v_shape rows = 2, cols = 2, a_pitch = 64, b_pitch = 0, d_pitch = 32, a_bcast = 0, b_bcast = 0
  enc.v_rq_cfg mult = 1073741824, ls = 1, rs = 2, zp = 3, lo = -128, hi = 20
  enc.wait_flag eng = 4, peer = 3, id = 0
  enc.v_requant otype = 0, pmode = 0, a_space = 1, d_space = 0, a_reg = 0, d_reg = 0, p_reg = 0, a_addr = 0, d_addr = 64, p_addr = 0
  enc.set_flag eng = 4, peer = 2, id = 0
  enc.dma_out_shape n0 = 2, n1 = 2, n2 = 1, n3 = 1
  enc.dma_out_sstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
  enc.dma_out_dstride s0 = 1, s1 = 2, s2 = 0, s3 = 0
  enc.wait_flag eng = 2, peer = 4, id = 0
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 64, dst_off = 0
  enc.end
}
