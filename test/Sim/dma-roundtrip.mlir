// A 3x7 int8 tensor goes to LM with a padded row pitch of 32 bytes and a
// one-element border of fill value -1, then back to GM densely. The expected
// output is written out by hand below.
// RUN: npuc-translate --export-npu-model %s -o %t.bin
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(1, 22, dtype=np.int8).reshape(3, 7))"
// RUN: rm -rf %t.out && npu-sim %t.bin -i %t.x.npy -o %t.out
// RUN: %python -c "import numpy as np; y = np.load('%t.out/output_0.npy'); print(y.dtype, y.shape); print(y.tolist())" | FileCheck %s
// CHECK: int8 (5, 9)
// CHECK-NEXT: {{\[\[}}-1, -1, -1, -1, -1, -1, -1, -1, -1], [-1, 1, 2, 3, 4, 5, 6, 7, -1], [-1, 8, 9, 10, 11, 12, 13, 14, -1], [-1, 15, 16, 17, 18, 19, 20, 21, -1], [-1, -1, -1, -1, -1, -1, -1, -1, -1]]
// RUN: FileCheck %s --check-prefix=JSON < %t.out/outputs.json
// JSON: {"index": 0, "name": "y", "dtype": "int8", "shape": [5, 9], "file": "output_0.npy"}

enc.tensor "input" "x" : i8 shape [3, 7] strides [7, 1] offset 0
enc.tensor "output" "y" : i8 shape [5, 9] strides [9, 1] offset 0
enc.program target "npu-v1" {
  enc.dma_in_shape n0 = 7, n1 = 3, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 7, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
  enc.dma_in_pad lo0 = 1, lo1 = 1, lo2 = 0, lo3 = 0, hi0 = 1, hi1 = 1, hi2 = 0, hi3 = 0, fill = 255
  enc.dma_in src_region = 2, src_reg = 0, dst_space = 0, elem = 0, pad = 1, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.set_flag eng = 1, peer = 2, id = 0
  enc.dma_out_shape n0 = 9, n1 = 5, n2 = 1, n3 = 1
  enc.dma_out_sstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
  enc.dma_out_dstride s0 = 1, s1 = 9, s2 = 0, s3 = 0
  enc.wait_flag eng = 2, peer = 1, id = 0
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 0, dst_off = 0
  enc.end
}
