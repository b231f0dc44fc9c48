//===- ReduceKernels.cpp - Reductions, Softmax and pooling on VECTOR ------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The kernels that combine elements along axes or windows: reductions
// (rows or columns, one or two passes), Softmax and LogSoftmax, and max and
// average pooling on V_DW (docs/architecture.md, "The backend").
//
//===----------------------------------------------------------------------===//

#include "KernelPattern.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

// The selectors, case spaces and plans of this file's patterns.
namespace npuc::emit::lowering {
LogicalResult selectSoftmax(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &softmaxSpace();
LogicalResult selectPool(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &poolSpace();
LogicalResult selectReduce(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &reduceSpace();
LogicalResult planReduce(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
LogicalResult planSoftmax(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
} // namespace npuc::emit::lowering

namespace {

/// qk.softmax: row loops of max, exp, sum and divide.
struct SoftmaxPattern : OpKernelPattern<qk::SoftmaxOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectSoftmax;
  static constexpr SpaceOf space = softmaxSpace;
  static constexpr PlanFn plan = planSoftmax;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.pool: V_DW windows (MAX or SUM).
struct PoolPattern : OpKernelPattern<qk::PoolOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectPool;
  static constexpr SpaceOf space = poolSpace;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.reduce: VECTOR reductions with the steps ONNX puts around a SUM.
struct ReducePattern : OpKernelPattern<qk::ReduceOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectReduce;
  static constexpr SpaceOf space = reduceSpace;
  static constexpr PlanFn plan = planReduce;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

} // namespace

void lowering::populateReducePatterns(KernelPatterns &patterns) {
  patterns.add<SoftmaxPattern, PoolPattern, ReducePattern>();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

namespace {
// qk.reduce's function and VECTOR's are one ISA enum (ISA_ReduceFuncCases).
static_assert(int(qk::ReduceFn::SUM) == int(ReduceFunc::SUM) &&
                  int(qk::ReduceFn::MAX) == int(ReduceFunc::MAX) &&
                  int(qk::ReduceFn::MIN) == int(ReduceFunc::MIN),
              "qk.reduce's functions are VECTOR's, numbered alike");

/// What a qk.reduce computes: its input, the contiguous block of axes it
/// reduces, the VECTOR function, and the elementwise steps before (|x|,
/// x * x, exp(x - max) with the max of the same elements, stable for any
/// input range) and after it (/ count, sqrt, log, log then + max).
struct ReduceSpec {
  using Pre = qk::ReducePre;
  using Post = qk::ReducePost;
  Value input, result;
  SmallVector<int64_t> axes;
  ReduceFunc func = ReduceFunc::SUM;
  Pre pre = Pre::None;
  Post post = Post::None;
  /// outer x r x inner, r the reduced elements per output.
  int64_t outer = 1, r = 1, inner = 1;
};

ReduceSpec reduceSpec(qk::ReduceOp op) {
  ReduceSpec s;
  s.input = op.getInput();
  s.result = op.getResult();
  s.axes.assign(op.getAxes().begin(), op.getAxes().end());
  s.func = ReduceFunc(op.getFn());
  s.pre = op.getPre();
  s.post = op.getPost();
  ArrayRef<int64_t> shape = tensorOf(s.input).getShape();
  if (!s.axes.empty())
    for (size_t i = 0; i < shape.size(); ++i)
      (int64_t(i) < s.axes.front() ? s.outer : int64_t(i) > s.axes.back() ? s.inner : s.r) *=
          shape[i];
  return s;
}

/// VECTOR passes over the elements before the reduction: one for |x| or
/// x * x, three for the max, the subtraction and exp.
int64_t prePasses(const ReduceSpec &s) {
  return s.pre == ReduceSpec::Pre::None ? 0 : s.pre == ReduceSpec::Pre::ShiftedExp ? 3 : 1;
}

/// The one-pass row layout as a nest of whole rows: per row the input, its
/// f32 copy, and [rows, 1] results; VECTOR passes: the conversion, the steps
/// before the reduction, the reduction, the mean and the quantization.
ElementwiseProblem reduceRows(const ReduceSpec &s, int64_t ex, int64_t ey) {
  return rowProblem(s.outer, s.r, {{0, 0, s.r * ex, ex}, ex, false}, {{0, 0, ey, 0}, ey, true},
                    {ex + 4, 4 + prePasses(s)});
}
} // namespace

const CaseSpace &lowering::reduceSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"f32->f32"}, {"A->B", {{"A", ct::kQuant}, {"B", ct::kQuant}}}};
    using Pre = qk::ReducePre;
    using Post = qk::ReducePost;
    s.properties = {kReduceFn.declare(), kReducePre.declare(kReduceFn({qk::ReduceFn::SUM})),
                    kReducePost.declare(kReduceFn({qk::ReduceFn::SUM})), kLayout.declare(),
                    kTwoPass.declare(kLayout({Layout::Rows}))};
    s.rules = {
        // The (pre, post) pairs of ONNX's SUM reductions: ReduceSum, Mean,
        // LogSum (none: none, mean, log), L1 (abs: none), SumSquare and L2
        // (square: none, sqrt), LogSumExp (shifted-exp: log-plus-max).
        never(cond::all({kReduceFn({qk::ReduceFn::SUM}),
                         cond::negate(cond::any(
                             {cond::all({kReducePre({Pre::None}),
                                         kReducePost({Post::None, Post::Mean, Post::Log})}),
                              cond::all({kReducePre({Pre::Abs}), kReducePost({Post::None})}),
                              cond::all({kReducePre({Pre::Square}),
                                         kReducePost({Post::None, Post::Sqrt})}),
                              cond::all({kReducePre({Pre::ShiftedExp}),
                                         kReducePost({Post::LogPlusMax})})}))}),
              "no ONNX reduction computes this pair of steps around its sum"),
        refused(cond::all({kReducePre({Pre::ShiftedExp}), kTwoPass()}),
                "log-sum-exp needs the whole row's maximum before its first partial sum"),
        // graph-fuse-qdq quantizes ReduceMean, ReduceMax, ReduceMin and the
        // global poolings (isFusable): the others stay f32.
        never(cond::all({cond::any({cond::operand(0, ct::kQuant), cond::result(0, ct::kQuant)}),
                         kReduceFn({qk::ReduceFn::SUM}),
                         cond::negate(cond::all({kReducePre({Pre::None}),
                                                 kReducePost({Post::Mean})}))}),
              "the op stays f32 between DequantizeLinear and QuantizeLinear")};
    return s;
  }();
  return space;
}

/// Reductions over one contiguous block of axes, in f32 (quantized values
/// dequantized exactly, quantized once). Rows (nothing inside the block) or
/// columns (a stride between the reduced elements); rows longer than a tile
/// take two passes, partials per chunk then the partials.
LogicalResult lowering::selectReduce(LoweringCase &c, const target::TargetInfo &t) {
  auto op = cast<qk::ReduceOp>(c.op);
  ReduceSpec s = reduceSpec(op);
  c.choose(kReduceFn, op.getFn());
  if (op.getFn() == qk::ReduceFn::SUM) {
    c.choose(kReducePre, s.pre);
    c.choose(kReducePost, s.post);
  }
  for (size_t i = 1; i < s.axes.size(); ++i)
    if (s.axes[i] != s.axes[i - 1] + 1)
      return op->emitOpError("reduces non-adjacent axes; only one contiguous block of axes "
                             "has an NPU lowering yet");
  auto qx = quantOf(tensorOf(s.input).getElementType());
  auto qy = quantOf(tensorOf(s.result).getElementType());
  if ((qx && qx->axis >= 0) || (qy && qy->axis >= 0) || bool(qx) != bool(qy))
    return op->emitOpError("quantized reductions need per-tensor quantized input and result");
  if (!qx && !tensorOf(s.input).getElementType().isF32())
    return op->emitOpError() << "reduction of " << tensorOf(s.input).getElementType()
                             << " has no NPU lowering yet (f32 or per-tensor quantized)";
  if (s.axes.empty())
    return op->emitOpError("reduces no axis; an empty reduction has no NPU lowering yet");
  int64_t ex = bytesOf(storageOf(tensorOf(s.input).getElementType()));
  // Rows take two passes when not even one row fits a tile.
  int64_t ey = bytesOf(storageOf(tensorOf(s.result).getElementType()));
  ElementwiseTiling oneRow;
  oneRow.tile = {1, 1, 1, s.r};
  if (c.choose(kLayout, s.inner == 1 ? Layout::Rows : Layout::Columns) == Layout::Rows) {
    bool twoPass = checkTiling(reduceRows(s, ex, ey), oneRow, t).has_value();
    c.flag(kTwoPass, twoPass);
    // Partials combine by the reduction's own function; exp(x - max) needs
    // the max of the whole row before the first partial.
    if (twoPass && s.pre == ReduceSpec::Pre::ShiftedExp)
      return op->emitOpError() << "reduces rows of " << s.r
                               << " elements, more than one tile holds; log-sum-exp takes "
                                  "no two-pass lowering yet";
  }
  return success();
}

/// Rows: whole rows (reduceRows), or with kTwoPass tiles of rows by column
/// chunks whose partials stay in LM; columns: the r rows of a run of columns
/// and their f32 copy, plus the [1, cols] results (f32 and stored), a share
/// of each row.
LogicalResult lowering::planReduce(const LoweringCase &c, const target::TargetInfo &,
                                   IterationSpaces &s) {
  ReduceSpec spec = reduceSpec(cast<qk::ReduceOp>(c.op));
  int64_t ex = bytesOf(storageOf(tensorOf(spec.input).getElementType()));
  int64_t ey = bytesOf(storageOf(tensorOf(spec.result).getElementType()));
  int64_t outer = spec.outer, r = spec.r, inner = spec.inner;
  if (c.get(kLayout) == Layout::Rows) {
    ElementwiseProblem p = reduceRows(spec, ex, ey);
    if (c.is(kTwoPass)) {
      p.fixed = {0, 0, 0, 0};
      p.partials = true;
      p.maxBuffers = 1;
    }
    s.nests.push_back(std::move(p));
    return success();
  }
  s.nests.push_back(columnProblem(
      outer, r, inner, {{0, r * inner * ex, inner * ex, ex}, ex, false},
      {{0, inner * ey, 0, ey}, ey, false}, {ex + 4 + ceilDiv(4 + ey, r), 4 + prePasses(spec)}));
  return success();
}

LogicalResult ReducePattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto op = cast<qk::ReduceOp>(c.op);
  const ElementwiseProblem &p = planned.nests[0];
  ReduceSpec spec = reduceSpec(op);
  ReduceFunc func = spec.func;
  bool mean = spec.post == ReduceSpec::Post::Mean;
  int64_t outer = spec.outer, r = spec.r, inner = spec.inner;
  auto qx = quantOf(tensorOf(spec.input).getElementType());
  auto qy = quantOf(tensorOf(spec.result).getElementType());
  Value x = gmOf(spec.input), y = resultBuffer(spec.result);
  int64_t ex = cast<BufferType>(x.getType()).getElementBytes();
  Type sy = cast<BufferType>(y.getType()).getElementType();
  int64_t ey = bytesOf(sy);
  // A [rows, 1] (along cols) or [1, cols] (along rows) f32 tile for the
  // results of reducing f along `axis`.
  auto reducedTile = [&](Value f, Axis axis) {
    ArrayRef<int64_t> shape = cast<BufferType>(f.getType()).getShape();
    return axis == Axis::COLS ? e.tile(MemorySpace::LM, shape[0], 1, b.getF32Type())
                          : e.tile(MemorySpace::LM, 1, shape[1], b.getF32Type());
  };
  // The steps before the reduction, in place on the f32 tile f; for
  // exp(x - max), the max it subtracted.
  auto before = [&](Value f, Axis axis) -> Value {
    switch (spec.pre) {
    case ReduceSpec::Pre::None:
      return Value();
    case ReduceSpec::Pre::Abs:
      e.vun(VUnFunc::ABS, f, f);
      return Value();
    case ReduceSpec::Pre::Square:
      e.vbin(VBinFunc::MUL, f, f, f);
      return Value();
    case ReduceSpec::Pre::ShiftedExp: {
      Value m = reducedTile(f, axis);
      e.reduce(ReduceFunc::MAX, axis, f, m);
      e.vbin(VBinFunc::SUB, f, m, f);
      e.vun(VUnFunc::EXP, f, f);
      return m;
    }
    }
    return Value();
  };
  // Reduce f32 [rows, cols] along `axis` into d; then mean, the steps after
  // the reduction (m: the max `before` subtracted), quantize, store.
  auto finish = [&](Value f, Axis axis, Value dst, Value m) {
    Value d = reducedTile(f, axis);
    e.reduce(func, axis, f, d);
    if (mean)
      e.vbini(VBinFunc::DIV, d, b.getF32FloatAttr(float(r)), d);
    if (spec.post == ReduceSpec::Post::Sqrt)
      e.vun(VUnFunc::SQRT, d, d);
    if (spec.post == ReduceSpec::Post::Log || spec.post == ReduceSpec::Post::LogPlusMax)
      e.vun(VUnFunc::LOG, d, d);
    if (spec.post == ReduceSpec::Post::LogPlusMax)
      e.vbin(VBinFunc::ADD, d, m, d);
    e.dma(fromF32(d, qy, sy), dst);
  };
  if (c.get(kLayout) == Layout::Rows) {
    if (c.is(kTwoPass)) {
      // Rows longer than a tile: chunks of rc elements reduce to partials,
      // stored one [1, R] row per chunk, then the partials reduce along rows
      // (SUM, MAX and MIN combine with themselves; a mean divides once).
      // Tiles of R rows by rc columns, as select-tiling chose.
      FailureOr<ElementwiseTiling> chosen = nestTiling(op, p);
      if (failed(chosen))
        return failure();
      int64_t R = chosen->tile[2], rc = chosen->tile[3], nch = ceilDiv(r, rc);
      Type xe = cast<BufferType>(x.getType()).getElementType();
      for (int64_t o = 0; o < outer; o += R) {
        int64_t rows = std::min(R, outer - o), pitch = roundUp(rows * 4, t.params.VectorAlign);
        Value parts = e.alloc(MemorySpace::LM, {nch, rows}, b.getF32Type(), {pitch, 4});
        for (int64_t j = 0; j < nch; ++j) {
          int64_t cols = std::min(rc, r - j * rc);
          Value tileV = e.tile(MemorySpace::LM, rows, cols, xe);
          e.dma(e.view(x, (o * r + j * rc) * ex, {rows, cols}, {r * ex, ex}), tileV);
          Value f = toF32(tileV, qx);
          before(f, Axis::COLS);  // |x| or x * x: their partial sums add up
          e.reduce(func, Axis::COLS, f, e.view(parts, j * pitch, {rows, 1}, {4, 4}));
        }
        finish(parts, Axis::ROWS, e.view(y, o * ey, {1, rows}, {0, ey}), Value());
      }
      return success();
    }
    return rowLoops(op, p, [&](int64_t rows, const Offset &o) {
      Value tileV = e.tile(MemorySpace::LM, rows, r, cast<BufferType>(x.getType()).getElementType());
      e.dma(e.view(x, o * (r * ex), {rows, r}, {r * ex, ex}), tileV);
      Value f = toF32(tileV, qx);
      Value m = before(f, Axis::COLS);
      finish(f, Axis::COLS, e.view(y, o * ey, {rows, 1}, {ey, ey}), m);
    });
  }
  return columnLoops(op, p, [&](int64_t cols, const Offset &o, const Offset &c) {
    Value tileV = e.tile(MemorySpace::LM, r, cols, cast<BufferType>(x.getType()).getElementType());
    e.dma(e.view(x, o * (r * inner * ex) + c * ex, {r, cols}, {inner * ex, ex}), tileV);
    Value f = toF32(tileV, qx);
    Value m = before(f, Axis::ROWS);
    finish(f, Axis::ROWS, e.view(y, o * (inner * ey) + c * ey, {1, cols}, {0, ey}), m);
  });
}

const CaseSpace &lowering::softmaxSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"f32->f32"}, {"A->B", {{"A", ct::kQuant}, {"B", ct::kQuant}}}};
    s.properties = {kLog.declare(), kLayout.declare()};
    s.rules = {never(cond::all({kLog(), cond::operand(0, ct::kQuant)}),
                     "LogSoftmax stays f32 between DequantizeLinear and QuantizeLinear "
                     "(graph-fuse-qdq quantizes Softmax only)")};
    return s;
  }();
  return space;
}

