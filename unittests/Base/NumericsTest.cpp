//===- NumericsTest.cpp - docs/numerics.md at its edges -------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Expected values are worked out by hand from the definitions (or, for the
// transcendental functions, compared with the host's double-precision libm,
// which the implementation itself never calls).
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Numerics.h"
#include "npuc/Base/Sha256.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace npuc;
using namespace npuc::num;

TEST(Numerics, SrdhmEdges) {
  EXPECT_EQ(srdhm(INT32_MIN, INT32_MIN), INT32_MAX);  // the one overflow case
  EXPECT_EQ(srdhm(INT32_MAX, INT32_MAX), INT32_MAX - 1);
  EXPECT_EQ(srdhm(INT32_MIN, INT32_MAX), -INT32_MAX);
  EXPECT_EQ(srdhm(0, INT32_MIN), 0);
  EXPECT_EQ(srdhm(100, 1 << 30), 50);   // x * 0.5
  EXPECT_EQ(srdhm(3, 1 << 30), 2);      // 1.5 rounds up
  EXPECT_EQ(srdhm(-3, 1 << 30), -1);    // -1.5: gemmlowp's nudge then truncation
  EXPECT_EQ(srdhm(-13, 1 << 30), -6);   // -6.5 likewise
}

TEST(Numerics, RoundingRightShiftTiesAwayFromZero) {
  EXPECT_EQ(roundingRightShift(5, 0), 5);
  EXPECT_EQ(roundingRightShift(6, 2), 2);    // 1.5 -> 2
  EXPECT_EQ(roundingRightShift(-6, 2), -2);  // -1.5 -> -2
  EXPECT_EQ(roundingRightShift(5, 2), 1);    // 1.25 -> 1
  EXPECT_EQ(roundingRightShift(-5, 2), -1);
  EXPECT_EQ(roundingRightShift(-7, 2), -2);  // -1.75 -> -2
  EXPECT_EQ(roundingRightShift(INT32_MAX, 31), 1);
  EXPECT_EQ(roundingRightShift(INT32_MIN, 31), -1);
  EXPECT_EQ(roundingRightShift(1 << 30, 31), 1);     // 0.5 -> 1
  EXPECT_EQ(roundingRightShift(-(1 << 30), 31), -1); // -0.5 -> -1
}

TEST(Numerics, SaturatingLeftShift) {
  EXPECT_EQ(saturatingLeftShift(1, 0), 1);
  EXPECT_EQ(saturatingLeftShift(1, 31), INT32_MAX);
  EXPECT_EQ(saturatingLeftShift(-1, 31), INT32_MIN);
  EXPECT_EQ(saturatingLeftShift(3, 4), 48);
  EXPECT_EQ(saturatingLeftShift(1 << 20, 20), INT32_MAX);
}

TEST(Numerics, RequantizeClampsAndAddsZeroPoint) {
  RequantParams p{1 << 30, 1, 2, 3, -128, 20};  // x / 4, + 3, clamp [-128, 20]
  EXPECT_EQ(requantize(-13, p), 0);
  EXPECT_EQ(requantize(34, p), 12);
  EXPECT_EQ(requantize(78, p), 20);  // 23 clamped
  EXPECT_EQ(requantize(INT32_MIN, p), -128);
  EXPECT_EQ(requantize(INT32_MAX, p), 20);
}

// The high multiply rounds to an integer holding rs fractional bits, the final
// shift rounds again. From mobilenetv2_uint8's first convolution: acc 58818,
// M = 1752495685 (real multiplier 0.0031877711 = M * 2^-39), exactly
// 187.4983; with rs = 8 the intermediate round(58818 * M / 2^31) = 48000 is
// 187.5 and rounds away to 188, while shifting both by 12 keeps 20 fractional
// bits (196606238 / 2^20 = 187.498) and gives 187. Worked with Python integers.
TEST(Numerics, RequantizeDoubleRoundingNeedsFractionalBits) {
  EXPECT_EQ(srdhm(58818, 1752495685), 48000);
  EXPECT_EQ(requantize(58818, RequantParams{1752495685, 0, 8, 0, INT32_MIN, INT32_MAX}), 188);
  EXPECT_EQ(srdhm(58818 << 12, 1752495685), 196606238);
  EXPECT_EQ(requantize(58818, RequantParams{1752495685, 12, 20, 0, INT32_MIN, INT32_MAX}), 187);
}

