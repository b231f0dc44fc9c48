//===- Compare.cpp - npuc-conformance: outputs against references ---------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The comparison rules (docs/cli.md, "Comparison"): float outputs within
// |got - want| <= atol + rtol |want| (1e-5 and 1e-4 unless the test's
// tolerance.txt says otherwise), NaN matching NaN and infinities exactly;
// quantized outputs within one step; every other integer exactly; with
// exact=1 every output bit for bit (NaN matching NaN). A test's
// tolerance.txt may allow a fraction of elements beyond that (maxbad), bound
// the largest difference in quantization steps (maxstep) and ask that the
// largest output's index agree (top1; with at least five classes, the top
// five as a set too): the deep quantized network rule of docs/numerics.md.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "npuc/Base/Numerics.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>

using namespace npuc;
using namespace npuc::conformance;

namespace {
constexpr double kRelTol = 1e-4, kAbsTol = 1e-5;

double element(const HostTensor &t, uint64_t i) {
  const uint8_t *p = t.data.data();
  switch (t.dtype) {
  case model::DType::I8: return double(int8_t(p[i]));
  case model::DType::U8: return double(p[i]);
  case model::DType::I16: { int16_t v; std::memcpy(&v, p + 2 * i, 2); return v; }
  case model::DType::I32: { int32_t v; std::memcpy(&v, p + 4 * i, 4); return v; }
  case model::DType::F32: { float v; std::memcpy(&v, p + 4 * i, 4); return v; }
  case model::DType::F16: { uint16_t h; std::memcpy(&h, p + 2 * i, 2); return num::halfToFloat(h); }
  case model::DType::Bool: return double(p[i] != 0);
  case model::DType::I64: { int64_t v; std::memcpy(&v, p + 8 * i, 8); return double(v); }
  case model::DType::U16: { uint16_t v; std::memcpy(&v, p + 2 * i, 2); return v; }
  case model::DType::U32: { uint32_t v; std::memcpy(&v, p + 4 * i, 4); return v; }
  case model::DType::F64: { double v; std::memcpy(&v, p + 8 * i, 8); return v; }
  }
  return 0;
}

bool isFloat(model::DType t) {
  return t == model::DType::F32 || t == model::DType::F16 || t == model::DType::F64;
}

/// Element `i` as text: an int64 exactly (a double rounds it past 2^53).
std::string elementText(const HostTensor &t, uint64_t i) {
  if (t.dtype == model::DType::I64) {
    int64_t v;
    std::memcpy(&v, t.data.data() + 8 * i, 8);
    return std::to_string(v);
  }
  return numText(element(t, i));
}

/// Element `i` of two tensors of one dtype holds the same bits.
bool sameBits(const HostTensor &a, const HostTensor &b, uint64_t i) {
  unsigned n = model::dtypeBytes(a.dtype);
  return std::memcmp(a.data.data() + i * n, b.data.data() + i * n, n) == 0;
}

std::string indexString(const std::vector<int64_t> &shape, uint64_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? int64_t(flat % uint64_t(shape[d])) : 0;
    flat = shape[d] ? flat / uint64_t(shape[d]) : 0;
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d)
    s += (d ? "," : "") + std::to_string(idx[d]);
  return s + "]";
}

/// The `n` indices of the largest values of `v` (ties by the lower index).
std::vector<size_t> topIndices(const std::vector<double> &v, size_t n) {
  std::vector<size_t> idx(v.size());
  std::iota(idx.begin(), idx.end(), 0);
  n = std::min(n, v.size());
  std::partial_sort(idx.begin(), idx.begin() + long(n), idx.end(), [&](size_t a, size_t b) {
    return v[a] != v[b] ? v[a] > v[b] : a < b;
  });
  idx.resize(n);
  return idx;
}

/// Whether the top `n` of `got` and `want` agree as sets, equal values being
/// interchangeable: each side's top n lies within the other's top n values.
bool topAgree(const std::vector<double> &got, const std::vector<double> &want, size_t n) {
  auto within = [&](const std::vector<double> &a, const std::vector<double> &b) {
    std::vector<size_t> top = topIndices(a, n);
    double nth = b[topIndices(b, n).back()];
    return std::all_of(top.begin(), top.end(), [&](size_t i) { return b[i] >= nth; });
  };
  return within(got, want) && within(want, got);
}
} // namespace

bool npuc::conformance::readTolerance(const std::string &dir, Tolerance &tol, std::string &error) {
  std::ifstream in(dir + "/tolerance.txt");
  if (!in)
    return true;
  tol.present = true;
  std::string line, item;
  std::set<std::string> seen;
  std::stringstream items;
  while (std::getline(in, line))
    items << line.substr(0, line.find('#')) << '\n';
  while (items >> item) {
    size_t eq = item.find('=');
    std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (!seen.insert(key).second) {
      error = "tolerance.txt: " + key + " is given twice";
      return false;
    }
    auto number = [&](const std::string &text, double &out) {
      char *end = nullptr;
      out = std::strtod(text.c_str(), &end);
      if (text.empty() || *end || !std::isfinite(out) || out < 0) {
        error = "tolerance.txt: " + key + "='" + text + "' is not a non-negative number";
        return false;
      }
      return true;
    };
    double v;
    if (key == "atol") {
      std::stringstream list(value);
      for (std::string part; std::getline(list, part, ',');) {
        if (!number(part, v))
          return false;
        tol.atol.push_back(v);
      }
    } else if (key == "rtol" || key == "maxbad" || key == "maxstep") {
      if (!number(value, v))
        return false;
      (key == "rtol" ? tol.rtol : key == "maxbad" ? tol.maxbad : tol.maxstep) = v;
      if (key == "maxbad" && v > 1) {
        error = "tolerance.txt: maxbad=" + value + " is a fraction, at most 1";
        return false;
      }
    } else if (key == "exact") {
      if (value != "0" && value != "1") {
        error = "tolerance.txt: exact='" + value + "' is not 0 or 1";
        return false;
      }
      tol.exact = value == "1";
    } else if (key == "top1") {
      if (value != "0" && value != "1") {
        error = "tolerance.txt: top1='" + value + "' is not 0 or 1";
        return false;
      }
      tol.top1 = value == "1";
    } else if (key == "float") {
      if (value != "fp32" && value != "fp16") {
        error = "tolerance.txt: float='" + value + "' is not fp32 or fp16";
        return false;
      }
      tol.floatType = value;
    } else {
      error = "tolerance.txt: unknown key '" + key +
              "' (atol, rtol, maxbad, maxstep, top1, float, exact)";
      return false;
    }
  }
  if (tol.exact && (!tol.atol.empty() || tol.rtol || tol.maxbad || tol.maxstep)) {
    error = "tolerance.txt: exact=1 allows no difference; it takes no atol, rtol, maxbad or maxstep";
    return false;
  }
  return true;
}

