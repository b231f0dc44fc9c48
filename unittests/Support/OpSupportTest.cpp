//===- OpSupportTest.cpp - The lowering-case evidence table ---------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Support/OpSupport.h"

#include <gtest/gtest.h>

using namespace npuc::support;

namespace {
const char *kConv = "graph.conv(f32,f32,f32->f32){kind=dense,padded,!strided,!dilated,window=kxk,bias}";
const char *kGather = "graph.gather(f32,i64->f32){}";
} // namespace

TEST(OpSupport, ParsesAndFormatsTheTable) {
  std::string text = std::string("# comment\n") + kConv +
                     "\tnpu-v1\tverified\tConv\tnode/test_a,node/test_b\n" + kGather +
                     "\tnpu-v1\treached\tGather\tnode/test_g [NPUC-E0401]\n"
                     "-\tnpu-v1\tverified\tConstant,Shape\tnode/test_c\n";
  std::vector<Evidence> e;
  std::string error;
  ASSERT_TRUE(parseEvidence(text, e, error)) << error;
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].key, kConv);
  EXPECT_EQ(e[0].target, "npu-v1");
  EXPECT_EQ(e[0].level, Level::Verified);
  EXPECT_EQ(e[0].onnxOps, "Conv");
  EXPECT_EQ(e[1].level, Level::Reached);
  EXPECT_EQ(e[1].tests, "node/test_g [NPUC-E0401]");
  EXPECT_EQ(e[2].key, kNoCase);
  // Formatting and parsing again gives the same table.
  std::vector<Evidence> again;
  ASSERT_TRUE(parseEvidence(formatEvidence(e), again, error)) << error;
  ASSERT_EQ(again.size(), 3u);
  for (size_t i = 0; i < e.size(); ++i) {
    EXPECT_EQ(again[i].key, e[i].key);
    EXPECT_EQ(again[i].level, e[i].level);
    EXPECT_EQ(again[i].onnxOps, e[i].onnxOps);
    EXPECT_EQ(again[i].tests, e[i].tests);
  }
}

TEST(OpSupport, RejectsBadLines) {
  std::vector<Evidence> e;
  std::string error;
  EXPECT_FALSE(parseEvidence("graph.abs(f32->f32){}\tnpu-v1\tproven\tAbs\tx\n", e, error));
  EXPECT_NE(error.find("line 1"), std::string::npos) << error;
  // The four-column table of combinations is not read as cases.
  EXPECT_FALSE(parseEvidence("Abs-13(float){}\tnpu-v1\tverified\tnode/test_abs\n", e, error));
  EXPECT_FALSE(parseEvidence("graph.abs(f32->f32){}\tnpu-v1\n", e, error));
}

TEST(OpSupport, CaseOpIsTheOpName) {
  EXPECT_EQ(caseOp(kConv), "graph.conv");
  EXPECT_EQ(caseOp("qk.conv2d(ui8,i8,i32->ui8){kind=depthwise}"), "qk.conv2d");
}

TEST(OpSupport, IndexAnswersPerCaseAndTarget) {
  std::vector<Evidence> e{{kConv, "npu-v1", Level::Verified, "Conv", "node/a"},
                          {kConv, "npu-v1-tiny", Level::Lowered, "Conv", "node/a [FAIL]"},
                          {kGather, "npu-v1", Level::Reached, "Gather", "node/g [NPUC-E0401]"}};
  EvidenceIndex index(e);
  EXPECT_TRUE(index.isVerified(kConv, "npu-v1"));
  EXPECT_FALSE(index.isVerified(kConv, "npu-v1-tiny"));
  EXPECT_FALSE(index.isVerified(kGather, "npu-v1"));
  EXPECT_EQ(index.find(kGather, "npu-v1-tiny"), nullptr);
  // A case differing in one property is another case.
  std::string dilated = kConv;
  dilated.replace(dilated.find("!dilated"), 8, "dilated");
  EXPECT_FALSE(index.isVerified(dilated, "npu-v1"));
  EXPECT_EQ(unverifiedReason(index, dilated, "npu-v1"), "no test reached it on npu-v1");
  EXPECT_EQ(unverifiedReason(index, kConv, "npu-v1-tiny"),
            "tests reached it on npu-v1-tiny but none matched its reference (lowered: node/a [FAIL])");
  EXPECT_EQ(unverifiedReason(index, kGather, "npu-v1"),
            "tests reached it on npu-v1 but none compiled (reached: node/g [NPUC-E0401])");
}

