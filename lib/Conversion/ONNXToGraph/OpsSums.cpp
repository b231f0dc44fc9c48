//===- OpsSums.cpp - CumSum and Einsum as graph compositions ---------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// CumSum is a scan of log2(L) steps (Hillis and Steele): the running sums
// plus themselves moved 1, 2, 4, ... places along the axis, zeros moved in;
// an integer scan is exact (wrapping as ONNX's does), a float one adds in a
// tree order instead of left to right (docs/numerics.md, "CumSum"). CumProd
// is the same scan of products, ones moved in.
//
// Einsum takes each operand's diagonals (a repeated label: the two axes
// flattened, every (n+1)-th element), sums the labels no one else needs,
// then contracts the operands left to right as batched MatMuls ([batch, M,
// K] x [batch, K, N], the labels each side keeps as M and N) and transposes
// the result to the output's label order.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>

using namespace mlir;
using namespace npuc::onnx_import;

Value OpChain::transpose(Value v, ArrayRef<int64_t> perm) {
  if (!ok)
    return {};
  SmallVector<int64_t> identity(perm.size());
  std::iota(identity.begin(), identity.end(), 0);
  if (llvm::equal(perm, identity))
    return v;
  auto t = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(t.getDimSize(p));
  return op<graph::TransposeOp>({v}, t.clone(shape), {c.named("perm", c.b.getDenseI64ArrayAttr(perm))});
}

Value OpChain::sum(Value v, ArrayRef<int64_t> axes) {
  if (!ok || axes.empty())
    return v;
  auto t = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < t.getRank(); ++d)
    if (!llvm::is_contained(axes, d))
      shape.push_back(t.getDimSize(d));
  return op<graph::ReduceSumOp>({v}, t.clone(shape),
                                {c.named("axes", c.b.getDenseI64ArrayAttr(axes)),
                                 c.named("keepdims", c.b.getBoolAttr(false))});
}