/// Softmax and LogSoftmax over any axis, in f32: exp(x - max) / sum, or
/// (x - max) - log(sum), ONNX's order of operations; per row when the axis
/// is innermost, per column of each block otherwise.
LogicalResult lowering::selectSoftmax(LoweringCase &c, const target::TargetInfo &) {
  auto op = cast<qk::SoftmaxOp>(c.op);
  bool log = c.flag(kLog, op.getLog());
  StringRef name = log ? "log-softmax" : "softmax";
  Value input = op.getInput(), result = op.getResult();
  int64_t axis = op.getAxisAttr().getInt();
  // The verifier keeps the axis in [0, rank). Rows when it is the innermost
  // (of more than one element), columns otherwise: the max and the sum
  // reduce along the tile's rows.
  ArrayRef<int64_t> shape = tensorOf(input).getShape();
  int64_t inner = 1;
  for (size_t i = size_t(axis) + 1; i < shape.size(); ++i)
    inner *= shape[i];
  c.choose(kLayout, inner == 1 ? Layout::Rows : Layout::Columns);
  auto qx = quantOf(tensorOf(input).getElementType());
  auto qy = quantOf(tensorOf(result).getElementType());
  if ((qx && qx->axis >= 0) || (qy && qy->axis >= 0) || bool(qx) != bool(qy))
    return op->emitOpError() << "quantized " << name << " needs per-tensor quantized input and result";
  if (!qx && !tensorOf(input).getElementType().isF32())
    return op->emitOpError() << name << " of plain integers has no NPU lowering";
  return success();
}

