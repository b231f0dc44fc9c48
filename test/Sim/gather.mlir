// DMA_IN_GATHER (npu-v1.md section 5): rows of a table chosen by an int32
// index list in LM, each index checked against the table's rows. Row k of
// the 5x4 int8 table holds 10k .. 10k+3; the rows land 32 bytes apart in LM
// and go back densely. An index outside [0, 5) faults, naming the
// instruction, the table and the index; so does a negative one (the kernel
// that uses the instruction moves ONNX's negative indices into range first).
// RUN: npuc-translate --export-npu-model %s -o %t.bin
// RUN: %python -c "import numpy as np; np.save('%t.table.npy', (np.arange(5)[:, None] * 10 + np.arange(4)).astype(np.int8))"
// RUN: %python -c "import numpy as np; np.save('%t.ids.npy', np.array([3, 0, 3], np.int32))"
// RUN: rm -rf %t.out && npu-sim %t.bin -i %t.table.npy -i %t.ids.npy -o %t.out --stats 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: %python -c "import numpy as np; print(np.load('%t.out/output_0.npy').tolist())" | FileCheck %s
// CHECK: {{\[\[}}30, 31, 32, 33], [0, 1, 2, 3], [30, 31, 32, 33]]
// The index list (12 bytes) and three rows of 4 bytes.
// STATS: GM bytes read: 24
//
// RUN: %python -c "import numpy as np; np.save('%t.bad.npy', np.array([1, 5, 0], np.int32))"
// RUN: sh -c 'npu-sim %t.bin -i %t.table.npy -i %t.bad.npy -o %t.out2; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: npu-sim: fault: index out of range: instruction 9 (dma_in_gather) on DMA_IN reads row 5 (entry 1 of its index list) of tensor 'table', which has 5 rows
// RANGE: exit=3
// RUN: %python -c "import numpy as np; np.save('%t.neg.npy', np.array([-1, 0, 0], np.int32))"
// RUN: sh -c 'npu-sim %t.bin -i %t.table.npy -i %t.neg.npy -o %t.out3; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: reads row -1 (entry 0 of its index list) of tensor 'table'
// NEG: exit=3

enc.tensor "input" "table" : i8 shape [5, 4] strides [4, 1] offset 0
enc.tensor "input" "ids" : i32 shape [3] strides [4] offset 32
enc.tensor "output" "y" : i8 shape [3, 4] strides [4, 1] offset 0
enc.program target "npu-v1" {
  enc.dma_in_shape n0 = 3, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 4, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 4, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in src_region = 2, src_reg = 0, dst_space = 0, elem = 2, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 32
  enc.barrier mask = 1
  enc.dma_in_shape n0 = 4, n1 = 1, n2 = 1, n3 = 3
  enc.dma_in_sstride s0 = 1, s1 = 0, s2 = 0, s3 = 4
  enc.dma_in_dstride s0 = 1, s1 = 0, s2 = 0, s3 = 32
  enc.dma_in_idx idx_reg = 0, idx_addr = 0, rows = 5
  enc.dma_in_gather src_region = 2, src_reg = 0, elem = 0, dst_reg = 0, dst_addr = 1, src_off = 0
  enc.set_flag eng = 1, peer = 2, id = 0
  enc.dma_out_shape n0 = 4, n1 = 3, n2 = 1, n3 = 1
  enc.dma_out_sstride s0 = 1, s1 = 32, s2 = 0, s3 = 0
  enc.dma_out_dstride s0 = 1, s1 = 4, s2 = 0, s3 = 0
  enc.wait_flag eng = 2, peer = 1, id = 0
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 1, dst_off = 0
  enc.end
}
