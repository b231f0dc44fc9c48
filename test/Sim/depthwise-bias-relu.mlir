// V_DW in fp32 with `bias` and `relu`, worked by hand: two channels (grid
// rows), one output row of 3 columns, a 1x2 window, taps [1, 1].
//   channel 0: image [1, -2, 3, -4]: sums [-1, 1, -1]; bias 0.5:
//     [-0.5, 1.5, -0.5]; relu: [0, 1.5, 0]
//   channel 1: image [5, 6, 7, 8]: sums [11, 13, 15]; bias -2: [9, 11, 13]
// The bias rows are 32 bytes apart (v_dw_cfg e_pitch). The second v_dw has
// the bias and no relu (channel 0 stays [-0.5, 1.5, -0.5]).
// RUN: npuc-translate --export-npu-model %s -o %t.bin
// RUN: rm -rf %t.out && npu-sim %t.bin -o %t.out
// RUN: %python -c "import numpy as np; [print(np.load('%t.out/output_%%d.npy' %% i).tolist()) for i in range(2)]" | FileCheck %s
// RUN: npu-objdump %t.bin | FileCheck %s --check-prefix=DIS
// CHECK: {{\[\[}}0.0, 1.5, 0.0], [9.0, 11.0, 13.0]]
// CHECK-NEXT: {{\[\[}}-0.5, 1.5, -0.5], [9.0, 11.0, 13.0]]
// DIS: v_dw mode=F32, {{.*}}, bias=1, relu=1, e_reg=r0, e_addr=0x4
// DIS: v_dw mode=F32, {{.*}}, bias=1, relu=0, e_reg=r0, e_addr=0x4

// LM: image rows at 0 and 32 (channel pitch 32), taps at 64 and 96
// (b_pitch 32), biases at 128 and 160 (e_pitch 32).
enc.const offset 0 dense<[1.0, -2.0, 3.0, -4.0, 0.0, 0.0, 0.0, 0.0, 5.0, 6.0, 7.0, 8.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : tensor<48xf32>
enc.tensor "output" "y" : f32 shape [2, 3] strides [12, 4] offset 0
enc.tensor "output" "z" : f32 shape [2, 3] strides [12, 4] offset 32
enc.program target "npu-v1" {
  enc.dma_in_shape n0 = 192, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 1, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.set_flag eng = 1, peer = 4, id = 0
  enc.v_shape rows = 2, cols = 3, a_pitch = 32, b_pitch = 32, d_pitch = 32, a_bcast = 0, b_bcast = 0
  enc.v_dw_cfg kh = 1, kw = 2, sh = 1, sw = 1, dh = 1, dw = 1, lda = 16, orows = 1, a_zp = 0, b_zp = 0, e_pitch = 32, pt = 0, pl = 0, ih = 0, iw = 0
  enc.wait_flag eng = 4, peer = 1, id = 0
  enc.v_dw mode = 5, acc = 0, d_space = 1, func = 0, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 2, d_addr = 0, bias = 1, relu = 1, e_reg = 0, e_addr = 4
  enc.v_dw mode = 5, acc = 0, d_space = 1, func = 0, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 2, d_addr = 2, bias = 1, relu = 0, e_reg = 0, e_addr = 4
  enc.set_flag eng = 4, peer = 2, id = 0
  enc.dma_out_shape n0 = 12, n1 = 2, n2 = 1, n3 = 1
  enc.dma_out_sstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
  enc.dma_out_dstride s0 = 1, s1 = 12, s2 = 0, s3 = 0
  enc.wait_flag eng = 2, peer = 4, id = 0
  enc.dma_out src_space = 1, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 0, dst_off = 0
  enc.dma_out src_space = 1, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 2, dst_off = 32
  enc.end
}