namespace {
std::array<int64_t, 3> softmaxExtents(qk::SoftmaxOp op) {
  return aroundAxis(tensorOf(op.getInput()).getShape(), op.getAxisAttr().getInt());
}
} // namespace

/// Columns: per column of a block, r rows in, r rows out, a share of the
/// [1, cols] max and sum. Rows: the input, its f32 copy (log-softmax: and
/// the exponentials), the stored result and two [rows, 1] tiles (max, sum);
/// VECTOR passes: the conversions, max, subtract, exp, sum, divide (log:
/// copy, log, subtract).
LogicalResult lowering::planSoftmax(const LoweringCase &c, const target::TargetInfo &,
                                    IterationSpaces &s) {
  auto op = cast<qk::SoftmaxOp>(c.op);
  bool log = c.is(kLog);
  auto [outer, r, inner] = softmaxExtents(op);
  int64_t ex = bytesOf(storageOf(tensorOf(op.getInput()).getElementType()));
  int64_t ey = bytesOf(storageOf(tensorOf(op.getResult()).getElementType()));
  if (c.get(kLayout) == Layout::Columns) {
    ElementwiseProblem p = columnProblem(
        outer, r, inner, {{0, r * inner * ex, inner * ex, ex}, ex, false},
        {{0, r * inner * ey, inner * ey, ey}, ey, false},
        {ex + (log ? 2 : 1) * 4 + ey + ceilDiv(8, r), log ? 8 : 7});
    p.out.oneRow = false;
    s.nests.push_back(std::move(p));
    return success();
  }
  s.nests.push_back(rowProblem(outer, r, {{0, 0, r * ex, ex}, ex, false},
                               {{0, 0, r * ey, ey}, ey, false},
                               {ex + (log ? 2 : 1) * 4 + ey, log ? 8 : 7}));
  return success();
}

