// MM_DW (the array's depthwise mode), executed and worked by hand: the
// windows, image, taps and zero points of depthwise.mlir, so the same sums:
// two channels (columns of the array), 2 output rows of 2 columns, a 2x2
// window at row stride 1 and column stride 2, image zero point 1.
// Channel 0, image - 1 = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], taps
// [[1, -1], [2, 0]]:
//   d[0][0] = 0 - 1 + 2*4 = 7     d[0][1] = 2 - 3 + 2*6 = 11
//   d[1][0] = 4 - 5 + 2*8 = 15    d[1][1] = 6 - 7 + 2*10 = 19
// Channel 1, image - 1 = [[-129, -1, 126, 9], [2, 2, 2, 2], [-1, -1, -1, -1]],
// taps [[-128, 127], [1, 1]]:
//   d[0][0] = 16512 - 127 + 2 + 2 = 16389    d[0][1] = -16128 + 1143 + 4 = -14981
//   d[1][0] = -256 + 254 - 1 - 1 = -4        d[1][1] = -4
// The second mm_dw accumulates (acc = 1): every sum doubles.
// Then f32 (mode F32): channel 0's image [[1, -2], [3, 4]] (lda 8), one
// channel of a 2x1 window, taps [0.5, -1], 1 output row of 2 columns at
// column stride 1: [1 * 0.5 - 3, -2 * 0.5 - 4] = [-2.5, -5]; bias 1.5 gives
// [-1, -3.5] and relu [0, 0]: checked without relu [-1, -3.5].
// Then the feeder's padding: channel 0 again (image - 1 = [[0, 1, 2, 3],
// [4, 5, 6, 7], [8, 9, 10, 11]], taps [[1, -1], [2, 0]]) with pt = pl = 1:
// window row o + i is image row o + i - 1, column 2c + j image column
// 2c + j - 1; a tap outside reads the zero point (image - 1 = 0):
//   d[0][0] = 0 (only (1,1) inside: 0 * 0)
//   d[0][1] = 1 * 2 + 2 * 0 = 2            (row -1 is padding)
//   d[1][0] = 0 * -1 + 4 * 0 = 0           (column -1 is padding)
//   d[1][1] = 1 * 1 + 2 * -1 + 5 * 2 + 6 * 0 = 9
// Cycles (docs/target.md "Timing"): an mm_dw is a product of k = taps,
// n = channels, m = output pixels: 2 * 64 + 1 * 1 * max(4, 64) = 192 for
// the int8 ones, 2 * 16 + max(2, 16) = 48 for the f32 one; with mm_cfg (3),
// mm_dw_cfg (3), wait_flag and set_flag at 1 each MATRIX is busy
// 192 * 3 + 48 + 8 = 632 cycles, and VECTOR runs nothing.
// RUN: npuc-translate --export-npu-model %s -o %t.bin
// RUN: rm -rf %t.out && npu-sim %t.bin -o %t.out --stats | FileCheck %s --check-prefix=STATS
// RUN: %python -c "import numpy as np; [print(np.load('%t.out/output_%%d.npy' %% i).tolist()) for i in range(3)]" | FileCheck %s
// RUN: npu-objdump %t.bin | FileCheck %s --check-prefix=DIS
// CHECK: {{\[\[\[}}14, 22], [30, 38]], {{\[\[}}32778, -29962], [-8, -8]]]
// CHECK-NEXT: {{\[}}-1.0, -3.5]
// CHECK-NEXT: {{\[\[}}0, 2], [0, 9]]
// STATS: engine MATRIX: 12 instructions, busy 632 cycles
// STATS: engine VECTOR: 0 instructions
// DIS: mm_dw_cfg kh=2, kw=2, sh=1, sw=2, dh=1, dw=1, orows=2, a_pitch=32, e_pitch=0, pt=0, pl=0, ih=3, iw=4
// DIS: mm_dw mode=I8I8, acc=0,
// DIS: mm_dw mode=I8I8, acc=1,

