// DMA_OUT_SCATTER (npu-v1.md section 5): lm rows land on GM rows chosen by an
// int32 index list in LM, in list order, combined with what is there. The
// output starts as a copy of the 4x3 int32 table (rows 0, 10, 20, 30 plus
// the column); three update rows [100, 101, 102], [200, ...], [300, ...]
// go to rows 2, 0, 2: with NONE the later write to row 2 wins; with ADD both
// add; MAX and MIN keep the larger or smaller. An index outside the table
// faults, naming the output tensor.
// RUN: split-file %s %t
// RUN: %python -c "import numpy as np; np.save('%t/table.npy', (np.arange(4)[:, None] * 10 + np.arange(3)).astype(np.int32))"
// RUN: %python -c "import numpy as np; np.save('%t/upd.npy', (np.arange(1, 4)[:, None] * 100 + np.arange(3)).astype(np.int32))"
// RUN: %python -c "import numpy as np; np.save('%t/ids.npy', np.array([2, 0, 2], np.int32))"
// RUN: %python -c "import numpy as np; np.save('%t/bad.npy', np.array([2, 4, 0], np.int32))"
// RUN: for f in 0 1 2 3; do sed "s/FUNC/$f/" %t/prog.mlir > %t/prog$f.mlir && npuc-translate --export-npu-model %t/prog$f.mlir -o %t/prog$f.bin && rm -rf %t/out$f && npu-sim %t/prog$f.bin -i %t/table.npy -i %t/upd.npy -i %t/ids.npy -o %t/out$f && %python -c "import numpy as np; print($f, np.load('%t/out$f/output_0.npy').tolist())"; done | FileCheck %s
// CHECK: 0 {{\[\[}}200, 201, 202], [10, 11, 12], [300, 301, 302], [30, 31, 32]]
// CHECK: 1 {{\[\[}}200, 202, 204], [10, 11, 12], [420, 423, 426], [30, 31, 32]]
// CHECK: 2 {{\[\[}}200, 201, 202], [10, 11, 12], [300, 301, 302], [30, 31, 32]]
// CHECK: 3 {{\[\[}}0, 1, 2], [10, 11, 12], [20, 21, 22], [30, 31, 32]]
// RUN: sh -c 'npu-sim %t/prog1.bin -i %t/table.npy -i %t/upd.npy -i %t/bad.npy -o %t/outbad; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: npu-sim: fault: index out of range: instruction {{[0-9]+}} (dma_out_scatter) on DMA_OUT writes row 4 (entry 1 of its index list) of tensor 'y', which has 4 rows
// RANGE: exit=3

//--- prog.mlir
enc.tensor "input" "table" : i32 shape [4, 3] strides [12, 4] offset 0
enc.tensor "input" "upd" : i32 shape [3, 3] strides [12, 4] offset 64
enc.tensor "input" "ids" : i32 shape [3] strides [4] offset 128
enc.tensor "output" "y" : i32 shape [4, 3] strides [12, 4] offset 0
enc.program target "npu-v1" {
  enc.dma_in_shape n0 = 12, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 4, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 4, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in src_region = 2, src_reg = 0, dst_space = 0, elem = 2, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.dma_in_shape n0 = 3, n1 = 3, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 4, s1 = 12, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 4, s1 = 32, s2 = 0, s3 = 0
  enc.dma_in src_region = 2, src_reg = 0, dst_space = 0, elem = 2, pad = 0, dst_reg = 0, dst_addr = 2, src_off = 64
  enc.dma_in_shape n0 = 3, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 4, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in_dstride s0 = 4, s1 = 0, s2 = 0, s3 = 0
  enc.dma_in src_region = 2, src_reg = 0, dst_space = 0, elem = 2, pad = 0, dst_reg = 0, dst_addr = 6, src_off = 128
  enc.set_flag eng = 1, peer = 2, id = 0
  enc.wait_flag eng = 2, peer = 1, id = 0
  enc.dma_out_shape n0 = 12, n1 = 1, n2 = 1, n3 = 1
  enc.dma_out_sstride s0 = 4, s1 = 0, s2 = 0, s3 = 0
  enc.dma_out_dstride s0 = 4, s1 = 0, s2 = 0, s3 = 0
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 2, dst_reg = 0, src_addr = 0, dst_off = 0
  enc.dma_out_shape n0 = 3, n1 = 1, n2 = 1, n3 = 3
  enc.dma_out_sstride s0 = 4, s1 = 0, s2 = 0, s3 = 32
  enc.dma_out_dstride s0 = 4, s1 = 0, s2 = 0, s3 = 12
  enc.dma_out_idx idx_reg = 0, idx_addr = 6, rows = 4, func = FUNC, dtype = 3
  enc.dma_out_scatter src_reg = 0, dst_region = 3, elem = 2, dst_reg = 0, src_addr = 2, dst_off = 0
  enc.end
}
