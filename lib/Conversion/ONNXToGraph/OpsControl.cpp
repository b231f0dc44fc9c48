//===- OpsControl.cpp - If, Loop and Scan, unrolled at import -------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// An NPU-v1 program is straight-line: control flow is resolved at import.
// - If: a condition that folds to a constant inlines the chosen branch; a
//   condition computed at run time imports both branches and selects each
//   output with a Where (both branches run: their cost is the sum of the two;
//   the outputs must have one shape).
// - Loop: the body unrolled, its trip count and condition constants (the
//   condition each iteration computes must fold); at most kMaxIterations.
// - Scan: the body unrolled over the scan axis (a static length), the state
//   carried from step to step, the scan outputs stacked.
// Each body is imported once per iteration with its inputs bound; its local
// names end with the iteration (docs/architecture.md, "Import").
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

using namespace mlir;
using namespace npuc::onnx_import;

FailureOr<std::vector<BodyValue>> npuc::onnx_import::importBody(NodeContext &c, const onnx::GraphProto &g,
                                                                ArrayRef<BodyValue> inputs) {
  if (size_t(g.input_size()) != inputs.size())
    return (void)c.fail(code::Structure, "the body has " + llvm::Twine(g.input_size()) + " inputs, " +
                                             llvm::Twine(inputs.size()) + " are bound"),
           failure();
  const std::map<std::string, Val> outer = c.imp.values;
  const std::map<std::string, std::vector<Val>> outerSequences = c.imp.sequences;
  auto dropLocals = [&] {
    c.imp.values = outer;
    c.imp.sequences = outerSequences;
  };
  for (auto [vi, v] : llvm::zip(g.input(), inputs)) {
    c.imp.values.erase(vi.name());
    c.imp.sequences.erase(vi.name());
    if (v.tensor)
      c.imp.values[vi.name()] = *v.tensor;
    else
      c.imp.sequences[vi.name()] = v.sequence;
  }
  for (const onnx::TensorProto &t : g.initializer()) {
    DenseElementsAttr data = c.imp.tensorData(t, &c.node);
    if (!data)
      return dropLocals(), failure();
    c.imp.values[t.name()] = c.constant(data);
  }
  size_t before = c.imp.issues.size();
  c.imp.importNodes(g);
  std::vector<BodyValue> results;
  for (const onnx::ValueInfoProto &o : g.output()) {
    auto it = c.imp.values.find(o.name());
    auto seq = c.imp.sequences.find(o.name());
    if (it == c.imp.values.end() && seq == c.imp.sequences.end()) {
      dropLocals();
      if (c.imp.issues.size() == before)
        (void)c.fail(code::Structure, "the body's output '" + o.name() + "' is not produced");
      return failure();
    }
    results.push_back(it != c.imp.values.end() ? BodyValue{it->second, {}} : BodyValue{std::nullopt, seq->second});
  }
  dropLocals();
  if (c.imp.issues.size() != before)
    return failure();
  return results;
}

