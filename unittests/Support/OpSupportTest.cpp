//===- OpSupportTest.cpp - The op evidence table --------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Support/OpSupport.h"

#include <gtest/gtest.h>

using namespace npuc::support;

TEST(OpSupport, ParsesAndFormatsTheTable) {
  std::string text = "# comment\n"
                     "Conv-11(float,float,float){group=1,pads}\tnpu-v1\tverified\tnode/test_a,node/test_b\n"
                     "Gather-13(float,int64){axis}\tnpu-v1\timported\tnode/test_g [NPUC-E0401]\n";
  std::vector<Evidence> e;
  std::string error;
  ASSERT_TRUE(parseEvidence(text, e, error)) << error;
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].key, "Conv-11(float,float,float){group=1,pads}");
  EXPECT_EQ(e[0].target, "npu-v1");
  EXPECT_EQ(e[0].level, Level::Verified);
  EXPECT_EQ(e[1].level, Level::Imported);
  EXPECT_EQ(e[1].tests, "node/test_g [NPUC-E0401]");
  // Formatting and parsing again gives the same table.
  std::vector<Evidence> again;
  ASSERT_TRUE(parseEvidence(formatEvidence(e), again, error)) << error;
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[1].key, e[1].key);
  EXPECT_EQ(again[1].tests, e[1].tests);
}

TEST(OpSupport, RejectsBadLines) {
  std::vector<Evidence> e;
  std::string error;
  EXPECT_FALSE(parseEvidence("Conv-11(float){}\tnpu-v1\tproven\tx\n", e, error));
  EXPECT_NE(error.find("line 1"), std::string::npos) << error;
  EXPECT_FALSE(parseEvidence("Conv-11(float){}\tnpu-v1\n", e, error));
}

TEST(OpSupport, KeyOpKeepsTheDomain) {
  EXPECT_EQ(keyOp("Conv-11(float,float){group=1}"), "Conv");
  EXPECT_EQ(keyOp("com.microsoft.QLinearAdd-1(int8,float){}"), "com.microsoft.QLinearAdd");
}

// The compiled-in table parses (a bad table would leave it empty); every
// verified entry answers isVerified on its own target only.
TEST(OpSupport, CompiledInTable) {
  ASSERT_FALSE(evidence().empty());
  size_t verified = 0;
  for (const Evidence &e : evidence()) {
    if (e.level != Level::Verified)
      continue;
    ++verified;
    EXPECT_TRUE(isVerified(e.key, e.target)) << e.key;
    EXPECT_FALSE(isVerified(e.key, "no-such-target")) << e.key;
  }
  EXPECT_GT(verified, 0u);
  EXPECT_FALSE(isVerified("NoSuchOp-1(float){}", "npu-v1"));
}

TEST(OpSupport, MarkdownNamesUnexercisedOpsAndLevels) {
  std::vector<Evidence> e{
      {"Abs-13(float){}", "npu-v1", Level::Verified, "node/test_abs"},
      {"Abs-13(int32){}", "npu-v1", Level::Imported, "node/test_abs_i [NPUC-E0401]"}};
  std::string md = renderMarkdown(e, {{"", "Abs"}, {"", "Cos"}});
  EXPECT_NE(md.find("| Abs | 1 of 2 | 1 | 1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| Cos | - | - | imported; no test exercises it |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `Abs-13(int32){}` | imported: node/test_abs_i [NPUC-E0401] |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("Verified: versions 13; input types (float); attributes {(none)}."),
            std::string::npos)
      << md;
}

TEST(OpSupport, MarkdownCountsTestsBeyondTheTable) {
  std::vector<Evidence> e{{"Abs-13(float){}", "npu-v1", Level::Verified,
                           "node/a,node/b,node/c,node/d,node/e,+4 more"}};
  std::string md = renderMarkdown(e, {{"", "Abs"}});
  EXPECT_NE(md.find("verified: node/a, node/b, node/c (+6 more) |"), std::string::npos) << md;
}