TEST(Numerics, QuantizeMultiplier) {
  int32_t m;
  int ls, rs;
  ASSERT_TRUE(quantizeMultiplier(0.25, m, ls, rs));
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(ls - rs, -1);  // 0.25 = 2^30 * 2^(-1 - 31 + 30)... = 0.5 * 2^-1
  ASSERT_TRUE(quantizeMultiplier(3.0, m, ls, rs));
  EXPECT_EQ(m, 3 << 29);
  EXPECT_EQ(ls, 2);
  EXPECT_EQ(rs, 0);
  EXPECT_FALSE(quantizeMultiplier(0.0, m, ls, rs));
  EXPECT_FALSE(quantizeMultiplier(-1.0, m, ls, rs));
  EXPECT_FALSE(quantizeMultiplier(std::ldexp(1.0, -40), m, ls, rs));  // shift > 31
  EXPECT_FALSE(quantizeMultiplier(std::ldexp(1.0, 40), m, ls, rs));
  // The derived parameters reproduce the real multiplier.
  for (double real : {0.0007, 0.013, 0.5, 0.9999, 1.7, 123.4}) {
    ASSERT_TRUE(quantizeMultiplier(real, m, ls, rs));
    EXPECT_NEAR(double(m) * std::ldexp(1.0, ls - rs - 31), real, real * 1e-9);
  }
}

TEST(Numerics, HalfConversions) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);         // rounds to infinity
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);  // tie -> even (0)
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 ulp -> 2
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);  // tie -> even
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(3.0f, -11)), 0x3c02);  // tie -> even (up)
  EXPECT_EQ(halfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isinf(halfToFloat(0x7c00)));
  EXPECT_TRUE(std::isnan(halfToFloat(0x7e00)));
  for (uint32_t h = 0; h < 0x10000; ++h)
    if ((h & 0x7c00) != 0x7c00)  // every finite half survives a round trip
      EXPECT_EQ(floatToHalf(halfToFloat(uint16_t(h))), h);
}

TEST(Numerics, RoundHalfEven) {
  EXPECT_EQ(roundHalfEven(0.5f), 0.0f);
  EXPECT_EQ(roundHalfEven(1.5f), 2.0f);
  EXPECT_EQ(roundHalfEven(2.5f), 2.0f);
  EXPECT_EQ(roundHalfEven(-2.5f), -2.0f);
  EXPECT_EQ(roundHalfEven(-0.4f), 0.0f);
  EXPECT_TRUE(std::signbit(roundHalfEven(-0.4f)));
  EXPECT_EQ(roundHalfEven(8388609.0f), 8388609.0f);
}

// QuantizeLinear's steps: ties to even, then the zero point, then the clamp;
// an int32 result saturates instead of overflowing on the way.
TEST(Numerics, QuantizeF32) {
  EXPECT_EQ(quantizeF32(2.5f, 1.0f, 0.0f, -128, 127), 2);
  EXPECT_EQ(quantizeF32(-2.5f, 1.0f, 0.0f, -128, 127), -2);
  EXPECT_EQ(quantizeF32(0.75f, 0.5f, 3.0f, -128, 127), 5);  // 1.5 -> 2, + 3
  EXPECT_EQ(quantizeF32(1000.0f, 1.0f, 0.0f, -128, 127), 127);
  EXPECT_EQ(quantizeF32(-1000.0f, 1.0f, 10.0f, 0, 255), 0);
  EXPECT_EQ(quantizeF32(1e30f, 1.0f, 0.0f, INT32_MIN, INT32_MAX), INT32_MAX);
  EXPECT_EQ(quantizeF32(-1e30f, 1.0f, 0.0f, INT32_MIN, INT32_MAX), INT32_MIN);
  EXPECT_EQ(quantizeF32(std::nanf(""), 1.0f, 7.0f, -128, 127), 0);
}

// A requantization table entry, byte by byte as docs/numerics.md lays it
// out: i32 M, u8 ls, u8 rs, i16 zp, i16 lo, i16 hi, u8[4] zero.
TEST(Numerics, RequantEntryLayout) {
  RequantParams p{0x40302010, 3, 31, -5, -128, 127};
  uint8_t e[kRequantEntryBytes];
  std::memset(e, 0xee, sizeof e);
  packRequantEntry(p, e);
  const uint8_t want[16] = {0x10, 0x20, 0x30, 0x40, 3, 31, 0xfb, 0xff,
                            0x80, 0xff, 0x7f, 0x00, 0, 0, 0, 0};
  EXPECT_EQ(std::memcmp(e, want, 16), 0);
  RequantParams q = unpackRequantEntry(want);
  EXPECT_EQ(q.multiplier, 0x40302010);
  EXPECT_EQ(q.ls, 3);
  EXPECT_EQ(q.rs, 31);
  EXPECT_EQ(q.zp, -5);
  EXPECT_EQ(q.lo, -128);
  EXPECT_EQ(q.hi, 127);
  // uint8 bounds and zero points are small positive i16 values.
  const uint8_t u8[16] = {0, 0, 0, 0x40, 0, 0, 0x80, 0, 0, 0, 0xff, 0, 0, 0, 0, 0};
  EXPECT_EQ(unpackRequantEntry(u8).hi, 255);
  EXPECT_EQ(unpackRequantEntry(u8).zp, 128);
}