enc.const offset 0 dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -128, 0, 127, 10, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<64xi8>
enc.const offset 64 dense<[1, -1, 2, 0, -128, 127, 1, 1]> : tensor<8xi8>
enc.const offset 96 dense<[1.0, -2.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.5, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.5]> : tensor<17xf32>
enc.tensor "output" "y" : i32 shape [2, 2, 2] strides [32, 8, 4] offset 0
enc.tensor "output" "f" : f32 shape [2] strides [4] offset 64
enc.tensor "output" "p" : i32 shape [2, 2] strides [8, 4] offset 128
enc.program target "npu-v1" {
  enc.dma_in_shape n0 = 64, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 1, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.dma_in_shape n0 = 8, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 2, src_off = 64
  enc.dma_in_shape n0 = 68, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 4, src_off = 96
  enc.set_flag eng = 1, peer = 3, id = 0
  enc.mm_cfg lda = 4, ldb = 4, ldc = 32, a_zp = 1, b_zp = 0
  enc.mm_dw_cfg kh = 2, kw = 2, sh = 1, sw = 2, dh = 1, dw = 1, orows = 2, a_pitch = 32, e_pitch = 0, pt = 0, pl = 0, ih = 3, iw = 4
  enc.wait_flag eng = 3, peer = 1, id = 0
  enc.mm_dw mode = 0, acc = 0, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 2, d_addr = 0, e_reg = 0, e_addr = 0, bias = 0, relu = 0, channels = 2, cols = 2
  enc.mm_dw mode = 0, acc = 1, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 2, d_addr = 0, e_reg = 0, e_addr = 0, bias = 0, relu = 0, channels = 2, cols = 2
  enc.mm_cfg lda = 8, ldb = 8, ldc = 32, a_zp = 0, b_zp = 0
  enc.mm_dw_cfg kh = 2, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1, orows = 1, a_pitch = 32, e_pitch = 0, pt = 0, pl = 0, ih = 2, iw = 2
  enc.mm_dw mode = 5, acc = 0, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 4, b_addr = 5, d_addr = 2, e_reg = 0, e_addr = 6, bias = 1, relu = 0, channels = 1, cols = 2
  enc.mm_cfg lda = 4, ldb = 4, ldc = 32, a_zp = 1, b_zp = 0
  enc.mm_dw_cfg kh = 2, kw = 2, sh = 1, sw = 2, dh = 1, dw = 1, orows = 2, a_pitch = 32, e_pitch = 0, pt = 1, pl = 1, ih = 3, iw = 4
  enc.mm_dw mode = 0, acc = 0, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 2, d_addr = 4, e_reg = 0, e_addr = 0, bias = 0, relu = 0, channels = 1, cols = 2
  enc.set_flag eng = 3, peer = 2, id = 0
  enc.dma_out_shape n0 = 4, n1 = 2, n2 = 1, n3 = 1
  enc.dma_out_sstride s0 = 4, s1 = 32, s2 = 0, s3 = 0
  enc.dma_out_dstride s0 = 4, s1 = 32, s2 = 0, s3 = 0
  enc.wait_flag eng = 2, peer = 3, id = 0
  enc.dma_out src_space = 1, src_reg = 0, dst_region = 3, elem = 2, dst_reg = 0, src_addr = 0, dst_off = 0
  enc.dma_out_shape n0 = 2, n1 = 1, n2 = 1, n3 = 1
  enc.dma_out src_space = 1, src_reg = 0, dst_region = 3, elem = 2, dst_reg = 0, src_addr = 2, dst_off = 64
  enc.dma_out_shape n0 = 4, n1 = 1, n2 = 1, n3 = 1
  enc.dma_out src_space = 1, src_reg = 0, dst_region = 3, elem = 2, dst_reg = 0, src_addr = 4, dst_off = 128
  enc.end
}
