//===- Sha256.cpp - SHA-256 (FIPS 180-4) ----------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Sha256.h"

#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <vector>

namespace {
const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void block(uint32_t h[8], const uint8_t *p) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = uint32_t(p[4 * i]) << 24 | uint32_t(p[4 * i + 1]) << 16 | uint32_t(p[4 * i + 2]) << 8 |
           p[4 * i + 3];
  for (int i = 16; i < 64; ++i) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (int i = 0; i < 64; ++i) {
    uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
    uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}
void blocksPortable(uint32_t h[8], const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    block(h, p + 64 * i);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// The x86 SHA extensions (sha256rnds2, sha256msg1/2): the same compression,
/// four rounds an instruction pair. State layout as Intel's reference: ABEF
/// and CDGH in two registers.
__attribute__((target("sha,sse4.1"))) void blocksShaNi(uint32_t h[8], const uint8_t *p, size_t n) {
  const __m128i byteSwap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i t = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(&h[0])), 0xB1);
  __m128i s1 = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(&h[4])), 0x1B);
  __m128i s0 = _mm_alignr_epi8(t, s1, 8);   // ABEF
  s1 = _mm_blend_epi16(s1, t, 0xF0);        // CDGH
  for (; n > 0; --n, p += 64) {
    __m128i abef = s0, cdgh = s1, w[4];
    for (int i = 0; i < 4; ++i)
      w[i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 16 * i)), byteSwap);
    for (int i = 0; i < 16; ++i) {
      __m128i m = _mm_add_epi32(w[i & 3], _mm_loadu_si128(reinterpret_cast<const __m128i *>(&K[4 * i])));
      s1 = _mm_sha256rnds2_epu32(s1, s0, m);
      s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(m, 0x0E));
      if (i < 12) {
        // W[i + 4] from W[i], W[i + 1], W[i + 2], W[i + 3] (groups of four
        // words), in the slot of W[i], no longer needed.
        __m128i next = _mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]);
        next = _mm_add_epi32(next, _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4));
        w[i & 3] = _mm_sha256msg2_epu32(next, w[(i + 3) & 3]);
      }
    }
    s0 = _mm_add_epi32(s0, abef);
    s1 = _mm_add_epi32(s1, cdgh);
  }
  t = _mm_shuffle_epi32(s0, 0x1B);          // FEBA
  s1 = _mm_shuffle_epi32(s1, 0xB1);         // DCHG
  s0 = _mm_blend_epi16(t, s1, 0xF0);        // DCBA
  s1 = _mm_alignr_epi8(s1, t, 8);           // HGFE
  _mm_storeu_si128(reinterpret_cast<__m128i *>(&h[0]), s0);
  _mm_storeu_si128(reinterpret_cast<__m128i *>(&h[4]), s1);
}

bool haveShaNi() {
  static const bool have = __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1");
  return have;
}
#endif

void blocks(uint32_t h[8], const uint8_t *p, size_t n) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (haveShaNi())
    return blocksShaNi(h, p, n);
#endif
  blocksPortable(h, p, n);
}
} // namespace

namespace {
std::string digest(const void *data, size_t size, void (*blocksFn)(uint32_t *, const uint8_t *, size_t)) {
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const uint8_t *p = static_cast<const uint8_t *>(data);
  size_t full = size / 64 * 64;
  blocksFn(h, p, full / 64);
  uint8_t tail[128] = {};
  size_t rest = size - full;
  std::memcpy(tail, p + full, rest);
  tail[rest] = 0x80;
  size_t tailLen = rest + 9 <= 64 ? 64 : 128;
  uint64_t bits = uint64_t(size) * 8;
  for (int i = 0; i < 8; ++i)
    tail[tailLen - 1 - i] = uint8_t(bits >> (8 * i));
  blocksFn(h, tail, tailLen / 64);
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (uint32_t v : h)
    for (int s = 28; s >= 0; s -= 4)
      out += digits[(v >> s) & 0xf];
  return out;
}
} // namespace

std::string npuc::sha256Hex(const void *data, size_t size) { return digest(data, size, blocks); }

std::string npuc::sha256HexPortable(const void *data, size_t size) {
  return digest(data, size, blocksPortable);
}