namespace {
/// Largest |f(x) - ref(x)| and relative error over a sweep of [lo, hi].
struct ErrorStats {
  double absErr = 0, relErr = 0;
};
template <typename F, typename R>
ErrorStats sweep(F f, R ref, double lo, double hi, int n = 1 << 20) {
  ErrorStats s;
  for (int i = 0; i <= n; ++i) {
    float x = float(lo + (hi - lo) * i / n);
    double want = ref(double(x)), got = double(f(x));
    if (!std::isfinite(want))
      continue;
    double err = std::fabs(got - want);
    s.absErr = std::max(s.absErr, err);
    if (std::fabs(want) > 1e-30)
      s.relErr = std::max(s.relErr, err / std::fabs(want));
  }
  return s;
}
} // namespace

// The bounds stated in docs/numerics.md.
TEST(Numerics, TranscendentalsMeetTheirStatedBounds) {
  EXPECT_LT(sweep(expF, [](double x) { return std::exp(x); }, -87, 88).relErr, 4e-7);
  EXPECT_LT(sweep(expF, [](double x) { return std::exp(x); }, -100, -87).relErr, 4e-7);
  EXPECT_LT(sweep(logF, [](double x) { return std::log(x); }, 0.5, 2).absErr, 2e-7);
  EXPECT_LT(sweep(logF, [](double x) { return std::log(x); }, 2, 1e6).relErr, 2e-7);
  EXPECT_LT(sweep(logF, [](double x) { return std::log(x); }, 1e-30, 0.5).relErr, 2e-7);
  EXPECT_LT(sweep(tanhF, [](double x) { return std::tanh(x); }, -12, 12).absErr, 2e-7);
  EXPECT_LT(sweep(sigmoidF, [](double x) { return 1 / (1 + std::exp(-x)); }, -90, 90).absErr, 1e-7);
  EXPECT_LT(sweep(erfF, [](double x) { return std::erf(x); }, -6, 6).absErr, 1.5e-6);
}

// The circular and hyperbolic inverses of docs/numerics.md, over the
// domains their bounds are stated for.
TEST(Numerics, TrigonometricFunctionsMeetTheirStatedBounds) {
  EXPECT_LT(sweep(sinF, [](double x) { return std::sin(x); }, -8192, 8192).absErr, 1e-7);
  EXPECT_LT(sweep(cosF, [](double x) { return std::cos(x); }, -8192, 8192).absErr, 1e-7);
  EXPECT_LT(sweep(tanF, [](double x) { return std::tan(x); }, -8192, 8192).relErr, 2.5e-6);
  EXPECT_LT(sweep(tanF, [](double x) { return std::tan(x); }, -1.5, 1.5).relErr, 2e-7);
  EXPECT_LT(sweep(atanF, [](double x) { return std::atan(x); }, -100, 100).relErr, 2e-7);
  EXPECT_LT(sweep(atanF, [](double x) { return std::atan(x); }, -1e30, 1e30).relErr, 2e-7);
  EXPECT_LT(sweep(asinF, [](double x) { return std::asin(x); }, -1, 1).relErr, 3e-7);
  EXPECT_LT(sweep(acosF, [](double x) { return std::acos(x); }, -1, 1).relErr, 2e-7);
  EXPECT_LT(sweep(acosF, [](double x) { return std::acos(x); }, -1, 1).absErr, 3.5e-7);
  EXPECT_LT(sweep(asinhF, [](double x) { return std::asinh(x); }, -10, 10).relErr, 2e-7);
  EXPECT_LT(sweep(asinhF, [](double x) { return std::asinh(x); }, -1e30, 1e30).relErr, 2e-7);
  EXPECT_LT(sweep(acoshF, [](double x) { return std::acosh(x); }, 1, 10).relErr, 2e-7);
  EXPECT_LT(sweep(acoshF, [](double x) { return std::acosh(x); }, 1, 1e30).relErr, 2e-7);
  EXPECT_LT(sweep(atanhF, [](double x) { return std::atanh(x); }, -1, 1).relErr, 2e-7);
}