LogicalResult SoftmaxPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto op = cast<qk::SoftmaxOp>(c.op);
  bool log = c.is(kLog);
  Value input = op.getInput(), result = op.getResult();
  auto qx = quantOf(tensorOf(input).getElementType());
  auto qy = quantOf(tensorOf(result).getElementType());
  auto [outer, r, inner] = softmaxExtents(op);
  (void)outer;
  Value x = gmOf(input), y = resultBuffer(result);
  auto xt = cast<BufferType>(x.getType());
  Type sy = cast<BufferType>(y.getType()).getElementType();
  int64_t ex = xt.getElementBytes(), ey = bytesOf(sy);
  // Steps of one tile whose softmax runs along `along` (COLS: each row is
  // one softmax; ROWS: each column is).
  auto steps = [&](Value f, Axis along) {
    ArrayRef<int64_t> ts = cast<BufferType>(f.getType()).getShape();
    auto reduced = [&]() {
      return along == Axis::COLS ? e.tile(MemorySpace::LM, ts[0], 1, b.getF32Type())
                             : e.tile(MemorySpace::LM, 1, ts[1], b.getF32Type());
    };
    Value m = reduced();
    e.reduce(ReduceFunc::MAX, along, f, m);
    e.vbin(VBinFunc::SUB, f, m, f);
    Value exps = f;
    if (log) {
      exps = e.tile(MemorySpace::LM, ts[0], ts[1], b.getF32Type());
      e.vun(VUnFunc::COPY, f, exps);
    }
    e.vun(VUnFunc::EXP, exps, exps);
    Value sum = reduced();
    e.reduce(ReduceFunc::SUM, along, exps, sum);
    if (log) {
      e.vun(VUnFunc::LOG, sum, sum);
      e.vbin(VBinFunc::SUB, f, sum, f);
    } else {
      e.vbin(VBinFunc::DIV, f, sum, f);
    }
  };
  if (c.get(kLayout) == Layout::Columns) {
    return columnLoops(op, planned.nests[0], [&](int64_t cols, const Offset &o, const Offset &col) {
      Value tileV = e.tile(MemorySpace::LM, r, cols, xt.getElementType());
      e.dma(e.view(x, o * (r * inner * ex) + col * ex, {r, cols}, {inner * ex, ex}), tileV);
      Value f = toF32(tileV, qx);
      steps(f, Axis::ROWS);
      Value to = e.view(y, o * (r * inner * ey) + col * ey, {r, cols}, {inner * ey, ey});
      e.dma(fromF32(f, qy, sy), to);
    });
  }
  return rowLoops(op, planned.nests[0], [&](int64_t rows, const Offset &o) {
    Value tileV = e.tile(MemorySpace::LM, rows, r, xt.getElementType());
    e.dma(e.view(x, o * (r * ex), {rows, r}, {r * ex, ex}), tileV);
    // Each step in f32 (EXP and LOG per docs/numerics.md).
    Value f = toF32(tileV, qx);
    steps(f, Axis::COLS);
    Value to = e.view(y, o * (r * ey), {rows, r}, {r * ey, ey});
    e.dma(fromF32(f, qy, sy), to);
  });
}

