//===- Numerics.cpp - NPU-v1 arithmetic primitives ------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Compiled with -ffp-contract=off (lib/Base/CMakeLists.txt): every float
// operation below rounds on its own, as docs/numerics.md specifies.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Numerics.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace npuc;

int64_t num::saturate(int64_t x, int64_t lo, int64_t hi) { return x < lo ? lo : x > hi ? hi : x; }
int32_t num::saturateI32(int64_t x) { return int32_t(saturate(x, INT32_MIN, INT32_MAX)); }

int32_t num::srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN)
    return INT32_MAX;
  int64_t p = int64_t(a) * int64_t(b);
  int64_t nudge = p >= 0 ? (int64_t(1) << 30) : 1 - (int64_t(1) << 30);
  return int32_t((p + nudge) / (int64_t(1) << 31));
}

int32_t num::roundingRightShift(int32_t x, int s) {
  int32_t mask = int32_t((int64_t(1) << s) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> s) + (remainder > threshold ? 1 : 0);
}

int32_t num::saturatingLeftShift(int32_t x, int s) { return saturateI32(int64_t(x) * (int64_t(1) << s)); }

int32_t num::requantize(int32_t x, const RequantParams &p) {
  int32_t v = roundingRightShift(srdhm(saturatingLeftShift(x, p.ls), p.multiplier), p.rs);
  return int32_t(saturate(int64_t(p.zp) + v, p.lo, p.hi));
}

void num::packRequantEntry(const RequantParams &p, uint8_t *entry) {
  auto put = [&](unsigned at, uint32_t v, unsigned bytes) {
    for (unsigned k = 0; k < bytes; ++k)
      entry[at + k] = uint8_t(v >> (8 * k));
  };
  put(0, uint32_t(p.multiplier), 4);
  put(4, uint32_t(p.ls), 1);
  put(5, uint32_t(p.rs), 1);
  put(6, uint32_t(p.zp), 2);
  put(8, uint32_t(p.lo), 2);
  put(10, uint32_t(p.hi), 2);
  put(12, 0, 4);
}

num::RequantParams num::unpackRequantEntry(const uint8_t *entry) {
  auto get = [&](unsigned at, unsigned bytes) {
    uint32_t v = 0;
    for (unsigned k = 0; k < bytes; ++k)
      v |= uint32_t(entry[at + k]) << (8 * k);
    return v;
  };
  auto i16 = [&](unsigned at) { return int32_t(int16_t(uint16_t(get(at, 2)))); };
  return {int32_t(get(0, 4)), int(get(4, 1)), int(get(5, 1)), i16(6), i16(8), i16(10)};
}

bool num::quantizeMultiplier(double real, int32_t &multiplier, int &ls, int &rs) {
  if (!(real > 0) || !std::isfinite(real))
    return false;
  int exponent;
  double q = std::frexp(real, &exponent);  // real = q * 2^exponent, q in [0.5, 1)
  int64_t m = std::llround(q * double(int64_t(1) << 31));
  if (m == (int64_t(1) << 31)) {
    m /= 2;
    ++exponent;
  }
  // real = m * 2^(exponent - 31) = M * 2^(ls - rs - 31).
  ls = exponent > 0 ? exponent : 0;
  rs = exponent < 0 ? -exponent : 0;
  if (ls > 31 || rs > 31)
    return false;
  multiplier = int32_t(m);
  return true;
}

namespace {
uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float fromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
/// x * 2^k for an integer k, exact except for the final rounding.
float scaleByPow2(float x, int k) {
  while (k > 127) {
    x *= fromBits(0x7f000000u);  // 2^127
    k -= 127;
  }
  while (k < -126) {
    x *= fromBits(0x00800000u);  // 2^-126
    k += 126;
  }
  return x * fromBits(uint32_t(k + 127) << 23);
}
} // namespace

float num::halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  if (exp == 0x1f)
    return fromBits(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    float v = float(mant) * fromBits(0x33800000u);  // mant * 2^-24, exact
    return sign ? -v : v;
  }
  return fromBits(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t num::floatToHalf(float f) {
  uint32_t u = bitsOf(f);
  uint16_t sign = uint16_t((u >> 16) & 0x8000);
  uint32_t exp = (u >> 23) & 0xff, mant = u & 0x7fffff;
  if (exp == 0xff)
    return uint16_t(sign | 0x7c00 | (mant ? 0x200 | (mant >> 13) : 0));
  int e = int(exp) - 127 + 15;
  if (e >= 31)
    return uint16_t(sign | 0x7c00);
  if (e <= 0) {
    if (e < -10)
      return sign;
    // Subnormal half: shift the full significand, round to nearest even.
    uint32_t full = mant | 0x800000u;
    int shift = 14 - e;
    uint32_t q = full >> shift, rem = full & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
      ++q;
    return uint16_t(sign | q);
  }
  uint32_t q = (uint32_t(e) << 10) | (mant >> 13), rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (q & 1)))
    ++q;  // may carry into the exponent, up to infinity: still correct
  return uint16_t(sign | q);
}