namespace {
/// The most iterations a Loop or Scan is unrolled to.
constexpr int64_t kMaxIterations = 4096;

const onnx::GraphProto *graphAttr(NodeContext &c, StringRef name) {
  const onnx::AttributeProto *a = c.attr(name);
  if (!a || !a->has_g()) {
    (void)c.fail(code::UnsupportedAttr, "the '" + name + "' subgraph is missing");
    return nullptr;
  }
  return &a->g();
}

void setOutputs(NodeContext &c, ArrayRef<BodyValue> outs) {
  for (size_t i = 0; i < outs.size(); ++i) {
    if (outs[i].tensor)
      c.setOutput(i, *outs[i].tensor);
    else
      c.setSequenceOutput(i, outs[i].sequence);
  }
}

/// The single boolean or integer of a constant input, or nullopt (with no
/// diagnostic) when it is computed at run time.
std::optional<int64_t> constantScalar(NodeContext &c, size_t i) {
  std::optional<Val> v = c.input(i);
  if (!v || !v->constant || v->type().getNumElements() != 1 || !isa<IntegerType>(v->element()))
    return std::nullopt;
  APInt x = *v->constant.getValues<APInt>().begin();
  return v->element().isInteger(1) ? int64_t(x.getBoolValue()) : x.getSExtValue();
}

LogicalResult importIf(NodeContext &c) {
  std::optional<Val> cond = c.required(0);
  if (!cond)
    return failure();
  if (cond->type().getNumElements() != 1)
    return c.fail(code::ShapeMismatch, "cond must hold one value");
  const onnx::GraphProto *thenG = graphAttr(c, "then_branch"), *elseG = graphAttr(c, "else_branch");
  if (!thenG || !elseG)
    return failure();
  if (std::optional<int64_t> k = constantScalar(c, 0)) {
    FailureOr<std::vector<BodyValue>> outs = importBody(c, *k ? *thenG : *elseG, {});
    if (failed(outs))
      return failure();
    if (outs->size() != size_t(c.node.output_size()))
      return c.fail(code::Structure, "the branch has " + llvm::Twine(outs->size()) + " outputs, the If node " +
                                         llvm::Twine(c.node.output_size()));
    setOutputs(c, *outs);
    return success();
  }
  // A run-time condition: both branches, each output selected.
  if (!cond->element().isInteger(1))
    return c.fail(code::UnsupportedType, "cond must be a bool");
  FailureOr<std::vector<BodyValue>> thenOuts = importBody(c, *thenG, {});
  FailureOr<std::vector<BodyValue>> elseOuts = importBody(c, *elseG, {});
  if (failed(thenOuts) || failed(elseOuts))
    return failure();
  if (thenOuts->size() != size_t(c.node.output_size()) || elseOuts->size() != thenOuts->size())
    return c.fail(code::Structure, "the branches' outputs do not match the If node's");
  for (size_t i = 0; i < thenOuts->size(); ++i) {
    const BodyValue &t = (*thenOuts)[i], &e = (*elseOuts)[i];
    if (!t.tensor || !e.tensor)
      return c.fail(code::UnsupportedType, "an If on a condition computed at run time selects tensors, not "
                                           "sequences");
    if (t.tensor->type() != e.tensor->type())
      return c.fail(code::ShapeMismatch,
                    "output " + llvm::Twine(i) + " of an If on a condition computed at run time has another "
                    "shape or type in each branch; a static-shape program selects between equal shapes");
    Value v = cond->value;
    if (!cond->shape().empty()) {
      FailureOr<Value> r = c.build<graph::ReshapeOp>({v}, c.tensor({}, cond->element()));
      if (failed(r))
        return failure();
      v = *r;
    }
    FailureOr<Value> y = c.build<graph::WhereOp>({v, t.tensor->value, e.tensor->value}, t.tensor->type());
    if (failed(y))
      return failure();
    c.setOutput(i, *y);
  }
  return success();
}

/// The elements stacked along a new axis `axis` (reversed first when
/// `reverse`).
FailureOr<Value> stack(NodeContext &c, std::vector<Val> elements, int64_t axis, bool reverse) {
  if (reverse)
    std::reverse(elements.begin(), elements.end());
  SmallVector<Value> parts;
  SmallVector<int64_t> shape;
  for (const Val &v : elements) {
    SmallVector<int64_t> s(v.shape());
    if (axis < 0 || axis > int64_t(s.size()))
      return (void)c.fail(code::ShapeMismatch, "scan output axis " + llvm::Twine(axis) + " is out of range"),
             failure();
    s.insert(s.begin() + axis, 1);
    if (!shape.empty() && (v.element() != elements.front().element() || llvm::any_of(llvm::seq<size_t>(0, s.size()),
                                                                                      [&](size_t d) {
                                                                                        return int64_t(d) != axis &&
                                                                                               s[d] != shape[d];
                                                                                      })))
      return (void)c.fail(code::ShapeMismatch, "the iterations' scan outputs differ in shape"), failure();
    FailureOr<Value> r = c.build<graph::ReshapeOp>({v.value}, c.tensor(s, v.element()));
    if (failed(r))
      return failure();
    parts.push_back(*r);
    if (shape.empty())
      shape = s;
    else
      shape[size_t(axis)] += 1;
  }
  if (parts.size() == 1)
    return parts.front();
  return c.build<graph::ConcatOp>(parts, c.tensor(shape, elements.front().element()),
                                  {c.named("axis", c.b.getI64IntegerAttr(axis))});
}

/// Element `t` of `v` along `axis`, the axis dropped.
FailureOr<Val> sliceAt(NodeContext &c, const Val &v, int64_t axis, int64_t t) {
  FailureOr<Value> r = sliceAxis(c, v.value, axis, t, t + 1, 1, 1);
  if (failed(r))
    return failure();
  SmallVector<int64_t> s(v.shape());
  s.erase(s.begin() + axis);
  r = c.build<graph::ReshapeOp>({*r}, c.tensor(s, v.element()));
  if (failed(r))
    return failure();
  return Val{*r, {}};
}

LogicalResult importLoop(NodeContext &c) {
  const onnx::GraphProto *body = graphAttr(c, "body");
  if (!body)
    return failure();
  std::optional<Val> tripInput = c.input(0), condInput = c.input(1);
  std::optional<int64_t> trips = tripInput ? constantScalar(c, 0) : std::optional<int64_t>(kMaxIterations + 1);
  std::optional<int64_t> cond = condInput ? constantScalar(c, 1) : std::optional<int64_t>(1);
  // A trip count or condition computed at run time: the diagnostic names the
  // graph inputs to freeze (--bind-input) for the Loop to unroll.
  if (!trips) {
    (void)c.requiredConstant(0, "the trip count M, which an unrolled Loop needs");
    return failure();
  }
  if (!cond) {
    (void)c.requiredConstant(1, "the condition, which an unrolled Loop needs");
    return failure();
  }
  if (!tripInput && !condInput)
    return c.fail(code::Structure, "a Loop with neither a trip count nor a condition never ends");
  if (*trips > kMaxIterations && tripInput)
    return c.fail(code::Overflow, "trip count " + llvm::Twine(*trips) + " is past the " +
                                      llvm::Twine(kMaxIterations) + " iterations npuc unrolls");
  size_t carried = c.numInputs() > 2 ? c.numInputs() - 2 : 0;
  if (body->output_size() < int(carried) + 1)
    return c.fail(code::Structure, "the body has fewer outputs than the loop-carried values and the condition");
  size_t scans = size_t(body->output_size()) - 1 - carried;
  std::vector<BodyValue> state;
  for (size_t i = 0; i < carried; ++i) {
    if (std::optional<Val> v = c.input(2 + i))
      state.push_back({*v, {}});
    else if (auto seq = c.imp.sequences.find(c.node.input(int(2 + i))); seq != c.imp.sequences.end())
      state.push_back({std::nullopt, seq->second});
    else
      return c.fail(code::Structure, "loop-carried input " + llvm::Twine(i) + " is missing");
  }
  std::vector<std::vector<Val>> scanned(scans);
  auto i64 = c.tensor({}, c.b.getIntegerType(64));
  auto i1 = c.tensor({}, c.b.getIntegerType(1));
  int64_t it = 0;
  for (; it < *trips && *cond; ++it) {
    if (it >= kMaxIterations)
      return c.fail(code::Overflow, "the Loop runs past the " + llvm::Twine(kMaxIterations) +
                                        " iterations npuc unrolls");
    std::vector<BodyValue> in{{c.constant(DenseElementsAttr::get(i64, APInt(64, uint64_t(it)))), {}},
                              {c.constant(DenseElementsAttr::get(i1, APInt(1, 1))), {}}};
    in.insert(in.end(), state.begin(), state.end());
    FailureOr<std::vector<BodyValue>> out = importBody(c, *body, in);
    if (failed(out))
      return failure();
    const BodyValue &next = (*out)[0];
    if (!next.tensor || !next.tensor->constant || next.tensor->type().getNumElements() != 1)
      return c.fail(code::NotConstant, "iteration " + llvm::Twine(it) + "'s condition is computed at run time; "
                                       "a static NPU program unrolls a Loop whose condition folds to a constant");
    cond = int64_t((*next.tensor->constant.getValues<APInt>().begin()).getBoolValue());
    state.assign(out->begin() + 1, out->begin() + 1 + long(carried));
    for (size_t k = 0; k < scans; ++k) {
      const BodyValue &s = (*out)[1 + carried + k];
      if (!s.tensor)
        return c.fail(code::UnsupportedType, "a scan output is a sequence");
      scanned[k].push_back(*s.tensor);
    }
  }
  std::vector<BodyValue> outs(state);
  for (size_t k = 0; k < scans; ++k) {
    if (scanned[k].empty())
      return c.fail(code::ShapeMismatch, "the Loop runs no iteration: its scan outputs have no elements");
    FailureOr<Value> v = stack(c, scanned[k], 0, false);
    if (failed(v))
      return failure();
    outs.push_back({Val{*v, {}}, {}});
  }
  setOutputs(c, outs);
  return success();
}

/// Scan (opset 9 on): N state values then M scan inputs; the body runs once
/// per element along each scan input's axis (in its direction).
FailureOr<std::vector<Val>> runScan(NodeContext &c, const onnx::GraphProto &body, std::vector<Val> state,
                                    ArrayRef<Val> xs, ArrayRef<int64_t> inAxes, ArrayRef<int64_t> inDirs,
                                    ArrayRef<int64_t> outAxes, ArrayRef<int64_t> outDirs) {
  int64_t T = xs.empty() ? 0 : xs.front().shape()[size_t(inAxes[0])];
  for (auto [x, a] : llvm::zip(xs, inAxes))
    if (x.shape()[size_t(a)] != T)
      return (void)c.fail(code::ShapeMismatch, "the scan inputs differ in length"), failure();
  if (T > kMaxIterations)
    return (void)c.fail(code::Overflow, "a scan of " + llvm::Twine(T) + " steps is past the " +
                                            llvm::Twine(kMaxIterations) + " iterations npuc unrolls"),
           failure();
  if (T == 0)
    return (void)c.fail(code::ShapeMismatch, "a scan of no steps has empty scan outputs"), failure();
  size_t N = state.size(), K = size_t(body.output_size()) - N;
  std::vector<std::vector<Val>> scanned(K);
  for (int64_t t = 0; t < T; ++t) {
    std::vector<BodyValue> in;
    for (const Val &s : state)
      in.push_back({s, {}});
    for (size_t j = 0; j < xs.size(); ++j) {
      FailureOr<Val> e = sliceAt(c, xs[j], inAxes[j], inDirs[j] ? T - 1 - t : t);
      if (failed(e))
        return failure();
      in.push_back({*e, {}});
    }
    FailureOr<std::vector<BodyValue>> out = importBody(c, body, in);
    if (failed(out))
      return failure();
    for (const BodyValue &v : *out)
      if (!v.tensor)
        return (void)c.fail(code::UnsupportedType, "a Scan body's output is a sequence"), failure();
    for (size_t i = 0; i < N; ++i)
      state[i] = *(*out)[i].tensor;
    for (size_t k = 0; k < K; ++k)
      scanned[k].push_back(*(*out)[N + k].tensor);
  }
  std::vector<Val> results(state);
  for (size_t k = 0; k < K; ++k) {
    int64_t rank = int64_t(scanned[k].front().shape().size()) + 1;
    std::optional<int64_t> axis = c.axis(outAxes[k], rank, "scan_output_axes");
    if (!axis)
      return failure();
    FailureOr<Value> v = stack(c, scanned[k], *axis, outDirs[k] != 0);
    if (failed(v))
      return failure();
    results.push_back(Val{*v, {}});
  }
  return results;
}

LogicalResult importScan(NodeContext &c) {
  const onnx::GraphProto *body = graphAttr(c, "body");
  if (!body)
    return failure();
  std::optional<int64_t> m = c.sizeAttr("num_scan_inputs", 0, 1);
  if (!m)
    return failure();
  bool batched = c.opset < 9;  // Scan-8: a sequence_lens input, then a batch axis
  size_t first = batched ? 1 : 0;
  if (batched && c.input(0))
    return c.fail(code::UnsupportedAttr, "sequence_lens is not supported; every batch scans the whole length");
  if (c.numInputs() < first + size_t(*m))
    return c.fail(code::Structure, "fewer inputs than num_scan_inputs");
  size_t N = c.numInputs() - first - size_t(*m);
  if (body->output_size() < int(N))
    return c.fail(code::Structure, "the body has fewer outputs than state values");
  size_t K = size_t(body->output_size()) - N;
  std::vector<Val> state, xs;
  for (size_t i = 0; i < N + size_t(*m); ++i) {
    std::optional<Val> v = c.required(first + i);
    if (!v)
      return failure();
    (i < N ? state : xs).push_back(*v);
  }
  auto list = [&](StringRef name, size_t n) {
    std::vector<int64_t> v = c.intsAttr(name).value_or(std::vector<int64_t>(n, 0));
    return v.size() == n ? std::optional<std::vector<int64_t>>(v) : std::nullopt;
  };
  auto inDirs = list(batched ? "directions" : "scan_input_directions", size_t(*m));
  auto inAxes = list("scan_input_axes", size_t(*m)), outAxes = list("scan_output_axes", K),
       outDirs = list("scan_output_directions", K);
  if (!inDirs || !inAxes || !outAxes || !outDirs)
    return c.fail(code::UnsupportedAttr, "a scan axes or directions list has the wrong length");
  for (size_t j = 0; j < xs.size(); ++j) {
    std::optional<int64_t> a = c.axis((*inAxes)[j], int64_t(xs[j].shape().size()), "scan_input_axes");
    if (!a)
      return failure();
    (*inAxes)[j] = *a;
  }
  if (!batched) {
    FailureOr<std::vector<Val>> r = runScan(c, *body, state, xs, *inAxes, *inDirs, *outAxes, *outDirs);
    if (failed(r))
      return failure();
    for (size_t i = 0; i < r->size(); ++i)
      c.setOutput(i, (*r)[i]);
    return success();
  }
  // Scan-8: every batch element scans along axis 1 of its inputs with its
  // own state; the results are stacked along the batch axis.
  int64_t B = xs.front().shape().empty() ? 0 : xs.front().shape()[0];
  std::vector<std::vector<Val>> perBatch(N + K);
  for (int64_t b = 0; b < B; ++b) {
    std::vector<Val> sb, xb;
    for (const Val &s : state) {
      FailureOr<Val> e = sliceAt(c, s, 0, b);
      if (failed(e))
        return failure();
      sb.push_back(*e);
    }
    for (const Val &x : xs) {
      FailureOr<Val> e = sliceAt(c, x, 0, b);
      if (failed(e))
        return failure();
      xb.push_back(*e);
    }
    FailureOr<std::vector<Val>> r =
        runScan(c, *body, sb, xb, std::vector<int64_t>(xs.size(), 0), *inDirs, *outAxes, *outDirs);
    if (failed(r))
      return failure();
    for (size_t i = 0; i < r->size(); ++i)
      perBatch[i].push_back((*r)[i]);
  }
  for (size_t i = 0; i < perBatch.size(); ++i) {
    if (perBatch[i].empty())
      return c.fail(code::ShapeMismatch, "a Scan over a batch of 0");
    FailureOr<Value> v = stack(c, perBatch[i], 0, false);
    if (failed(v))
      return failure();
    c.setOutput(i, *v);
  }
  return success();
}
} // namespace

void npuc::onnx_import::registerControlOps(llvm::StringMap<OpImporter> &t) {
  t["If"] = importIf;
  t["Loop"] = importLoop;
  t["Scan"] = importScan;
}