namespace {
/// A pooling op's window, as 2-D (1-D pooling is 2-D pooling of height 1).
struct PoolSpec {
  Value input, result;
  SmallVector<int64_t> kernel, strides, pads, dil;  // pads: top, left, bottom, right
  bool isMax, countIncludePad;
};

PoolSpec poolSpec(qk::PoolOp op) {
  PoolSpec p;
  p.input = op.getInput();
  p.result = op.getResult();
  p.isMax = op.getFn() == qk::PoolFn::MAX;
  p.kernel.assign(op.getKernelShape().begin(), op.getKernelShape().end());
  p.strides.assign(op.getStrides().begin(), op.getStrides().end());
  p.pads.assign(op.getPads().begin(), op.getPads().end());
  p.dil.assign(op.getDilations().begin(), op.getDilations().end());
  p.countIncludePad = op.getCountIncludePad();
  if (tensorOf(p.input).getRank() == 3) {
    p.kernel = {1, p.kernel[0]};
    p.strides = {1, p.strides[0]};
    p.pads = {0, p.pads[0], 0, p.pads[1]};
    p.dil = {1, p.dil[0]};
  }
  return p;
}
} // namespace

const CaseSpace &lowering::poolSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"f32->f32"},
                    {"A->B", {{"A", ct::kQuant}, {"B", ct::kQuant}}},
                    {"T->T", {{"T", {"i8", "ui8"}}}}};
    s.properties = {kPoolFn.declare(),
                    kPoolRank.declare(),
                    kInteger.declare(),
                    kPadded.declare(),
                    kCeilExtra.declare(),
                    kStrided.declare(),
                    kDilated.declare(),
                    kCountIncludePad.declare(kPoolFn({qk::PoolFn::AVERAGE}))};
    s.rules = {never(cond::any({cond::all({kInteger(), cond::operand(0, ct::kQuant)}),
                                cond::all({kInteger(), cond::operand(0, {"f32"})}),
                                cond::all({kInteger(false), cond::operand(0, {"i8", "ui8"})})}),
                     "integer is the max pooling of plain 8-bit integers"),
               never(cond::all({kInteger(), kPoolFn({qk::PoolFn::AVERAGE})}),
                     "integer is the max pooling of plain 8-bit integers"),
               never(cond::all({kCeilExtra(), kStrided(false)}),
                     "with stride 1, ceil_mode adds no window")};
    // Quantized: graph-fuse-qdq quantizes MaxPool and AveragePool, the two
    // functions of qk.pool.
    return s;
  }();
  return space;
}