namespace {
/// CumSum (opset 11, 14) and CumProd (opset 26) along a constant axis:
/// exclusive moves the input one place first; reverse runs from the end.
/// The scan moves in the op's identity (0, or 1 for CumProd).
LogicalResult importCumulative(NodeContext &c) {
  bool product = c.node.op_type() == "CumProd";
  const char *name = product ? "CumProd" : "CumSum";
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  auto axes = c.constantInts(1, "axis");
  if (!axes)
    return failure();
  int64_t rank = int64_t(x->shape().size());
  if (axes->size() != 1 || rank == 0)
    return c.fail(code::ShapeMismatch, llvm::Twine(name) + " needs one axis and an input of rank 1 or more, got " +
                                           llvm::Twine(axes->size()) + " axis values and rank " +
                                           llvm::Twine(rank));
  int64_t axis = axes->front();
  if (axis < -rank || axis >= rank)
    return c.fail(code::ShapeMismatch, llvm::Twine(name) + " axis " + llvm::Twine(axis) + " is outside [" +
                                           llvm::Twine(-rank) + ", " + llvm::Twine(rank - 1) + "]");
  axis = axis < 0 ? axis + rank : axis;
  if (isa<quant::QuantizedType>(x->element()))
    return c.fail(code::UnsupportedType, llvm::Twine(name) + " of a quantized tensor is not supported");
  bool reverse = c.intAttr("reverse", 0) != 0;
  int64_t L = x->shape()[size_t(axis)];
  OpChain b{c};
  // `v` moved d places toward the end (toward the front when reverse), d
  // identities moved in (a constant: a shift can be longer than a pad's
  // range).
  auto moved = [&](Value v, int64_t d) {
    if (!b.ok)
      return Value();
    SmallVector<int64_t> zs(x->shape());
    zs[size_t(axis)] = d;
    auto zt = c.tensor(zs, x->element());
    int64_t identity = product ? 1 : 0;
    Attribute fill = isa<FloatType>(x->element()) ? Attribute(c.b.getFloatAttr(x->element(), double(identity)))
                                                  : Attribute(c.b.getIntegerAttr(x->element(), identity));
    Value zeros = c.constant(DenseElementsAttr::get(zt, fill)).value;
    Value kept = reverse ? b.slice(v, axis, d, L) : b.slice(v, axis, 0, L - d);
    if (!b.ok)
      return Value();
    FailureOr<Value> r = reverse ? concatAxis(c, {kept, zeros}, axis) : concatAxis(c, {zeros, kept}, axis);
    return succeeded(r) ? *r : b.fail();
  };
  Value y = x->value;
  // An exclusive scan of one element is the identity: x * 0 (+ 1).
  if (c.intAttr("exclusive", 0) != 0 && L > 1)
    y = moved(y, 1);
  else if (c.intAttr("exclusive", 0) != 0) {
    y = b.op<graph::MulOp>({y, b.splat(x->element(), 0)}, y.getType());
    if (product)
      y = b.op<graph::AddOp>({y, b.splat(x->element(), 1)}, y.getType());
  }
  for (int64_t d = 1; d < L; d *= 2)
    y = product ? b.op<graph::MulOp>({y, moved(y, d)}, y.getType())
                : b.op<graph::AddOp>({y, moved(y, d)}, y.getType());
  return b.finish(y);
}

/// One Einsum operand or result: its labels, one per axis.
using Labels = std::vector<char>;

/// The most operands an Einsum is contracted over.
constexpr size_t kMaxEinsumOperands = 8;

struct Equation {
  std::vector<Labels> inputs;
  Labels output;
};

/// Parses `text` for operands of `ranks`; an ellipsis stands for the
/// leading axes no label names, given the labels '0'..'9' right-aligned
/// across operands. Reports and returns nullopt when it does not parse.
std::optional<Equation> parseEquation(NodeContext &c, std::string text, ArrayRef<int64_t> ranks) {
  text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
  auto bad = [&](const llvm::Twine &why) {
    (void)c.fail(code::UnsupportedAttr, "Einsum equation '" + text + "': " + why);
    return std::nullopt;
  };
  size_t arrow = text.find("->");
  std::string lhs = text.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma - start));
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (terms.size() != ranks.size())
    return bad(llvm::Twine(terms.size()) + " operand terms for " + llvm::Twine(ranks.size()) + " inputs");
  // Each term's named labels and how many axes its ellipsis covers.
  Equation eq;
  std::vector<std::string> named(terms.size());
  std::vector<size_t> dotsAt(terms.size());
  std::vector<int64_t> extra(terms.size());
  int64_t ellipsisRank = 0;
  for (size_t k = 0; k < terms.size(); ++k) {
    dotsAt[k] = terms[k].find("...");
    named[k] = terms[k];
    if (dotsAt[k] != std::string::npos)
      named[k].erase(dotsAt[k], 3);
    extra[k] = ranks[k] - int64_t(named[k].size());
    bool letters = llvm::all_of(named[k], [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)); });
    if (!letters || extra[k] < 0 || (dotsAt[k] == std::string::npos && extra[k] != 0) || extra[k] > 10)
      return bad("operand " + llvm::Twine(k) + " '" + terms[k] + "' does not match its rank " +
                 llvm::Twine(ranks[k]));
    ellipsisRank = std::max(ellipsisRank, extra[k]);
  }
  // Ellipsis axes are labelled '0'.. right-aligned, as broadcasting aligns
  // them.
  for (size_t k = 0; k < terms.size(); ++k) {
    Labels l;
    for (size_t i = 0; i <= named[k].size(); ++i) {
      if (i == dotsAt[k])
        for (int64_t e = 0; e < extra[k]; ++e)
          l.push_back(char('0' + ellipsisRank - extra[k] + e));
      if (i < named[k].size())
        l.push_back(named[k][i]);
    }
    eq.inputs.push_back(l);
  }
  std::map<char, int> count;
  for (const Labels &l : eq.inputs)
    for (char ch : l)
      ++count[ch];
  if (arrow == std::string::npos) {
    for (int64_t i = 0; i < ellipsisRank; ++i)
      eq.output.push_back(char('0' + i));
    for (auto [ch, n] : count)
      if (std::isalpha(static_cast<unsigned char>(ch)) && n == 1)
        eq.output.push_back(ch);
  } else {
    std::string rhs = text.substr(arrow + 2);
    size_t dots = rhs.find("...");
    for (size_t i = 0; i < rhs.size(); ++i) {
      if (i == dots) {
        for (int64_t e = 0; e < ellipsisRank; ++e)
          eq.output.push_back(char('0' + e));
        i += 2;
        continue;
      }
      char ch = rhs[i];
      if (!std::isalpha(static_cast<unsigned char>(ch)) || !count.count(ch) ||
          llvm::is_contained(eq.output, ch))
        return bad("output label '" + llvm::Twine(ch) + "' is not an input's label, or is repeated");
      eq.output.push_back(ch);
    }
  }
  return eq;
}

