//===- Hash.cpp - Stable hashes -------------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Hash.h"

#include <algorithm>

uint64_t npuc::fnv1a64(std::string_view bytes) { return fnv1a64(bytes, 0xcbf29ce484222325ull); }

uint64_t npuc::fnv1a64(std::string_view bytes, uint64_t h) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string npuc::hex64(uint64_t value) {
  static const char digits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4)
    s[i] = digits[value & 0xf];
  return s;
}

std::string npuc::hex0x(uint64_t value) {
  std::string s = hex64(value);
  return "0x" + s.substr(std::min(s.find_first_not_of('0'), s.size() - 1));
}