/// Max and average pooling of 1-D and 2-D inputs: f32, per-tensor quantized
/// (exact dequantized values), or plain 8-bit integers for max pooling (exact
/// on the integers themselves).
LogicalResult lowering::selectPool(LoweringCase &c, const target::TargetInfo &) {
  auto op = cast<qk::PoolOp>(c.op);
  PoolSpec p = poolSpec(op);
  c.choose(kPoolFn, op.getFn());
  auto inType = tensorOf(p.input), outType = tensorOf(p.result);
  auto qx = quantOf(inType.getElementType()), qy = quantOf(outType.getElementType());
  if ((qx && qx->axis >= 0) || (qy && qy->axis >= 0) || bool(qx) != bool(qy))
    return op->emitOpError("quantized pooling needs per-tensor quantized input and result");
  bool integerMax = !qx && p.isMax && inType.getElementType().isInteger(8);
  if (!qx && !inType.getElementType().isF32() && !integerMax)
    return op->emitOpError() << (p.isMax ? "max" : "average") << " pooling of "
                             << inType.getElementType() << " has no NPU lowering yet";
  if (inType.getRank() != 3 && inType.getRank() != 4)
    return op->emitOpError("pooling lowers for 1-D and 2-D inputs");
  ArrayRef<int64_t> xs = inType.getShape(), ys = outType.getShape();
  int64_t H = inType.getRank() == 3 ? 1 : xs[2], W = xs.back();
  int64_t OH = inType.getRank() == 3 ? 1 : ys[2], OW = ys.back();
  int64_t needH = (OH - 1) * p.strides[0] + (p.kernel[0] - 1) * p.dil[0] + 1;
  int64_t needW = (OW - 1) * p.strides[1] + (p.kernel[1] - 1) * p.dil[1] + 1;
  c.choose(kPoolRank, inType.getRank() == 3 ? PoolRank::OneD : PoolRank::TwoD);
  c.flag(kInteger, integerMax);
  c.flag(kPadded, llvm::any_of(p.pads, [](int64_t v) { return v != 0; }));
  // ceil_mode's last window runs past the padding: more fill beyond it.
  c.flag(kCeilExtra, needH > H + p.pads[0] + p.pads[2] || needW > W + p.pads[1] + p.pads[3]);
  c.flag(kStrided, llvm::any_of(p.strides, [](int64_t v) { return v != 1; }));
  c.flag(kDilated, llvm::any_of(p.dil, [](int64_t v) { return v != 1; }));
  if (!p.isMax)
    c.flag(kCountIncludePad, p.countIncludePad);
  return success();
}

