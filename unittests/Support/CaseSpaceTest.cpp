//===- CaseSpaceTest.cpp - The declared space of lowering cases -----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Support/CaseSpace.h"

#include <gtest/gtest.h>

using namespace npuc::support;

namespace {
std::vector<std::string> keys(const std::vector<CasePoint> &points) {
  std::vector<std::string> out;
  for (const CasePoint &p : points)
    out.push_back(p.key());
  return out;
}

/// A convolution-like space: two signatures (with and without a bias), a
/// choice, a flag, a conditional choice, and a rule tying the bias flag to
/// the operands.
CaseSpace convLike() {
  CaseSpace s;
  s.signatures = {{"T,T->T", {{"T", {"f32", "f16"}}}}, {"f32,f32,f32->f32"}};
  s.properties = {choiceProperty("kind", {"dense", "depthwise"}), flagProperty("padded"),
                  choiceProperty("window", {"1x1", "kxk"}, cond::choice("kind", {"dense"})),
                  flagProperty("bias")};
  s.rules = {never(cond::any({cond::all({cond::flag("bias"), cond::operandCount(2)}),
                              cond::all({cond::flag("bias", false), cond::operandCount(3)})}),
                   "bias is the third operand"),
             refused(cond::all({cond::operand(0, {"f16"}), cond::choice("kind", {"depthwise"})}),
                     "no f16 depthwise yet")};
  return s;
}
} // namespace

TEST(CaseSpace, KeysRoundTrip) {
  for (const char *key : {"graph.conv(f32,f32,f32->f32){kind=dense,!padded,window=1x1,bias}",
                          "graph.concat(qi8,qui8...->qui8){requantize}", "graph.abs(f32->f32){}",
                          "graph.layer_norm(f32,f32->f32,f32,f32){!bias,mean,!inv-std-dev}"}) {
    CasePoint p;
    std::string error;
    ASSERT_TRUE(parseCaseKey(key, p, error)) << error;
    EXPECT_EQ(p.key(), key);
  }
  CasePoint p;
  std::string error;
  ASSERT_TRUE(parseCaseKey("graph.concat(qi8,qui8...->qui8){requantize}", p, error));
  EXPECT_TRUE(p.variadic);
  EXPECT_EQ(p.operands, (std::vector<std::string>{"qi8", "qui8"}));
  EXPECT_TRUE(p.is("requantize"));
  EXPECT_FALSE(parseCaseKey("graph.abs", p, error));
  EXPECT_FALSE(parseCaseKey("graph.abs(f32){}", p, error));
}

TEST(CaseSpace, SignaturesExpandTheirVariables) {
  TypeSignature sig("A,B->A", {{"A", {"qi8", "qui8"}}, {"B", {"i32", "i64"}}});
  auto all = sig.expand();
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].first, (std::vector<std::string>{"qi8", "i32"}));
  EXPECT_EQ(all[0].second, (std::vector<std::string>{"qi8"}));
  TypeSignature variadic("T...->T", {{"T", {"f32"}}});
  EXPECT_TRUE(variadic.variadic);
  EXPECT_EQ(variadic.expand().size(), 1u);
}

TEST(CaseSpace, EnumeratesTheProductLessItsRules) {
  // Hand count: no bias, f32: dense (2 padded x 2 windows) + depthwise (2)
  // = 6; no bias, f16: dense only (depthwise refused) = 4; bias, f32: 6.
  std::vector<std::string> k = keys(convLike().enumerate("graph.conv", "npu-v1"));
  EXPECT_EQ(k.size(), 16u);
  auto has = [&](const std::string &key) { return std::find(k.begin(), k.end(), key) != k.end(); };
  EXPECT_TRUE(has("graph.conv(f32,f32->f32){kind=dense,padded,window=1x1,!bias}"));
  EXPECT_TRUE(has("graph.conv(f32,f32,f32->f32){kind=depthwise,!padded,bias}"));
  EXPECT_TRUE(has("graph.conv(f16,f16->f16){kind=dense,!padded,window=kxk,!bias}"));
  EXPECT_FALSE(has("graph.conv(f16,f16->f16){kind=depthwise,!padded,!bias}"));
  EXPECT_FALSE(has("graph.conv(f32,f32->f32){kind=dense,padded,window=1x1,bias}"));
  // A stable order: sorted by key, each once.
  EXPECT_TRUE(std::is_sorted(k.begin(), k.end()));
  EXPECT_EQ(std::adjacent_find(k.begin(), k.end()), k.end());
}