float num::roundHalfEven(float x) {
  if (!(std::fabs(x) < 8388608.0f))
    return x;  // NaN, inf, or already an integer
  float r = float(int32_t(x));  // truncated
  float diff = x - r;
  if (diff > 0.5f || (diff == 0.5f && (int32_t(r) & 1)))
    r += 1.0f;
  else if (diff < -0.5f || (diff == -0.5f && (int32_t(r) & 1)))
    r -= 1.0f;
  return r == 0.0f ? std::copysign(0.0f, x) : r;
}

int64_t num::quantizeF32(float x, float scale, float zeroPoint, int64_t lo, int64_t hi) {
  float q = roundHalfEven(x / scale) + zeroPoint;
  return q != q ? 0 : q <= float(lo) ? lo : q >= float(hi) ? hi : int64_t(q);
}

float num::expF(float x) {
  if (x != x)
    return x;
  if (x > 88.72283f)
    return std::numeric_limits<float>::infinity();
  if (x < -103.97208f)
    return 0.0f;
  float k = roundHalfEven(x * 1.44269504f);
  float r = (x - k * 0.693359375f) + k * 2.12194440e-4f;
  float p = 1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 +
                                                                            r * (1.0f / 720))))));
  return scaleByPow2(p, int(k));
}

float num::logF(float x) {
  if (x != x || x < 0)
    return std::numeric_limits<float>::quiet_NaN();
  if (x == 0)
    return -std::numeric_limits<float>::infinity();
  if (x == std::numeric_limits<float>::infinity())
    return x;
  int e = 0;
  if (x < fromBits(0x00800000u)) {
    x *= 8388608.0f;  // 2^23
    e = -23;
  }
  uint32_t u = bitsOf(x);
  e += int((u >> 23) & 0xff) - 127;
  float m = fromBits((u & 0x7fffff) | 0x3f800000u);  // [1, 2)
  if (m >= 1.41421356f) {
    m *= 0.5f;
    ++e;
  }
  float f = m - 1.0f;
  float s = f / (2.0f + f);
  float z = s * s;
  float series = 2.0f * s *
                 (1.0f + z * (1.0f / 3 + z * (1.0f / 5 + z * (1.0f / 7 + z * (1.0f / 9)))));
  return float(e) * 0.693147182f + series;
}

float num::tanhF(float x) {
  if (x != x)
    return x;
  float a = std::fabs(x);
  if (a > 9.0f)
    return std::copysign(1.0f, x);
  if (a < fromBits(0x39800000u))  // 2^-12
    return x;
  float t = expF(-2.0f * a);
  return std::copysign((1.0f - t) / (1.0f + t), x);
}

float num::sigmoidF(float x) {
  if (x != x)
    return x;
  float e = expF(-x);
  if (e == std::numeric_limits<float>::infinity())
    return 0.0f;
  return 1.0f / (1.0f + e);
}

float num::erfF(float x) {
  if (x != x)
    return x;
  float a = std::fabs(x);
  float t = 1.0f / (1.0f + 0.3275911f * a);
  float poly = t * (0.254829592f +
                    t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
  float y = 1.0f - poly * expF(-a * a);
  return std::copysign(y, x);
}

float num::sqrtF(float x) { return std::sqrt(x); }
float num::rsqrtF(float x) { return 1.0f / std::sqrt(x); }
float num::recipF(float x) { return 1.0f / x; }

// The circular and inverse functions are Cephes's single-precision
// algorithms (Moshier, sinf.c, tanf.c, atanf.c, asinf.c, asinhf.c,
// acoshf.c, atanhf.c), with npu-v1's own log and square root.

namespace {
constexpr float kPi = 3.14159265358979f, kHalfPi = 1.57079632679490f,
                kQuarterPi = 0.785398163397448f, kLn2 = 0.693147180559945f;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// x = k * pi/2 + r with |r| <= pi/4 (up to rounding): Cody and Waite's
/// reduction by pi/2 in three parts (the first two exact products for
/// |k| < 2^16); `quadrant` is k mod 4, 0 where |k| >= 2^24.
struct Reduced {
  float r;
  int quadrant;
};
Reduced reduceHalfPi(float x) {
  float k = num::roundHalfEven(x * 0.636619772f);
  float r = ((x - k * 1.5703125f) - k * 4.83751297e-4f) - k * 7.54978995e-8f;
  int64_t ki = std::fabs(k) < 16777216.0f ? int64_t(k) : 0;
  return {r, int(ki & 3)};
}
/// sin and cos of a reduced argument (|r| <= pi/4).
float sinPoly(float r) {
  float z = r * r;
  return ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f) * z * r + r;
}
float cosPoly(float r) {
  float z = r * r;
  return ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z + 4.166664568298827e-2f) * z * z -
         0.5f * z + 1.0f;
}
} // namespace

