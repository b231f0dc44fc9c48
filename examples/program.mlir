// A hand-written NPU program: copy 64 int8 values from INPUT to LM and back to
// OUTPUT, with a sync flag ordering DMA_OUT after DMA_IN. Enum fields are
// integers here (docs/isa.md lists them): src_region 2 = INPUT, dst_region
// 3 = OUTPUT, eng/peer 1 = DMA_IN, 2 = DMA_OUT.
enc.tensor "input" "x" : i8 shape [64] strides [1] offset 0
enc.tensor "output" "y" : i8 shape [64] strides [1] offset 0
enc.program target "npu-v1-tiny" {
  enc.dma_in_shape n0 = 64, n1 = 1, n2 = 1, n3 = 1
  enc.dma_in_sstride s0 = 1, s1 = 64, s2 = 64, s3 = 64
  enc.dma_in_dstride s0 = 1, s1 = 64, s2 = 64, s3 = 64
  enc.dma_in src_region = 2, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0
  enc.set_flag eng = 1, peer = 2, id = 0
  enc.wait_flag eng = 2, peer = 1, id = 0
  enc.dma_out_shape n0 = 64, n1 = 1, n2 = 1, n3 = 1
  enc.dma_out_sstride s0 = 1, s1 = 64, s2 = 64, s3 = 64
  enc.dma_out_dstride s0 = 1, s1 = 64, s2 = 64, s3 = 64
  enc.dma_out src_space = 0, src_reg = 0, dst_region = 3, elem = 0, dst_reg = 0, src_addr = 0, dst_off = 0
  enc.end
}
