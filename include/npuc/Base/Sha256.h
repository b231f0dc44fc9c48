//===- Sha256.h - SHA-256 (FIPS 180-4) --------------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_BASE_SHA256_H
#define NPUC_BASE_SHA256_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace npuc {
/// SHA-256 of `size` bytes as 64 lowercase hex digits.
std::string sha256Hex(const void *data, size_t size);
/// The same by the portable code alone (sha256Hex uses the x86 SHA
/// extensions where the processor has them); for tests that compare both.
std::string sha256HexPortable(const void *data, size_t size);
} // namespace npuc

#endif
