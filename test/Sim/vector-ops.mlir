// VECTOR arithmetic, broadcasting, reductions, casts, compare/select and a
// SCALAR hardware loop whose registers advance the DMA addresses. Every
// expected value is worked out by hand in the comments.
//
//   x = [[-128, -1, 0, 1, 50, 100, 127, 7], [10, 20, 30, 40, -50, -60, -70, -80]]
//   c = [[100], [-100]]   (broadcast along each row: v_shape b_bcast = 1)
//
// RUN: npuc-translate --export-npu-model %s -o %t.bin
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.array([[-128, -1, 0, 1, 50, 100, 127, 7], [10, 20, 30, 40, -50, -60, -70, -80]], np.int8))"
// RUN: rm -rf %t.out && npu-sim %t.bin -i %t.x.npy -o %t.out --trace %t.trace.json --stats > %t.stats
// RUN: %python -c "import numpy as np; [print(np.load('%t.out/output_%%d.npy' %% k).tolist()) for k in range(5)]" | FileCheck %s
//
// add, saturating to int8: x + c
// CHECK:      {{\[\[}}-28, 99, 100, 101, 127, 127, 127, 107], [-90, -80, -70, -60, -128, -128, -128, -128]]
// abs, saturating (|-128| = 127)
// CHECK-NEXT: {{\[\[}}127, 1, 0, 1, 50, 100, 127, 7], [10, 20, 30, 40, 50, 60, 70, 80]]
// select(x > c, x, x + c)
// CHECK-NEXT: {{\[\[}}-28, 99, 100, 101, 127, 127, 127, 107], [10, 20, 30, 40, -50, -60, -70, -80]]
// int8 -> f32, * 0.5, -> int8 rounding half to even: -0.5 -> 0, 0.5 -> 0, 63.5 -> 64, 3.5 -> 4
// CHECK-NEXT: {{\[\[}}-64, 0, 0, 0, 25, 50, 64, 4], [5, 10, 15, 20, -25, -30, -35, -40]]
// row sums into int32: -128 - 1 + 0 + 1 + 50 + 100 + 127 + 7 = 156; 10 + 20 + 30 + 40 - 50 - 60 - 70 - 80 = -160
// CHECK-NEXT: [156, -160]
//
// The trace is Chrome trace-event JSON with one track per engine.
// RUN: %python -c "import json; t = json.load(open('%t.trace.json'))['traceEvents']; print(sorted(e['args']['name'] for e in t if e['ph'] == 'M')); print(sum(1 for e in t if e['ph'] == 'X' and e['tid'] == 4))" | FileCheck %s --check-prefix=TRACE
// TRACE: ['DMA_IN', 'DMA_OUT', 'MATRIX', 'SCALAR', 'VECTOR']
// TRACE-NEXT: 12
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// STATS: engine SCALAR: {{[0-9]+}} instructions
// STATS: engine DMA_OUT: 12 instructions
// STATS: GM bytes read: 18
// STATS: GM bytes written: 72

enc.const offset 0 dense<[100, -100]> : tensor<2xi8>
enc.tensor "input" "x" : i8 shape [2, 8] strides [8, 1] offset 0
enc.tensor "output" "add" : i8 shape [2, 8] strides [8, 1] offset 0
enc.tensor "output" "abs" : i8 shape [2, 8] strides [8, 1] offset 64
enc.tensor "output" "select" : i8 shape [2, 8] strides [8, 1] offset 128
enc.tensor "output" "half" : i8 shape [2, 8] strides [8, 1] offset 192
enc.tensor "output" "sum" : i32 shape [2] strides [4] offset 256
enc.program target "npu-v1-tiny" {
  // x -> LM 0 and c -> LM 64, rows 32 bytes apart.
  enc.dma_in_shape n0 = 8, n1 = 2, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 8, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
  enc.dma_in src_region = 2, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.dma_in_shape n0 = 1, n1 = 2, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 1, s2 = 0, s3 = 0
  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 2, src_off = 0
  enc.set_flag eng = 1, peer = 4, id = 1
  enc.v_shape rows = 2, cols = 8, a_pitch = 32, b_pitch = 32, d_pitch = 32, a_bcast = 0, b_bcast = 1
  enc.wait_flag eng = 4, peer = 1, id = 1
  // add (func 0) -> LM 128; abs (v_un func 2) -> LM 384; reduce sum -> LM 256
  enc.v_bin func = 0, dtype = 0, a_space = 0, b_space = 0, d_space = 0, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 2, d_addr = 4
  enc.v_un func = 2, dtype = 0, a_space = 0, d_space = 0, a_reg = 0, d_reg = 0, a_addr = 0, d_addr = 12
  enc.v_reduce func = 0, axis = 0, itype = 0, a_space = 0, d_space = 0, a_reg = 0, d_reg = 0, a_addr = 0, d_addr = 8, otype = 3
  // x > c (GT = 4) -> mask at LM 512; select -> LM 640
  enc.v_cmp func = 4, dtype = 0, a_space = 0, b_space = 0, d_space = 0, a_reg = 0, b_reg = 0, d_reg = 0, a_addr = 0, b_addr = 2, d_addr = 16
  // b is not broadcast from here on: use a shape without b_bcast.
  enc.v_shape rows = 2, cols = 8, a_pitch = 32, b_pitch = 32, d_pitch = 32, a_bcast = 0, b_bcast = 0
  enc.v_sel dtype = 0, a_space = 0, b_space = 0, d_space = 0, m_space = 0, a_reg = 0, b_reg = 0, d_reg = 0, m_reg = 0, a_addr = 0, b_addr = 4, d_addr = 20, m_addr = 16
  // int8 -> f32 at LM 768, * 0.5 (fp32 bits 0x3f000000) in place, -> int8 at LM 896
  enc.v_cast itype = 0, otype = 5, a_space = 0, d_space = 0, a_reg = 0, d_reg = 0, a_addr = 0, d_addr = 24
  enc.v_bini func = 2, dtype = 5, a_space = 0, d_space = 0, a_reg = 0, d_reg = 0, a_addr = 24, d_addr = 24, imm = 1056964608
  enc.v_cast itype = 5, otype = 0, a_space = 0, d_space = 0, a_reg = 0, d_reg = 0, a_addr = 24, d_addr = 28
  enc.set_flag eng = 4, peer = 2, id = 1
  // Four int8 results, LM 128 + 256 i -> OUTPUT 64 i, in a hardware loop.
  enc.dma_out_shape n0 = 8, n1 = 2, n2 = 1, n3 = 1
  enc.dma_out_sstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
  enc.dma_out_dstride s0 = 1, s1 = 8, s2 = 0, s3 = 0
  enc.li rd = 1, imm = 0
  enc.li rd = 2, imm = 0
  enc.wait_flag eng = 2, peer = 4, id = 1
  enc.loop rc = 0, count = 4, body = 3
  enc.dma_out src_space = 0, src_reg = 1, dst_region = 3, elem = 0, dst_reg = 2, src_addr = 4, dst_off = 0
  enc.alui func = 0, rd = 1, rs1 = 1, imm = 256
  enc.alui func = 0, rd = 2, rs1 = 2, imm = 64
  // The two int32 sums, one per row 32 bytes apart, -> OUTPUT 256.
  enc.dma_out_shape n0 = 1, n1 = 2, n2 = 1, n3 = 1
  enc.dma_out_sstride s0 = 4, s1 = 32, s2 = 0, s3 = 0
  enc.dma_out_dstride s0 = 4, s1 = 4, s2 = 0, s3 = 0
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 2, dst_reg = 0, src_addr = 8, dst_off = 256
  enc.end
}
