// V_DEQUANT and V_QUANT, one pass each, on values worked out by hand:
//
//   x = [-128, -3, -1, 0, 1, 2, 3, 127] (int8)
//   v_dequant, zp -1, scale 0.5: (x + 1) * 0.5
//     = [-63.5, -1, 0, 0.5, 1, 1.5, 2, 64]
//   v_quant to int8, scale 1, zp 100: round half to even, + 100, saturate
//     -63.5 -> -64 -> 36; -1 -> 99; 0 -> 100; 0.5 -> 0 -> 100; 1 -> 101;
//     1.5 -> 2 -> 102; 2 -> 102; 64 -> 164 -> 127
//   v_quant of the dequantized values to uint8, scale 0.5, zp 0: doubled,
//   rounded, saturated to [0, 255]: -127 -> 0; -2 -> 0; 0; 1; 2; 3; 4; 128
//
// RUN: npuc-translate --export-npu-model %s -o %t.bin
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.array([[-128, -3, -1, 0, 1, 2, 3, 127]], np.int8))"
// RUN: rm -rf %t.out && npu-sim %t.bin -i %t.x.npy -o %t.out
// RUN: %python -c "import numpy as np; [print(np.load('%t.out/output_%%d.npy' %% k).tolist()) for k in range(3)]" | FileCheck %s
// CHECK:      {{\[\[}}-63.5, -1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 64.0]]
// CHECK-NEXT: {{\[\[}}36, 99, 100, 100, 101, 102, 102, 127]]
// CHECK-NEXT: {{\[\[}}0, 0, 0, 1, 2, 3, 4, 128]]
//
// The disassembler names both and their fields (the scale as its fp32 bits).
// RUN: npu-objdump %t.bin | FileCheck %s --check-prefix=DIS
// DIS: v_dequant itype=I8, {{.*}}, scale=1056964608, zp=-1
// DIS: v_quant otype=I8, {{.*}}, scale=1065353216, zp=100
// DIS: v_quant otype=U8, {{.*}}, scale=1056964608, zp=0

enc.tensor "input" "x" : i8 shape [1, 8] strides [8, 1] offset 0
enc.tensor "output" "deq" : f32 shape [1, 8] strides [32, 4] offset 0
enc.tensor "output" "q8" : i8 shape [1, 8] strides [8, 1] offset 32
enc.tensor "output" "qu8" : ui8 shape [1, 8] strides [8, 1] offset 40
enc.program target "npu-v1-tiny" {
  // x -> LM 0.
  enc.dma_in_shape n0 = 8, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 8, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
  enc.dma_in src_region = 2, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.set_flag eng = 1, peer = 4, id = 0
  enc.v_shape rows = 1, cols = 8, a_pitch = 32, b_pitch = 32, d_pitch = 32, a_bcast = 0, b_bcast = 0
  enc.wait_flag eng = 4, peer = 1, id = 0
  // dequantize -> f32 at LM 64 (scale 0.5 = 0x3f000000); quantize -> LM 128 (int8,
  // scale 1.0 = 0x3f800000) and LM 160 (uint8, scale 0.5).
  enc.v_dequant itype = 0, a_space = 0, d_space = 0, a_reg = 0, d_reg = 0, a_addr = 0, d_addr = 2, scale = 1056964608, zp = -1
  enc.v_quant otype = 0, a_space = 0, d_space = 0, a_reg = 0, d_reg = 0, a_addr = 2, d_addr = 4, scale = 1065353216, zp = 100
  enc.v_quant otype = 1, a_space = 0, d_space = 0, a_reg = 0, d_reg = 0, a_addr = 2, d_addr = 5, scale = 1056964608, zp = 0
  enc.set_flag eng = 4, peer = 2, id = 0
  enc.wait_flag eng = 2, peer = 4, id = 0
  enc.dma_out_shape n0 = 32, n1 = 1, n2 = 1, n3 = 1
  enc.dma_out_sstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
  enc.dma_out_dstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 2, dst_off = 0
  enc.dma_out_shape n0 = 8, n1 = 1, n2 = 1, n3 = 1
  enc.dma_out_dstride s0 = 1, s1 = 8, s2 = 0, s3 = 0
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 4, dst_off = 32
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 5, dst_off = 40
  enc.end
}
