// V_DW (depthwise multiply-accumulate on VECTOR), executed and worked by hand:
// two channels (grid rows), 2 output rows of 2 columns, a 2x2 window at row
// stride 1 and column stride 2, image zero point 1, taps zero point 0.
// Channel 0, image - 1 = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], taps
// [[1, -1], [2, 0]]:
//   d[0][0] = 0 - 1 + 2*4 = 7     d[0][1] = 2 - 3 + 2*6 = 11
//   d[1][0] = 4 - 5 + 2*8 = 15    d[1][1] = 6 - 7 + 2*10 = 19
// Channel 1, image - 1 = [[-129, -1, 126, 9], [2, 2, 2, 2], [-1, -1, -1, -1]],
// taps [[-128, 127], [1, 1]]:
//   d[0][0] = 16512 - 127 + 2 + 2 = 16389    d[0][1] = -16128 + 1143 + 4 = -14981
//   d[1][0] = -256 + 254 - 1 - 1 = -4        d[1][1] = -4
// The second v_dw accumulates (acc = 1): every sum doubles.
// Then pooling (func MAX = 1, SUM = 2) of the same windows, taps and zero
// points not read: channel 0 raw [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
// has maxima [[6, 8], [10, 12]]; channel 1 raw [[-128, 0, 127, 10],
// [3, 3, 3, 3], [0, 0, 0, 0]] maxima [[3, 127], [3, 3]] and sums
// [[-122, 143], [6, 6]] (channel 0's sums are [[14, 22], [30, 38]]).
// Cycles: each v_dw is 32 window elements of 1 byte, 4 + ceil(32 / 256) = 5
// (docs/target.md "Timing"); with v_shape, v_dw_cfg, wait_flag and set_flag
// at 1 each, VECTOR is busy 4 * 5 + 4 = 24 cycles.
// RUN: npuc-translate --export-npu-model %s -o %t.bin
// RUN: rm -rf %t.out && npu-sim %t.bin -o %t.out --stats | FileCheck %s --check-prefix=STATS
// RUN: %python -c "import numpy as np; [print(np.load('%t.out/output_%%d.npy' %% i).tolist()) for i in range(3)]" | FileCheck %s
// RUN: npu-objdump %t.bin | FileCheck %s --check-prefix=DIS
// CHECK: {{\[\[\[}}14, 22], [30, 38]], {{\[\[}}32778, -29962], [-8, -8]]]
// CHECK-NEXT: {{\[\[\[}}6, 8], [10, 12]], {{\[\[}}3, 127], [3, 3]]]
// CHECK-NEXT: {{\[\[\[}}14, 22], [30, 38]], {{\[\[}}-122, 143], [6, 6]]]
// STATS: engine VECTOR: 8 instructions, busy 24 cycles
// DIS: v_dw_cfg kh=2, kw=2, sh=1, sw=2, dh=1, dw=1, lda=4, orows=2, a_zp=1, b_zp=0
// DIS: v_dw mode=I8I8, acc=0, d_space=ACC, func=MAC
// DIS: v_dw mode=I8I8, acc=0, d_space=ACC, func=MAX

enc.const offset 0 dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -128, 0, 127, 10, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<64xi8>
enc.const offset 64 dense<[1, -1, 2, 0, -128, 127, 1, 1]> : tensor<8xi8>
enc.tensor "output" "y" : i32 shape [2, 2, 2] strides [16, 8, 4] offset 0
enc.tensor "output" "z" : i32 shape [2, 2, 2] strides [16, 8, 4] offset 32
enc.tensor "output" "s" : i32 shape [2, 2, 2] strides [16, 8, 4] offset 64
enc.program target "npu-v1" {
  enc.dma_in_shape n0 = 64, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 1, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.dma_in_shape n0 = 8, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 2, src_off = 64
  enc.set_flag eng = 1, peer = 4, id = 0
  enc.v_shape rows = 2, cols = 2, a_pitch = 32, b_pitch = 4, d_pitch = 32, a_bcast = 0, b_bcast = 0
  enc.v_dw_cfg kh = 2, kw = 2, sh = 1, sw = 2, dh = 1, dw = 1, lda = 4, orows = 2, a_zp = 1, b_zp = 0, e_pitch = 0, pt = 0, pl = 0, ih = 0, iw = 0
  enc.wait_flag eng = 4, peer = 1, id = 0
  enc.v_dw mode = 0, acc = 0, d_space = 1, func = 0, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 2, d_addr = 0, bias = 0, relu = 0, e_reg = 0, e_addr = 0
  enc.v_dw mode = 0, acc = 1, d_space = 1, func = 0, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 2, d_addr = 0, bias = 0, relu = 0, e_reg = 0, e_addr = 0
  enc.v_dw mode = 0, acc = 0, d_space = 1, func = 1, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 0, d_addr = 2, bias = 0, relu = 0, e_reg = 0, e_addr = 0
  enc.v_dw mode = 0, acc = 0, d_space = 1, func = 2, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 0, d_addr = 4, bias = 0, relu = 0, e_reg = 0, e_addr = 0
  enc.set_flag eng = 4, peer = 2, id = 0
  enc.dma_out_shape n0 = 4, n1 = 2, n2 = 1, n3 = 1
  enc.dma_out_sstride s0 = 4, s1 = 32, s2 = 0, s3 = 0
  enc.dma_out_dstride s0 = 4, s1 = 16, s2 = 0, s3 = 0
  enc.wait_flag eng = 2, peer = 4, id = 0
  enc.dma_out src_space = 1, src_reg = 0, dst_region = 3, elem = 2, dst_reg = 0, src_addr = 0, dst_off = 0
  enc.dma_out src_space = 1, src_reg = 0, dst_region = 3, elem = 2, dst_reg = 0, src_addr = 2, dst_off = 32
  enc.dma_out src_space = 1, src_reg = 0, dst_region = 3, elem = 2, dst_reg = 0, src_addr = 4, dst_off = 64
  enc.end
}