/// An operand as it is contracted: its value and its labels.
struct Term {
  Value value;
  Labels labels;
};

/// `t` with each repeated label's diagonal taken: the two axes moved to
/// the end, flattened, every (n+1)-th element kept.
Term diagonals(OpChain &b, Term t) {
  for (size_t i = 0; i < t.labels.size() && b.ok; ++i)
    for (size_t j = i + 1; j < t.labels.size() && b.ok; ++j) {
      if (t.labels[i] != t.labels[j])
        continue;
      auto type = cast<RankedTensorType>(t.value.getType());
      int64_t n = type.getDimSize(int64_t(i));
      SmallVector<int64_t> perm;
      Labels rest;
      for (size_t d = 0; d < t.labels.size(); ++d)
        if (d != i && d != j) {
          perm.push_back(int64_t(d));
          rest.push_back(t.labels[d]);
        }
      perm.append({int64_t(i), int64_t(j)});
      Value v = b.transpose(t.value, perm);
      SmallVector<int64_t> shape;
      for (size_t d = 0; d + 2 < perm.size(); ++d)
        shape.push_back(type.getDimSize(perm[d]));
      int64_t lead = int64_t(shape.size());
      shape.push_back(n * n);
      v = b.reshape(v, shape);
      if (!b.ok)
        return t;
      FailureOr<Value> diag = sliceAxis(b.c, v, lead, 0, n * n, n + 1, n);
      if (failed(diag)) {
        b.fail();
        return t;
      }
      rest.push_back(t.labels[i]);
      t = {*diag, rest};
      i = size_t(-1);  // start over: the labels moved
      break;
    }
  return t;
}

/// Sums the labels of `t` that neither `keep` nor another operand has.
Term sumAway(OpChain &b, Term t, const std::map<char, int> &elsewhere, const Labels &keep) {
  SmallVector<int64_t> axes;
  Labels rest;
  for (size_t d = 0; d < t.labels.size(); ++d) {
    char ch = t.labels[d];
    if (!llvm::is_contained(keep, ch) && !elsewhere.count(ch))
      axes.push_back(int64_t(d));
    else
      rest.push_back(ch);
  }
  return {b.sum(t.value, axes), rest};
}

/// a x b over their shared labels that `later` does not need: batch labels
/// (shared, needed later), then a's own, then b's own.
Term contract(OpChain &b, const Term &a, const Term &bt, const Labels &later) {
  auto sizeOf = [&](const Term &t, char ch) {
    auto it = llvm::find(t.labels, ch);
    return cast<RankedTensorType>(t.value.getType()).getDimSize(it - t.labels.begin());
  };
  Labels batch, left, right, inner;
  for (char ch : a.labels) {
    bool shared = llvm::is_contained(bt.labels, ch);
    (shared ? (llvm::is_contained(later, ch) ? batch : inner) : left).push_back(ch);
  }
  for (char ch : bt.labels)
    if (!llvm::is_contained(a.labels, ch))
      right.push_back(ch);
  auto arrange = [&](const Term &t, const Labels &g1, const Labels &g2, const Labels &g3) {
    SmallVector<int64_t> perm;
    for (const Labels *g : {&g1, &g2, &g3})
      for (char ch : *g)
        perm.push_back(llvm::find(t.labels, ch) - t.labels.begin());
    int64_t p1 = 1, p2 = 1, p3 = 1;
    for (char ch : g1) p1 *= sizeOf(t, ch);
    for (char ch : g2) p2 *= sizeOf(t, ch);
    for (char ch : g3) p3 *= sizeOf(t, ch);
    return b.reshape(b.transpose(t.value, perm), {p1, p2, p3});
  };
  Value lhs = arrange(a, batch, left, inner), rhs = arrange(bt, batch, inner, right);
  if (!b.ok)
    return a;
  auto lt = cast<RankedTensorType>(lhs.getType()), rt = cast<RankedTensorType>(rhs.getType());
  Value product = b.op<graph::MatMulOp>(
      {lhs, rhs}, lt.clone({lt.getDimSize(0), lt.getDimSize(1), rt.getDimSize(2)}));
  Term out;
  SmallVector<int64_t> shape;
  for (const Labels *g : {&batch, &left})
    for (char ch : *g) {
      out.labels.push_back(ch);
      shape.push_back(sizeOf(a, ch));
    }
  for (char ch : right) {
    out.labels.push_back(ch);
    shape.push_back(sizeOf(bt, ch));
  }
  out.value = b.reshape(product, shape);
  return out;
}

