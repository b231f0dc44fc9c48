#!/usr/bin/python3
"""Writes an enc-dialect model that runs a 512x512x512 int8 matmul on npu-v1.

A and B (random int8, fixed seed) are DMA'd from CONST into LM; MATRIX computes
C = A x B in four 128x512 row tiles (a C tile fills the 256 KiB ACC); the last
tile goes to OUTPUT. Used by benchmarks/sim_matmul.sh.
"""
import sys
import numpy as np

# --baseline: the same program without the matmuls (and without the output
# they feed), so that the difference of the two run times is MATRIX work.
baseline = "--baseline" in sys.argv

M = N = K = 512
TILE = 128
rng = np.random.default_rng(1)
a = rng.integers(-128, 128, size=(M, K), dtype=np.int8)
b = rng.integers(-128, 128, size=(K, N), dtype=np.int8)


def dense(x):
    return 'dense<"0x%s">' % x.tobytes().hex().upper()


lines = [
    "enc.const offset 0 %s : tensor<%dx%dxi8>" % (dense(a), M, K),
    "enc.const offset %d %s : tensor<%dx%dxi8>" % (M * K, dense(b), K, N),
    'enc.program target "npu-v1" {',
    "  enc.dma_in_shape n0 = %d, n1 = %d, n2 = 1, n3 = 1" % (K, M),
    "  enc.dma_in_sstride s0 = 1, s1 = %d, s2 = 0, s3 = 0" % K,
    "  enc.dma_in_dstride s0 = 1, s1 = %d, s2 = 0, s3 = 0" % K,
    "  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = 0, src_off = 0",
    "  enc.dma_in src_region = 0, src_reg = 0, dst_space = 0, elem = 0, pad = 0, dst_reg = 0, dst_addr = %d, src_off = %d"
    % (M * K // 32, M * K),
    "  enc.set_flag eng = 1, peer = 3, id = 0",
    "  enc.mm_cfg lda = %d, ldb = %d, ldc = %d, a_zp = 0, b_zp = 0" % (K, N, 4 * N),
    "  enc.wait_flag eng = 3, peer = 1, id = 0",
]
if not baseline:
    lines.insert(2, 'enc.tensor "output" "c" : i32 shape [%d, %d] strides [%d, 4] offset 0' % (TILE, N, 4 * N))
for t in range(0 if baseline else M // TILE):
    lines.append(
        "  enc.matmul mode = 0, acc = 0, a_reg = 0, b_reg = 0, c_reg = 0, a_addr = %d, b_addr = %d, c_addr = 0, m = %d, n = %d, k = %d"
        % (t * TILE * K // 32, M * K // 32, TILE, N, K))
lines += [] if baseline else [
    "  enc.set_flag eng = 3, peer = 2, id = 0",
    "  enc.dma_out_shape n0 = %d, n1 = %d, n2 = 1, n3 = 1" % (N, TILE),
    "  enc.dma_out_sstride s0 = 4, s1 = %d, s2 = 0, s3 = 0" % (4 * N),
    "  enc.dma_out_dstride s0 = 4, s1 = %d, s2 = 0, s3 = 0" % (4 * N),
    "  enc.wait_flag eng = 2, peer = 3, id = 0",
    "  enc.dma_out src_space = 1, src_reg = 0, dst_region = 3, elem = 2, dst_reg = 0, src_addr = 0, dst_off = 0",
]
lines += ["  enc.end", "}"]
sys.stdout.write("\n".join(lines) + "\n")
# The expected last tile, for the benchmark's own check.
if not baseline:
    np.save(sys.argv[1], (a[M - TILE:].astype(np.int32) @ b.astype(np.int32)))
