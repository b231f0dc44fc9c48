//===- Spelling.h - "did you mean" for misspelt names -----------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Header only; base layer: no MLIR. Every "no such X" the tools print names
// the closest valid X when the given one looks like a slip.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_BASE_SPELLING_H
#define NPUC_BASE_SPELLING_H

#include <algorithm>
#include <string>
#include <vector>

namespace npuc::cli {

/// Levenshtein distance.
inline size_t editDistance(const std::string &a, const std::string &b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

/// The candidate closest to `word`, when it is close enough to be a slip
/// (at most a third of its letters, and at least one, differ); else "".
inline std::string closest(const std::string &word, const std::vector<std::string> &candidates) {
  std::string best;
  size_t bestDistance = std::max<size_t>(1, word.size() / 3) + 1;
  for (const std::string &c : candidates)
    if (size_t d = editDistance(word, c); d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  return best;
}

/// " (did you mean 'X'?)" for `word` among `candidates`, or "".
inline std::string didYouMean(const std::string &word, const std::vector<std::string> &candidates) {
  std::string c = closest(word, candidates);
  return c.empty() ? "" : " (did you mean '" + c + "'?)";
}

} // namespace npuc::cli

#endif