LogicalResult importEinsum(NodeContext &c) {
  size_t n = c.numInputs();
  if (n == 0 || n > kMaxEinsumOperands)
    return c.fail(code::ShapeMismatch, "Einsum of " + llvm::Twine(n) + " operands is not supported (1 to " +
                                           llvm::Twine(kMaxEinsumOperands) + ")");
  std::vector<Term> terms;
  SmallVector<int64_t> ranks;
  for (size_t k = 0; k < n; ++k) {
    std::optional<Val> v = c.required(k);
    if (!v)
      return failure();
    if (isa<quant::QuantizedType>(v->element()))
      return c.fail(code::UnsupportedType, "Einsum of quantized tensors is not supported");
    terms.push_back({v->value, {}});
    ranks.push_back(int64_t(v->shape().size()));
  }
  std::optional<Equation> eq = parseEquation(c, c.stringAttr("equation", ""), ranks);
  if (!eq)
    return failure();
  // One size per label (broadcasting a size-1 ellipsis axis is not built).
  std::map<char, int64_t> sizes;
  for (size_t k = 0; k < n; ++k) {
    terms[k].labels = eq->inputs[k];
    auto shape = cast<RankedTensorType>(terms[k].value.getType()).getShape();
    for (size_t d = 0; d < shape.size(); ++d) {
      char ch = eq->inputs[k][d];
      auto [it, fresh] = sizes.insert({ch, shape[d]});
      if (!fresh && it->second != shape[d])
        return c.fail(code::ShapeMismatch,
                      "Einsum label '" + llvm::Twine(std::isdigit(ch) ? '.' : ch) + "' has sizes " +
                          llvm::Twine(it->second) + " and " + llvm::Twine(shape[d]) +
                          (std::isdigit(ch) ? " (an ellipsis axis; broadcasting it is not supported)" : ""));
    }
  }
  OpChain b{c};
  // Each operand: its diagonals, then the labels only it has and the output
  // does not.
  for (size_t k = 0; k < n; ++k) {
    std::map<char, int> elsewhere;
    for (size_t o = 0; o < n; ++o)
      if (o != k)
        for (char ch : eq->inputs[o])
          ++elsewhere[ch];
    terms[k] = sumAway(b, diagonals(b, terms[k]), elsewhere, eq->output);
  }
  Term acc = terms[0];
  for (size_t k = 1; k < n && b.ok; ++k) {
    Labels later = eq->output;
    for (size_t o = k + 1; o < n; ++o)
      later.insert(later.end(), terms[o].labels.begin(), terms[o].labels.end());
    acc = contract(b, acc, terms[k], later);
  }
  if (!b.ok)
    return failure();
  // The output's order (a label the last contraction left alone is summed).
  std::map<char, int> none;
  acc = sumAway(b, acc, none, eq->output);
  SmallVector<int64_t> perm;
  for (char ch : eq->output)
    perm.push_back(llvm::find(acc.labels, ch) - acc.labels.begin());
  Value y = b.transpose(acc.value, perm);
  return b.finish(y);
}
} // namespace

void npuc::onnx_import::registerSumOps(llvm::StringMap<OpImporter> &t) {
  t["CumSum"] = importCumulative;
  t["CumProd"] = importCumulative;
  t["Einsum"] = importEinsum;
}