std::optional<DepthwiseProblem> lowering::poolProblem(Operation *op) {
  auto pool = dyn_cast<qk::PoolOp>(op);
  if (!pool)
    return std::nullopt;
  PoolSpec ps = poolSpec(pool);
  auto inType = tensorOf(ps.input), outType = tensorOf(ps.result);
  auto qx = quantOf(inType.getElementType());
  Type sx = storageOf(inType.getElementType());
  bool integerMax = !qx && ps.isMax && sx.isInteger(8);
  if ((inType.getRank() != 3 && inType.getRank() != 4) || (!qx && !sx.isF32() && !integerMax))
    return std::nullopt;
  bool d1 = inType.getRank() == 3;
  ArrayRef<int64_t> xs = inType.getShape(), ys = outType.getShape();
  DepthwiseProblem p;
  p.N = xs[0], p.C = xs[1], p.H = d1 ? 1 : xs[2], p.W = xs.back();
  p.OH = d1 ? 1 : ys[2], p.OW = ys.back();
  p.KH = ps.kernel[0], p.KW = ps.kernel[1], p.sh = ps.strides[0], p.sw = ps.strides[1];
  p.dh = ps.dil[0], p.dw = ps.dil[1];
  // Padding, plus what ceil_mode's last window needs beyond it.
  p.padTop = ps.pads[0], p.padLeft = ps.pads[1];
  p.padBottom = std::max<int64_t>(ps.pads[2], p.imageRows(p.OH) - p.H - ps.pads[0]);
  p.padRight = std::max<int64_t>(ps.pads[3], (p.OW - 1) * p.sw + (p.KW - 1) * p.dw + 1 - p.W - ps.pads[1]);
  p.inBytes = bytesOf(sx);
  p.outBytes = bytesOf(storageOf(outType.getElementType()));
  p.mode = sx.isF32() || (qx && !ps.isMax) ? isa::MmMode::F32
           : sx.isUnsignedInteger(8)       ? isa::MmMode::U8U8
                                           : isa::MmMode::I8I8;
  p.window = ps.isMax ? isa::WindowFunc::MAX : isa::WindowFunc::SUM;
  p.convertImage = qx && !ps.isMax;
  // After V_DW: f32 max nothing; an integer max its cast; a quantized max
  // dequantizing (cast, sub, mul) and quantizing (div, round, add, cast); an
  // average its divisor, and quantizing if quantized.
  p.epiloguePasses = ps.isMax ? (sx.isF32() ? 0 : integerMax ? 1 : 7) : (qx ? 5 : 1);
  return p;
}