bool npuc::conformance::compareOutput(size_t k, const HostTensor &got, const HostTensor &want,
                                      bool quantized, const Tolerance &tol, Agreement &agreement,
                                      std::string &detail) {
  if (got.dtype != want.dtype || got.shape != want.shape) {
    detail = "output " + std::to_string(k) + " is " + got.describe() + ", expected " +
             want.describe();
    return false;
  }
  double atol = tol.atol.empty() ? kAbsTol : tol.atol[std::min(k, tol.atol.size() - 1)];
  double rtol = tol.rtol.value_or(kRelTol);
  double maxstep = tol.maxstep.value_or(1);
  bool floating = isFloat(want.dtype);
  uint64_t n = want.numElements(), bad = 0, worstAt = 0;
  double worstBad = -1, worst = 0;
  bool beyondBound = false;  // an element past maxstep: never allowed
  std::vector<double> g(n), w(n);
  for (uint64_t i = 0; i < n; ++i) {
    g[i] = element(got, i);
    w[i] = element(want, i);
    double diff;
    bool ok;
    if (std::isnan(g[i]) || std::isnan(w[i])) {
      ok = std::isnan(g[i]) && std::isnan(w[i]);
      diff = ok ? 0 : INFINITY;
    } else if (std::isinf(g[i]) || std::isinf(w[i])) {
      ok = g[i] == w[i];
      diff = ok ? 0 : INFINITY;
    } else {
      diff = std::fabs(g[i] - w[i]);
      // Plain integers (and every integer under exact) by their bits: an
      // int64 past 2^53 has no exact double; two that differ differ by 1 at
      // least. exact floats: equal as values (-0 is 0).
      bool integral = !floating && (tol.exact || !quantized);
      if (integral && !sameBits(got, want, i))
        diff = std::max(diff, 1.0);
      ok = integral    ? diff == 0
           : floating  ? (tol.exact ? diff == 0 : diff <= atol + rtol * std::fabs(w[i]))
           : diff <= 1;  // quantized
    }
    worst = std::max(worst, diff);
    agreement.differing += diff != 0;
    agreement.beyondOne += quantized && diff > 1;
    if (quantized && diff > maxstep)
      beyondBound = true;
    if (!ok) {
      ++bad;
      if (diff > worstBad) {
        worstBad = diff;
        worstAt = i;
      }
    }
  }
  agreement.worst = std::max(agreement.worst, worst);
  agreement.total += n;
  std::string where = "output " + std::to_string(k) + ": ";
  auto describeWorst = [&]() {
    return "largest error " + numText(worstBad) + " at " + indexString(want.shape, worstAt) +
           " (got " + elementText(got, worstAt) + ", expected " + elementText(want, worstAt) + ")";
  };
  // Allowed beyond tolerance: none, or the fraction maxbad; quantized
  // elements never past maxstep steps.
  uint64_t allowed = uint64_t(std::floor(tol.maxbad.value_or(0) * double(n)));
  if (beyondBound || bad > allowed) {
    detail = where + describeWorst() + "; " + std::to_string(bad) + " of " + std::to_string(n) +
             " elements outside tolerance" +
             (beyondBound ? " (more than " + numText(maxstep) + " steps off)"
              : allowed   ? " (" + std::to_string(allowed) + " allowed)"
                          : "");
    return false;
  }
  if (tol.top1 && n > 0) {
    // Per row of the last axis: the largest index, and with at least five
    // classes the top five as a set (equal values interchangeable).
    int64_t classes = want.shape.empty() ? 1 : want.shape.back();
    for (uint64_t row = 0; classes > 0 && row < n / uint64_t(classes); ++row) {
      std::vector<double> gr(g.begin() + long(row * classes), g.begin() + long((row + 1) * classes));
      std::vector<double> wr(w.begin() + long(row * classes), w.begin() + long((row + 1) * classes));
      size_t gTop = topIndices(gr, 1)[0], wTop = topIndices(wr, 1)[0];
      if (wr[gTop] != wr[wTop]) {
        detail = where + "row " + std::to_string(row) + ": top-1 class " + std::to_string(gTop) +
                 ", expected " + std::to_string(wTop);
        return false;
      }
      if (classes >= 5 && !topAgree(gr, wr, 5)) {
        detail = where + "row " + std::to_string(row) + ": the top-5 classes differ";
        return false;
      }
    }
  }
  return true;
}
