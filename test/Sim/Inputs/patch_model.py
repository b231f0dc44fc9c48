#!/usr/bin/python3
"""patch_model.py IN OUT INSTRUCTION BYTE MASK: ORs MASK into byte BYTE of
instruction INSTRUCTION of a model file's code section, then recomputes the
header checksum (FNV-1a 64 of bytes [64, end), docs/model-format.md) so that
the reader gets past it and reaches the code."""
import struct
import sys

src, dst, index, byte, mask = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5], 0)
b = bytearray(open(src, "rb").read())
count = struct.unpack_from("<I", b, 48)[0]
for i in range(count):
    kind, flags, offset, size = struct.unpack_from("<IIQQ", b, 64 + 32 * i)
    if kind == 1:
        b[offset + 16 * index + byte] |= mask
h = 0xCBF29CE484222325
for c in b[64:]:
    h = ((h ^ c) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
struct.pack_into("<Q", b, 56, h)
open(dst, "wb").write(b)