float num::sinF(float x) {
  if (x != x || std::fabs(x) == std::numeric_limits<float>::infinity())
    return kNaN;
  Reduced d = reduceHalfPi(x);
  float v = d.quadrant & 1 ? cosPoly(d.r) : sinPoly(d.r);
  return d.quadrant & 2 ? -v : v;
}

float num::cosF(float x) {
  if (x != x || std::fabs(x) == std::numeric_limits<float>::infinity())
    return kNaN;
  Reduced d = reduceHalfPi(x);
  float v = d.quadrant & 1 ? sinPoly(d.r) : cosPoly(d.r);
  return (d.quadrant + 1) & 2 ? -v : v;
}

float num::tanF(float x) {
  if (x != x || std::fabs(x) == std::numeric_limits<float>::infinity())
    return kNaN;
  Reduced d = reduceHalfPi(x);
  float r = d.r, z = r * r, t = r;
  if (std::fabs(r) > 1e-4f)
    t = (((((9.38540185543e-3f * z + 3.11992232697e-3f) * z + 2.44301354525e-2f) * z +
           5.34112807005e-2f) * z + 1.33387994085e-1f) * z + 3.33331568548e-1f) * z * r + r;
  return d.quadrant & 1 ? -1.0f / t : t;
}

float num::atanF(float x) {
  if (x != x)
    return x;
  float a = std::fabs(x), base = 0.0f, r = a;
  if (a > 2.414213562373095f) {
    base = kHalfPi;
    r = -1.0f / a;
  } else if (a > 0.4142135623730950f) {
    base = kQuarterPi;
    r = (a - 1.0f) / (a + 1.0f);
  }
  float z = r * r;
  float p = (((8.05374449538e-2f * z - 1.38776856032e-1f) * z + 1.99777106478e-1f) * z -
             3.33329491539e-1f) * z * r + r;
  return std::copysign(base + p, x);
}

float num::asinF(float x) {
  if (x != x)
    return x;
  float a = std::fabs(x);
  if (a > 1.0f)
    return kNaN;
  bool upper = a > 0.5f;
  float z = upper ? 0.5f * (1.0f - a) : a * a, r = upper ? sqrtF(z) : a;
  float y = r;
  if (upper || a >= 1e-4f)
    y = ((((4.2163199048e-2f * z + 2.4181311049e-2f) * z + 4.5470025998e-2f) * z +
          7.4953002686e-2f) * z + 1.6666752422e-1f) * z * r + r;
  if (upper)
    y = kHalfPi - (y + y);
  return std::copysign(y, x);
}

float num::acosF(float x) {
  if (x != x)
    return x;
  if (x < -1.0f || x > 1.0f)
    return kNaN;
  if (x < -0.5f)
    return kPi - 2.0f * asinF(sqrtF(0.5f * (1.0f + x)));
  if (x > 0.5f)
    return 2.0f * asinF(sqrtF(0.5f * (1.0f - x)));
  return kHalfPi - asinF(x);
}

float num::asinhF(float x) {
  float a = std::fabs(x);
  if (x != x || a == std::numeric_limits<float>::infinity())
    return x;
  float y;
  if (a > 1500.0f) {
    y = logF(a) + kLn2;
  } else if (a < 0.5f) {
    float z = a * a;
    y = (((2.0122003309e-2f * z - 4.2699340972e-2f) * z + 7.4847586088e-2f) * z -
         1.6666288134e-1f) * z * a + a;
  } else {
    y = logF(a + sqrtF(a * a + 1.0f));
  }
  return std::copysign(y, x);
}

float num::acoshF(float x) {
  if (x != x || x == std::numeric_limits<float>::infinity())
    return x;
  if (x < 1.0f)
    return kNaN;
  if (x > 1500.0f)
    return logF(x) + kLn2;
  float z = x - 1.0f;
  if (z < 0.5f)
    return ((((1.7596881071e-3f * z - 7.5272886713e-3f) * z + 2.6454905019e-2f) * z -
             1.1784741703e-1f) * z + 1.4142135263f) * sqrtF(z);
  return logF(x + sqrtF(z * (x + 1.0f)));
}

float num::atanhF(float x) {
  if (x != x)
    return x;
  float a = std::fabs(x);
  if (a >= 1.0f)
    return a == 1.0f ? std::copysign(std::numeric_limits<float>::infinity(), x) : kNaN;
  if (a < 1e-4f)
    return x;
  if (a < 0.5f) {
    float z = x * x;
    return ((((1.81740078349e-1f * z + 8.24370301058e-2f) * z + 1.46691431730e-1f) * z +
             1.99782164500e-1f) * z + 3.33337300303e-1f) * z * x + x;
  }
  return 0.5f * logF((1.0f + x) / (1.0f - x));
}