/// Max and average pooling, NCHW, on V_DW (func MAX or SUM) in the tiles
/// select-tiling chose (DepthwiseTiling.h): per tile, each channel's input
/// rows, padded on the way into LM (max: the lowest value; average: real
/// zero; ceil_mode's last window runs past the pads into more of it). A max
/// runs on the stored values (exact: dequantization is monotonic) and is
/// dequantized and requantized after; a quantized average converts the image
/// to its exact f32 values first. An average divides by its window's
/// denominator: the taps inside the padded input (count_include_pad) or
/// inside the input, a compile-time [OH, OW] table.
LogicalResult PoolPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto op = cast<qk::PoolOp>(c.op);
  PoolSpec spec = poolSpec(op);
  std::optional<DepthwiseProblem> problem = poolProblem(op);
  if (!problem)
    return op->emitOpError("internal error: not a pooling problem");
  const DepthwiseProblem &p = *problem;
  Value input = spec.input, result = spec.result;
  bool isMax = spec.isMax, countIncludePad = spec.countIncludePad;
  auto qx = quantOf(tensorOf(input).getElementType()), qy = quantOf(tensorOf(result).getElementType());
  Value X = gmOf(input), Y = resultBuffer(result);
  auto xt = cast<BufferType>(X.getType());
  Type sy = cast<BufferType>(Y.getType()).getElementType();
  // 1-D pooling is 2-D pooling of height 1.
  if (c.get(kPoolRank) == PoolRank::OneD) {
    auto add1 = [&](Value v) {
      auto bt = cast<BufferType>(v.getType());
      SmallVector<int64_t> s4{bt.getShape()[0], bt.getShape()[1], 1, bt.getShape()[2]};
      return e.view(v, 0, s4, denseStrides(s4, bt.getElementBytes()));
    };
    X = add1(X);
    Y = add1(Y);
  }
  FailureOr<DepthwiseTiling> tl = windowTiling(op, p, X);
  if (failed(tl))
    return failure();
  int64_t ex = p.inBytes, ey = bytesOf(sy), Wp = p.paddedWidth();
  int64_t fill;
  if (xt.getElementType().isF32())
    fill = isMax ? 0xff800000 : 0;  // -inf or +0.0
  else if (isMax)
    fill = xt.getElementType().isUnsignedInteger(8) ? 0 : 0x80;  // the lowest value
  else
    fill = qx->zeroPoints[0] & 0xff;  // real zero
  // Denominators of an average: taps counted per axis, multiplied.
  Value den;
  if (!isMax) {
    ArrayRef<int64_t> pads = spec.pads;
    auto count = [&](int64_t o, int64_t k, int64_t s, int64_t d, int64_t lo, int64_t extent,
                     int64_t hi) {
      int64_t n = 0;
      for (int64_t i = 0; i < k; ++i) {
        int64_t pos = o * s + i * d - lo;
        n += countIncludePad ? (pos >= -lo && pos < extent + hi) : (pos >= 0 && pos < extent);
      }
      return n;
    };
    SmallVector<float> values;
    for (int64_t oh = 0; oh < p.OH; ++oh)
      for (int64_t ow = 0; ow < p.OW; ++ow)
        values.push_back(float(count(oh, p.KH, p.sh, p.dh, pads[0], p.H, pads[2]) *
                               count(ow, p.KW, p.sw, p.dw, pads[1], p.W, pads[3])));
    den = f32Constant(values);
  }
  bool integerMax = c.is(kInteger);
  windowTiles(p, *tl, X, fill, [&](const WindowTile &w) {
    int64_t chans = w.chans, n = w.rows * p.OW;
    // The image as V_DW reads it: as stored, or its exact f32 values.
    Value image = w.image;
    int64_t ie = ex;
    if (p.convertImage) {
      Value f = toF32(e.view(w.image, 0, {chans * w.rin, Wp}, {Wp * ex, ex}), qx);
      int64_t lda = cast<BufferType>(f.getType()).getStrides()[0];
      image = e.view(f, 0, {chans, w.rin, Wp}, {w.rin * lda, lda, 4});
      ie = 4;
    }
    int64_t lda = cast<BufferType>(image.getType()).getStrides()[1];
    Type rt = p.mode == isa::MmMode::F32 ? Type(b.getF32Type()) : Type(b.getIntegerType(32));
    Value red = e.alloc(MemorySpace::LM, {chans, n}, rt, {w.pitch.acc, 4});
    Value sums = e.view(red, 0, {chans, w.rows, p.OW}, {w.pitch.acc, p.OW * 4, 4});
    bool first = true;
    for (const WindowBlock &wb : depthwiseWindowBlocks(p)) {
      int64_t r0 = wb.i0 * p.dh, q0 = wb.j0 * p.dw;
      Value corner = e.view(image, r0 * lda + q0 * ie, {chans, w.rin - r0, Wp - q0},
                            {cast<BufferType>(image.getType()).getStrides()[0], lda, ie});
      DepthwiseOp::create(b, e.loc, corner, Value(), sums, Value(),
                          b.getDenseI64ArrayAttr({wb.kh, wb.kw}), b.getDenseI64ArrayAttr({p.sh, p.sw}),
                          b.getDenseI64ArrayAttr({p.dh, p.dw}), !first, 0, 0, isMax ? WindowFunc::MAX : WindowFunc::SUM,
                          false, false, DenseI64ArrayAttr());
      first = false;
    }
    Value out = red;
    if (den) {
      // This tile's rows of the table, the same for every channel.
      Value d = e.tile(MemorySpace::LM, 1, n, b.getF32Type());
      e.dma(e.view(den, w.oh0 * (p.OW * 4), {1, n}, {0, 4}), d);
      e.vbin(VBinFunc::DIV, red, d, red);
    } else if (integerMax) {
      out = e.tile(MemorySpace::LM, chans, n, sy);
      e.cast(red, out);
    } else if (qx) {
      out = toF32(red, qx);  // a quantized max: dequantized after the max
    }
    if (qy)
      out = fromF32(out, qy, sy);
    e.dma(out, e.view(Y, ((w.n * p.C + w.c0) * p.OH + w.oh0) * (p.OW * ey), {chans, n},
                      {p.OH * p.OW * ey, ey}));
  });
  return success();
}
