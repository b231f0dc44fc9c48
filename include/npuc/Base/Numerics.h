//===- Numerics.h - NPU-v1 arithmetic primitives ----------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The arithmetic of docs/numerics.md, bit for bit. The simulator executes it;
// the compiler uses the same functions to build tables and fold constants.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_BASE_NUMERICS_H
#define NPUC_BASE_NUMERICS_H

#include <cstdint>

namespace npuc::num {

int64_t saturate(int64_t x, int64_t lo, int64_t hi);
int32_t saturateI32(int64_t x);

/// gemmlowp SaturatingRoundingDoublingHighMul.
int32_t srdhm(int32_t a, int32_t b);
/// Round(x / 2^s), ties away from zero; s in [0, 31].
int32_t roundingRightShift(int32_t x, int s);
/// Saturate(x * 2^s, i32); s in [0, 31].
int32_t saturatingLeftShift(int32_t x, int s);

struct RequantParams {
  int32_t multiplier;  // Q31, [0, 2^31 - 1]
  int ls, rs;          // [0, 31]
  int32_t zp, lo, hi;
};
/// y = clamp(zp + RRS(SRDHM(SLS(x, ls), M), rs), lo, hi).
int32_t requantize(int32_t x, const RequantParams &p);

/// One entry of a requantization table in LM (pmode COL or ROW,
/// docs/numerics.md), little-endian: i32 M, u8 ls, u8 rs, i16 zp, i16 lo,
/// i16 hi, u8[4] zero. The compiler packs the tables, the simulator unpacks
/// them.
inline constexpr unsigned kRequantEntryBytes = 16;
void packRequantEntry(const RequantParams &p, uint8_t *entry);
/// The entry's fields as written; whether they are in range (M >= 0, shifts
/// <= 31, the clamp in the output type) is the reader's check.
RequantParams unpackRequantEntry(const uint8_t *entry);

/// (M, ls, rs) with M * 2^(ls - rs - 31) closest to `real` (double precision).
/// Returns false when `real` is not positive and finite or needs a shift
/// outside [0, 31].
bool quantizeMultiplier(double real, int32_t &multiplier, int &ls, int &rs);

/// IEEE binary16 <-> binary32, round to nearest even.
float halfToFloat(uint16_t h);
uint16_t floatToHalf(float f);

/// Round half to even to an integer-valued float.
float roundHalfEven(float x);

/// QuantizeLinear's f32 steps (V_QUANT): x / scale rounded half to even, plus
/// the zero point, saturated to [lo, hi]; NaN gives 0.
int64_t quantizeF32(float x, float scale, float zeroPoint, int64_t lo, int64_t hi);

/// The fixed algorithms of docs/numerics.md (no host libm).
float expF(float x);
float logF(float x);
float tanhF(float x);
float sigmoidF(float x);
float erfF(float x);
float sinF(float x);
float cosF(float x);
float tanF(float x);
float asinF(float x);
float acosF(float x);
float atanF(float x);
float asinhF(float x);
float acoshF(float x);
float atanhF(float x);
float sqrtF(float x);   // IEEE square root (correctly rounded)
float rsqrtF(float x);  // IEEE 1 / IEEE sqrt(x)
float recipF(float x);  // IEEE 1 / x

} // namespace npuc::num

#endif
