// npu-sim's clock follows the geometry of docs/target.md "Timing" (npu-v1.md
// section 9). Every number below is worked by hand from those formulas with
// npu-v1's parameters (A = 64 for int8, 200-cycle DMA start, 64 bytes per
// cycle, 64-byte bursts, 4 descriptors in flight).
//
// DMA_IN: three configurations [0, 3); A (9 x 9 bytes, one 81-byte run: 2 bus
// cycles) starts at 3, data at 203, done 205; B (9 bytes, one burst) starts at
// 6, done 207 (its latency hid behind A's); four 6400-byte transfers (100 bus
// cycles each) start at 9 and 10, then at 205 and 207 when A and B free their
// slots, and finish back to back at 309, 409, 509, 609; set_flag issues at
// 208 (the queue goes on) and sets its flag at 610, once every descriptor is
// done. Busy: the union of those intervals, [0, 609).
// MATRIX: mm_cfg [0, 1), wait until 610, the [9 x 9] x [9 x 1] matmul costs
// 2A + ceil(9/64) * ceil(1/64) * max(9, 64) = 192 cycles (not 81 / 4096 of a
// cycle at peak), set_flag: 1 + 1 + 192 + 1 = 195.
// DMA_OUT: three configurations, the wait [804, 805), one 36-byte run (a
// burst) starting at 805: 1005 + 1 = 1006. Busy 3 + 1 + 201.
//
// C = A x B with A[i][j] = i - j and B all ones: C[i] = 9i - 36.
//
// RUN: npuc-translate --export-npu-model %s -o %t.bin
// RUN: rm -rf %t.out && npu-sim %t.bin -o %t.out --stats --trace %t.json | FileCheck %s --check-prefix=STATS
// RUN: %python -c "import numpy as np; print(np.load('%t.out/output_0.npy').ravel().tolist())" | FileCheck %s
// RUN: %python %S/Inputs/check_trace_nesting.py %t.json | FileCheck %s --check-prefix=TRACE
// CHECK: [-36, -27, -18, -9, 0, 9, 18, 27, 36]
// STATS: cycles: 1006
// STATS: engine DMA_IN: 14 instructions, busy 609 cycles
// STATS: engine DMA_OUT: 5 instructions, busy 205 cycles
// STATS: engine MATRIX: 4 instructions, busy 195 cycles
// STATS: GM bytes read: 25690
// TRACE: slices of one engine never overlap partially

enc.const offset 0 dense<[[0, -1, -2, -3, -4, -5, -6, -7, -8], [1, 0, -1, -2, -3, -4, -5, -6, -7], [2, 1, 0, -1, -2, -3, -4, -5, -6], [3, 2, 1, 0, -1, -2, -3, -4, -5], [4, 3, 2, 1, 0, -1, -2, -3, -4], [5, 4, 3, 2, 1, 0, -1, -2, -3], [6, 5, 4, 3, 2, 1, 0, -1, -2], [7, 6, 5, 4, 3, 2, 1, 0, -1], [8, 7, 6, 5, 4, 3, 2, 1, 0]]> : tensor<9x9xi8>
enc.const offset 128 dense<1> : tensor<9xi8>
enc.const offset 256 dense<1> : tensor<6400xi8>
enc.tensor "output" "y" : i32 shape [9, 1] strides [4, 4] offset 0
enc.program target "npu-v1" {
  enc.dma_in_shape n0 = 9, n1 = 9, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 9, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 1, s1 = 64, s2 = 0, s3 = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.dma_in_shape n0 = 1, n1 = 9, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 1, s2 = 0, s3 = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 20, src_off = 128
  enc.dma_in_shape n0 = 6400, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 40, src_off = 256
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 240, src_off = 256
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 440, src_off = 256
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 640, src_off = 256
  enc.set_flag eng = 1, peer = 3, id = 0
  enc.mm_cfg lda = 64, ldb = 64, ldc = 64, a_zp = 0, b_zp = 0
  enc.wait_flag eng = 3, peer = 1, id = 0
  enc.matmul mode = 0, acc = 0, a_reg = 0, b_reg = 0, c_reg = 0, a_addr = 0, b_addr = 20, c_addr = 0, m = 9, n = 1, k = 9
  enc.set_flag eng = 3, peer = 2, id = 0
  enc.dma_out_shape n0 = 1, n1 = 9, n2 = 1, n3 = 1
  enc.dma_out_sstride s0 = 4, s1 = 64, s2 = 0, s3 = 0
  enc.dma_out_dstride s0 = 4, s1 = 4, s2 = 0, s3 = 0
  enc.wait_flag eng = 2, peer = 3, id = 0
  enc.dma_out src_space = 1, src_reg = 0, dst_region = 3, elem = 2, dst_reg = 0, src_addr = 0, dst_off = 0
  enc.end
}
