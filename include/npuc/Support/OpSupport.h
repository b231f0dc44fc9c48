//===- OpSupport.h - Which lowering cases are proven ------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The evidence behind docs/supported-ops.md, `npuc --list-ops` and the gate
// (check-lowering-evidence, NPUC-E0105): for each lowering case a conformance
// run reached (lib/Conversion/QKToEmit/LoweringCase.h says what a case
// is) and each target, how far its tests got. The table is
// lib/Support/OpEvidence.tsv, written by `npuc-conformance --write-evidence`
// and compiled in; nothing here depends on MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_SUPPORT_OPSUPPORT_H
#define NPUC_SUPPORT_OPSUPPORT_H

#include "npuc/Support/CaseSpace.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npuc::support {

/// How far the tests that reach a case got on a target; the best level over
/// all of them counts.
enum class Level {
  Reached,   // selected in tests that did not compile
  Lowered,   // in a test that compiled, but none that matched its reference
  Verified,  // in a test that compiled, ran in npu-sim and matched its reference
};

/// The key of the rows that record ONNX nodes with no lowering case of their
/// own (folded at import, fused into a neighbour): their ops, per level.
inline constexpr const char *kNoCase = "-";

struct Evidence {
  std::string key;      // "graph.conv(f32,f32,f32->f32){kind=dense,...}", or kNoCase
  std::string target;   // "npu-v1"
  Level level = Level::Reached;
  std::string onnxOps;  // the ONNX ops whose nodes reached it, comma-separated
  std::string tests;    // the tests behind the level, comma-separated
};

const char *levelName(Level level);
bool parseLevel(std::string_view name, Level &level);

/// Parses the evidence table's text; returns false with `error` on a bad line.
bool parseEvidence(std::string_view text, std::vector<Evidence> &out, std::string &error);
std::string formatEvidence(const std::vector<Evidence> &evidence);

/// The file name of the evidence table among the tools' resources
/// (share/npuc, npuc/Base/Resources.h), written from lib/Support/OpEvidence.tsv.
inline constexpr const char *kEvidenceResource = "op-evidence.tsv";

/// The installed table, or null with `error` saying which file is missing
/// or damaged (contract D5).
const std::vector<Evidence> *installedEvidence(std::string &error);

/// An index of a table by (key, target).
class EvidenceIndex {
public:
  explicit EvidenceIndex(const std::vector<Evidence> &table);
  /// The row of `key` on `target`, or null when no test reached it.
  const Evidence *find(std::string_view key, std::string_view target) const;
  bool isVerified(std::string_view key, std::string_view target) const;

private:
  std::vector<const Evidence *> sorted;
};

/// The index of the installed table, or null with `error` (installedEvidence).
const EvidenceIndex *installedIndex(std::string &error);

/// A table read from a file instead of the installed one (npuc's test hook
/// --test-evidence), with its index.
struct EvidenceFile {
  std::vector<Evidence> table;
  std::unique_ptr<EvidenceIndex> index;
};

/// The index of the table at `path`, read into `file`, or of the installed
/// table when `path` is empty; null with `error`.
const EvidenceIndex *evidenceIndex(const std::string &path, EvidenceFile &file,
                                   std::string &error);

/// Why `key` is not verified on `target`, for a diagnostic: "no test reached
/// it on npu-v1", or the level and the tests that reached it.
std::string unverifiedReason(const EvidenceIndex &index, std::string_view key,
                             std::string_view target);

/// The op part of a case ("qk.conv2d" of "qk.conv2d(ui8,...){...}").
std::string caseOp(std::string_view key);

/// At most `n` of the comma-separated tests, and how many more there are
/// (the table itself may end in "+N more").
std::string someTests(const std::string &tests, size_t n = 3);

/// An op the lowering handles and its selector's declared case space.
struct OpCaseSpace {
  std::string op;
  const CaseSpace *space;
};

/// `npuc --list-cases`: every reachable case of every op on each of
/// `targets` as JSON, with its evidence level ("none" when no test reached
/// it) and the reason it cannot be verified yet, if one is declared.
std::string casesJson(const std::vector<OpCaseSpace> &spaces, const std::vector<std::string> &targets,
                      const EvidenceIndex &index);

/// docs/supported-ops.md: every ONNX op the importer translates
/// (`importedOps`, (domain, op) pairs) and the lowering cases its nodes
/// reached; per lowered op its declared case space and, per target, its
/// reachable cases: how many are verified, and each one that is not, with
/// why (the evidence, or the declared limitation).
std::string renderMarkdown(const std::vector<Evidence> &evidence,
                           const std::vector<std::pair<std::string, std::string>> &importedOps,
                           const std::vector<OpCaseSpace> &spaces,
                           const std::vector<std::string> &targets);

} // namespace npuc::support

#endif
