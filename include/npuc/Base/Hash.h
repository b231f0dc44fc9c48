//===- Hash.h - Stable hashes for the base layer ----------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_BASE_HASH_H
#define NPUC_BASE_HASH_H

#include <cstdint>
#include <string>
#include <string_view>

namespace npuc {

/// FNV-1a, 64-bit (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
uint64_t fnv1a64(std::string_view bytes);
/// FNV-1a continued from `h` (a previous result, or the offset basis): the
/// hash of pieces in order equals the hash of their concatenation.
uint64_t fnv1a64(std::string_view bytes, uint64_t h);

/// `value` as 16 lowercase hex digits.
std::string hex64(uint64_t value);

/// `value` as "0x" and the shortest lowercase hex digits (addresses, words).
std::string hex0x(uint64_t value);

} // namespace npuc

#endif
