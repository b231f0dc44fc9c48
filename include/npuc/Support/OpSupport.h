//===- OpSupport.h - Which ONNX combinations are proven ---------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The evidence behind docs/supported-ops.md and `npuc --list-ops`: for each
// combination a conformance run saw (SupportKey.cpp says what a combination
// is) and each target, how far it got. The table is lib/Support/OpEvidence.tsv,
// written by `npuc-conformance --write-evidence` and compiled in; nothing here
// depends on MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_SUPPORT_OPSUPPORT_H
#define NPUC_SUPPORT_OPSUPPORT_H

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npuc::support {

/// How far the tests that exercise a combination got on a target; the best
/// level over all of them counts.
enum class Level {
  Imported,  // only in tests that did not compile
  Lowered,   // in a test that compiled, but none that matched its reference
  Verified,  // in a test that compiled, ran in npu-sim and matched its reference
};

struct Evidence {
  std::string key;     // "Conv-11(float,float,float){group=1,pads,strides}"
  std::string target;  // "npu-v1"
  Level level = Level::Imported;
  std::string tests;   // the tests behind the level, comma-separated
};

const char *levelName(Level level);
bool parseLevel(std::string_view name, Level &level);

/// Parses the evidence table's text; returns false with `error` on a bad line.
bool parseEvidence(std::string_view text, std::vector<Evidence> &out, std::string &error);
std::string formatEvidence(const std::vector<Evidence> &evidence);

/// The compiled-in table.
const std::vector<Evidence> &evidence();

/// Whether `key` is verified end to end on `target`.
bool isVerified(std::string_view key, std::string_view target);

/// The op part of a key ("Conv" of "Conv-11(...){...}", with its domain).
std::string keyOp(std::string_view key);

/// docs/supported-ops.md: every op the importer translates (`importedOps`,
/// (domain, op) pairs), with its combinations per target and their evidence.
std::string renderMarkdown(const std::vector<Evidence> &evidence,
                           const std::vector<std::pair<std::string, std::string>> &importedOps);

} // namespace npuc::support

#endif