TEST(CaseSpace, ContainsSaysWhyNot) {
  CaseSpace s = convLike();
  auto check = [&](const char *key, std::string &why) {
    CasePoint p;
    std::string error;
    EXPECT_TRUE(parseCaseKey(key, p, error)) << error;
    p.target = "npu-v1";
    return s.contains(p, why);
  };
  std::string why;
  EXPECT_TRUE(check("graph.conv(f32,f32->f32){kind=dense,padded,window=1x1,!bias}", why)) << why;
  EXPECT_FALSE(check("graph.conv(i8,i8->i8){kind=dense,padded,window=1x1,!bias}", why));
  EXPECT_NE(why.find("not among the declared signatures"), std::string::npos) << why;
  EXPECT_FALSE(check("graph.conv(f32,f32->f32){kind=grouped,padded,window=1x1,!bias}", why));
  EXPECT_NE(why.find("'kind' has the undeclared value 'grouped'"), std::string::npos) << why;
  // window is recorded for a dense kind only.
  EXPECT_FALSE(check("graph.conv(f32,f32->f32){kind=depthwise,padded,window=1x1,!bias}", why));
  EXPECT_NE(why.find("'bias' is declared here, but the case records 'window'"), std::string::npos)
      << why;
  EXPECT_FALSE(check("graph.conv(f32,f32->f32){kind=dense,padded,window=1x1,!bias,extra}", why));
  EXPECT_NE(why.find("'extra' is not declared"), std::string::npos) << why;
  EXPECT_FALSE(check("graph.conv(f32,f32->f32){kind=dense,padded,window=1x1,bias}", why));
  EXPECT_NE(why.find("declared impossible"), std::string::npos) << why;
  EXPECT_FALSE(check("graph.conv(f16,f16->f16){kind=depthwise,padded,!bias}", why));
  EXPECT_NE(why.find("declared refused"), std::string::npos) << why;
  EXPECT_NE(why.find("no f16 depthwise yet"), std::string::npos) << why;
}

TEST(CaseSpace, SignaturesMayNameTheirOps) {
  CaseSpace s;
  s.signatures = {{"T,T->T", {{"T", {"f32"}}}}, {"T,T->T", {{"T", {"ui8"}}}, {"graph.shift_left"}}};
  EXPECT_EQ(s.enumerate("graph.add", "npu-v1").size(), 1u);
  EXPECT_EQ(s.enumerate("graph.shift_left", "npu-v1").size(), 2u);
  CasePoint p;
  std::string why;
  ASSERT_TRUE(parseCaseKey("graph.add(ui8,ui8->ui8){}", p, why));
  EXPECT_FALSE(s.contains(p, why));
}

TEST(CaseSpace, DescribesItself) {
  std::string d = convLike().describe();
  EXPECT_NE(d.find("`T,T->T` with T in {f32, f16}"), std::string::npos) << d;
  EXPECT_NE(d.find("`window` = 1x1|kxk (where kind = dense)"), std::string::npos) << d;
  EXPECT_NE(d.find("- Impossible where (bias and 2 operands) or (!bias and 3 operands): bias is the "
                   "third operand"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("- Refused where operand 0 f16 and kind = depthwise: no f16 depthwise yet"),
            std::string::npos)
      << d;
}
