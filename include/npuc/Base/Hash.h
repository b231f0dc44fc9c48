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

/// `value` as 16 lowercase hex digits.
std::string hex64(uint64_t value);

/// `value` as "0x" and the shortest lowercase hex digits (addresses, words).
std::string hex0x(uint64_t value);

} // namespace npuc

#endif