// The installed table (build/share/npuc beside build/bin) parses; every
// verified entry answers on its own target only.
TEST(OpSupport, InstalledTable) {
  std::string error;
  const std::vector<Evidence> *table = installedEvidence(error);
  ASSERT_NE(table, nullptr) << error;
  const EvidenceIndex *index = installedIndex(error);
  ASSERT_NE(index, nullptr) << error;
  ASSERT_FALSE(table->empty());
  size_t verified = 0;
  for (const Evidence &e : *table) {
    if (e.level != Level::Verified || e.key == kNoCase)
      continue;
    ++verified;
    EXPECT_TRUE(index->isVerified(e.key, e.target)) << e.key;
    EXPECT_FALSE(index->isVerified(e.key, "no-such-target")) << e.key;
  }
  EXPECT_GT(verified, 0u);
  EXPECT_FALSE(index->isVerified("graph.no_such_op(f32->f32){}", "npu-v1"));
}

namespace {
/// graph.abs over f32 and i32, one flag: four reachable cases.
const CaseSpace &absSpace() {
  static const CaseSpace s = [] {
    CaseSpace s;
    s.signatures = {{"T->T", {{"T", {"f32", "i32"}}}}};
    s.properties = {flagProperty("wide")};
    s.limitations = {{cond::operand(0, {"i32"}), "no reference yet"}};
    return s;
  }();
  return s;
}
} // namespace

TEST(OpSupport, MarkdownListsOpsCasesAndLevels) {
  std::vector<Evidence> e{
      {"graph.abs(f32->f32){wide}", "npu-v1", Level::Verified, "Abs", "node/test_abs"},
      {"graph.abs(f32->f32){!wide}", "npu-v1", Level::Reached, "Abs", "node/test_abs_i [NPUC-E0401]"},
      {kNoCase, "npu-v1", Level::Verified, "Constant", "node/test_c"}};
  std::string md = renderMarkdown(e, {{"", "Abs"}, {"", "Constant"}, {"", "Cos"}},
                                  {{"graph.abs", &absSpace()}}, {"npu-v1"});
  EXPECT_NE(md.find("| Abs | `graph.abs` | 1 of 2 cases reached verified |"), std::string::npos) << md;
  EXPECT_NE(md.find("| Constant | no case of its own (folded or fused) | folded in verified tests |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| Cos | imported; no test reached it | - |"), std::string::npos) << md;
  // Four reachable cases, one verified; the three others each with why.
  EXPECT_NE(md.find("| `graph.abs` | 1 of 4 verified |"), std::string::npos) << md;
  EXPECT_NE(md.find("Reachable cases verified: 1 of 4 on npu-v1."), std::string::npos) << md;
  EXPECT_NE(md.find("- `graph.abs(f32->f32){!wide}`: tests reached it on npu-v1 but none compiled"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("- `graph.abs(i32->i32){wide}`: not yet verifiable: no reference yet"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `graph.abs(f32->f32){!wide}` | Abs | reached: node/test_abs_i [NPUC-E0401] |"),
            std::string::npos)
      << md;
}

TEST(OpSupport, MarkdownNamesCasesOutsideTheSpace) {
  std::vector<Evidence> e{{"graph.abs(f16->f16){wide}", "npu-v1", Level::Verified, "Abs", "node/a"}};
  std::string md = renderMarkdown(e, {{"", "Abs"}}, {{"graph.abs", &absSpace()}}, {"npu-v1"});
  EXPECT_NE(md.find("outside the declared space"), std::string::npos) << md;
  EXPECT_NE(md.find("- `graph.abs(f16->f16){wide}`: its types (f16->f16) are not among the declared "
                    "signatures"),
            std::string::npos)
      << md;
}

TEST(OpSupport, CasesJsonListsEveryReachableCase) {
  std::vector<Evidence> e{{"graph.abs(f32->f32){wide}", "npu-v1", Level::Verified, "Abs", "node/a"}};
  EvidenceIndex index(e);
  std::string json = casesJson({{"graph.abs", &absSpace()}}, {"npu-v1", "npu-v1-tiny"}, index);
  size_t n = 0;
  for (size_t p = json.find("\"key\""); p != std::string::npos; p = json.find("\"key\"", p + 1))
    ++n;
  EXPECT_EQ(n, 8u) << json;
  EXPECT_NE(json.find("{\"target\": \"npu-v1\", \"key\": \"graph.abs(f32->f32){wide}\", \"op\": "
                      "\"graph.abs\", \"operands\": [\"f32\"], \"variadic\": false, \"results\": "
                      "[\"f32\"], \"props\": {\"wide\": true}, \"evidence\": \"verified\", "
                      "\"limitation\": null}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"key\": \"graph.abs(i32->i32){!wide}\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"limitation\": \"no reference yet\""), std::string::npos) << json;
}

TEST(OpSupport, MarkdownCountsTestsBeyondTheTable) {
  std::vector<Evidence> e{{"graph.abs(f32->f32){wide}", "npu-v1", Level::Verified, "Abs",
                           "node/a,node/b,node/c,node/d,node/e,+4 more"}};
  std::string md = renderMarkdown(e, {{"", "Abs"}}, {{"graph.abs", &absSpace()}}, {"npu-v1"});
  EXPECT_NE(md.find("verified: node/a, node/b, node/c (+6 more) |"), std::string::npos) << md;
}