TEST(Numerics, TrigonometricEdges) {
  float inf = std::numeric_limits<float>::infinity();
  for (auto f : {sinF, cosF, tanF})
    EXPECT_TRUE(std::isnan(f(inf)) && std::isnan(f(-inf)) && std::isnan(f(std::nanf(""))));
  EXPECT_EQ(sinF(0.0f), 0.0f);
  EXPECT_EQ(cosF(0.0f), 1.0f);
  EXPECT_EQ(atanF(inf), 1.57079632679490f);
  EXPECT_EQ(atanF(-inf), -1.57079632679490f);
  EXPECT_TRUE(std::isnan(asinF(1.5f)) && std::isnan(acosF(-1.5f)) && std::isnan(acoshF(0.5f)));
  EXPECT_EQ(asinF(1.0f), 1.57079632679490f);
  EXPECT_EQ(acosF(1.0f), 0.0f);
  EXPECT_EQ(acoshF(1.0f), 0.0f);
  EXPECT_EQ(atanhF(1.0f), inf);
  EXPECT_EQ(atanhF(-1.0f), -inf);
  EXPECT_TRUE(std::isnan(atanhF(1.5f)));
  EXPECT_EQ(asinhF(-inf), -inf);
  EXPECT_EQ(acoshF(inf), inf);
}

TEST(Numerics, TranscendentalEdges) {
  float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(expF(89.0f), inf);
  EXPECT_EQ(expF(-104.0f), 0.0f);
  EXPECT_EQ(expF(0.0f), 1.0f);
  EXPECT_EQ(logF(0.0f), -inf);
  EXPECT_TRUE(std::isnan(logF(-1.0f)));
  EXPECT_EQ(logF(inf), inf);
  EXPECT_EQ(logF(1.0f), 0.0f);
  EXPECT_GT(logF(std::ldexp(1.0f, -149)), -103.3f);  // subnormal input
  EXPECT_EQ(sigmoidF(-100.0f), 0.0f);
  EXPECT_EQ(sigmoidF(100.0f), 1.0f);
  EXPECT_EQ(sigmoidF(0.0f), 0.5f);
  EXPECT_EQ(tanhF(10.0f), 1.0f);
  EXPECT_EQ(tanhF(-10.0f), -1.0f);
  EXPECT_EQ(tanhF(1e-5f), 1e-5f);
  EXPECT_TRUE(std::isnan(expF(std::nanf(""))));
  EXPECT_EQ(erfF(0.0f), 0.0f);
  EXPECT_EQ(rsqrtF(4.0f), 0.5f);
  EXPECT_EQ(recipF(0.0f), inf);
}

TEST(Sha256, KnownVectors) {
  // FIPS 180-4 examples.
  EXPECT_EQ(sha256Hex("", 0), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc", 3), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  EXPECT_EQ(sha256Hex(two, std::strlen(two)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // One million 'a' (FIPS 180-4's long example): many blocks through the
  // SHA-extension path where the processor has it.
  std::string million(1000000, 'a');
  EXPECT_EQ(sha256Hex(million.data(), million.size()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths around the padding boundaries (bytes (7i + 3) mod 256), digests
// from Python's hashlib.
TEST(Sha256, PaddingBoundaries) {
  const std::pair<size_t, const char *> cases[] = {
      {55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"},
      {56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"},
      {63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"},
      {64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"},
      {65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"},
      {119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"},
      {128, "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6"}};
  for (auto [n, digest] : cases) {
    std::vector<uint8_t> bytes(n);
    for (size_t i = 0; i < n; ++i)
      bytes[i] = uint8_t((7 * i + 3) % 256);
    EXPECT_EQ(sha256Hex(bytes.data(), n), digest) << n << " bytes";
    EXPECT_EQ(sha256HexPortable(bytes.data(), n), digest) << n << " bytes";
  }
  // Both implementations over every length up to 300 and one large input.
  std::vector<uint8_t> data(300000);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = uint8_t((i * 2654435761u) >> 13);
  for (size_t n = 0; n <= 300; ++n)
    ASSERT_EQ(sha256Hex(data.data(), n), sha256HexPortable(data.data(), n)) << n << " bytes";
  EXPECT_EQ(sha256Hex(data.data(), data.size()), sha256HexPortable(data.data(), data.size()));
}
