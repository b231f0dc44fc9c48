//===- KernelToEmit.cpp - qk kernels and graph ops to engine operations ---===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Every tensor gets a GM buffer (input, output, const or arena) in dense
// row-major order; views (reshape, storage casts) share their source's
// buffer. Each kernel is tiled so its working set fits the target's LM and
// ACC: DMA_IN brings tiles into local memory (im2col windows, broadcasts by
// zero strides, padding by the DMA's fill), MATRIX and VECTOR compute, DMA_OUT
// writes back. Local tiles have row pitches padded to the vector granule.
// Synchronisation, memory placement and encoding are later passes.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
#include "npuc/Base/Numerics.h"
#include "npuc/Conversion/Passes.h"
#include "npuc/Dialect/Emit/IR/EmitDialect.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"
#include "npuc/Dialect/QK/IR/QKOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinOps.h"

#include <functional>

namespace npuc {
#define GEN_PASS_DEF_CONVERTKERNELTOEMIT
#include "npuc/Conversion/Passes.h.inc"
} // namespace npuc

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

Value KernelLowering::ioBuffer(MemorySpace space, int64_t &cursor, StringRef name,
                               RankedTensorType type) {
  Type st = storageOf(type.getElementType());
  auto bt = e.type(space, type.getShape(), st, denseStrides(type.getShape(), bytesOf(st)));
  Value v = AllocOp::create(b, e.loc, bt, b.getI64IntegerAttr(cursor), b.getStringAttr(name));
  cursor = roundUp(cursor + bt.getSpanBytes(), 64);
  return v;
}

Value KernelLowering::constant(Attribute value, RankedTensorType type) {
  Type st = storageOf(type.getElementType());
  auto dense = cast<DenseElementsAttr>(value);
  if (dense.getElementType() != st)
    dense = dense.bitcast(st);
  dense = dense.reshape(RankedTensorType::get(type.getShape(), st));
  auto bt = e.type(MemorySpace::Const, type.getShape(), st, denseStrides(type.getShape(), bytesOf(st)));
  return ConstantOp::create(b, e.loc, bt, dense, IntegerAttr());
}

Value KernelLowering::f32Constant(ArrayRef<float> values) {
  auto type = RankedTensorType::get({int64_t(values.size())}, b.getF32Type());
  return constant(DenseElementsAttr::get(type, values), type);
}

Value KernelLowering::gmOf(Value tensor) {
  auto it = gm.find(tensor);
  if (it != gm.end())
    return it->second;
  if (auto c = tensor.getDefiningOp<graph::ConstantOp>())
    return gm[tensor] = constant(c.getValue(), tensorOf(tensor));
  return nullptr;
}


//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lower(Operation *op) {
  e.loc = op->getLoc();
  for (Type t : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto rt = dyn_cast<RankedTensorType>(t); rt && rt.getNumElements() == 0)
      return op->emitOpError() << "has a tensor with no elements (" << rt
                               << "); empty tensors have no NPU lowering";
  if (llvm::isa<graph::ConstantOp>(op))
    return success();  // materialized in CONST when a kernel reads it
  if (llvm::isa<graph::StorageCastOp, graph::ReshapeOp>(op)) {
    Value src = gmOf(op->getOperand(0));
    auto type = tensorOf(op->getResult(0));
    Type st = storageOf(type.getElementType());
    // A view: the physical layout is dense row-major on both sides.
    gm[op->getResult(0)] = e.view(e.retype(src, st), 0, type.getShape(),
                                  denseStrides(type.getShape(), bytesOf(st)));
    return success();
  }
  if (auto q = dyn_cast<graph::QuantizeOp>(op))
    return lowerQuantize(q);
  if (auto dq = dyn_cast<graph::DequantizeOp>(op))
    return lowerDequantize(dq);
  static const std::pair<StringRef, StringRef> binary[] = {
      {"graph.add", "ADD"}, {"graph.sub", "SUB"}, {"graph.mul", "MUL"},     {"graph.div", "DIV"},
      {"graph.max", "MAX"}, {"graph.min", "MIN"}, {"graph.prelu", "PRELU"}};
  for (auto [name, func] : binary)
    if (op->getName().getStringRef() == name &&
        // Division lowers for f32 results only.
        (func != "DIV" || tensorOf(op->getResult(0)).getElementType().isF32()))
      return lowerBinary(op, func);
  static const std::pair<StringRef, StringRef> unary[] = {
      {"graph.relu", "RELU"},   {"graph.sigmoid", "SIGMOID"}, {"graph.tanh", "TANH"},
      {"graph.exp", "EXP"},     {"graph.log", "LOG"},         {"graph.neg", "NEG"},
      {"graph.abs", "ABS"},     {"graph.sign", "SIGN"},       {"graph.sqrt", "SQRT"},
      {"graph.reciprocal", "RECIP"}, {"graph.erf", "ERF"},    {"graph.floor", "FLOOR"},
      {"graph.ceil", "CEIL"},   {"graph.round", "ROUND"},     {"graph.identity", "COPY"}};
  for (auto [name, func] : unary)
    if (op->getName().getStringRef() == name)
      return lowerUnary(op, func);
  if (auto sm = dyn_cast<graph::SoftmaxOp>(op))
    return lowerSoftmax(op, int64_t(sm.getAxis()), /*log=*/false);
  if (auto ls = dyn_cast<graph::LogSoftmaxOp>(op))
    return lowerSoftmax(op, int64_t(ls.getAxis()), /*log=*/true);
  if (auto mp = dyn_cast<graph::MaxPoolOp>(op))
    return lowerPool(op, mp.getX(), mp.getResult(), mp.getKernelShape(), mp.getStrides(),
                     mp.getPads(), mp.getDilations(), true, false);
  if (auto ap = dyn_cast<graph::AveragePoolOp>(op))
    return lowerPool(op, ap.getX(), ap.getResult(), ap.getKernelShape(), ap.getStrides(),
                     ap.getPads(), ap.getDilations(), false, ap.getCountIncludePad());
  if (auto cat = dyn_cast<graph::ConcatOp>(op)) {
    // Each input lands in a strided view of the output; an input quantized
    // differently from the output is requantized through f32 on the way
    // (exact dequantization, one rounding half to even).
    Value out = resultBuffer(cat.getResult());
    auto ot = cast<BufferType>(out.getType());
    auto qy = quantOf(tensorOf(cat.getResult()).getElementType());
    int64_t axis = int64_t(cat.getAxis());  // the verifier keeps it in [0, rank)
    int64_t offset = 0;
    for (Value in : cat.getInputs()) {
      ArrayRef<int64_t> shape = tensorOf(in).getShape();
      auto qx = quantOf(tensorOf(in).getElementType());
      if ((qx && qx->axis >= 0) || (qy && qy->axis >= 0) || bool(qx) != bool(qy))
        return op->emitOpError("quantized concat needs per-tensor quantized inputs and result");
      Value dst = e.view(out, offset * ot.getStrides()[size_t(axis)], shape, ot.getStrides());
      bool same = !qx || (qx->scales == qy->scales && qx->zps == qy->zps);
      if (failed(elementwise(op, shape, {broadcastOperand(in, shape)}, dst, same ? 2 : 10,
                             [&](EwTiles &tl) {
                               if (!same)
                                 tl.out = fromF32(toF32(tl.in[0], qx), qy, ot.getElementType());
                             })))
        return failure();
      offset += shape[size_t(axis)];
    }
    return success();
  }
  if (auto gap = dyn_cast<graph::GlobalAveragePoolOp>(op)) {
    int64_t rank = tensorOf(gap.getX()).getRank();
    SmallVector<int64_t> axes;
    for (int64_t i = 2; i < rank; ++i)
      axes.push_back(i);
    return lowerReduce(op, gap.getX(), gap.getResult(), axes, "SUM", true);
  }
  if (auto gmp = dyn_cast<graph::GlobalMaxPoolOp>(op)) {
    int64_t rank = tensorOf(gmp.getX()).getRank();
    SmallVector<int64_t> axes;
    for (int64_t i = 2; i < rank; ++i)
      axes.push_back(i);
    return lowerReduce(op, gmp.getX(), gmp.getResult(), axes, "MAX", false);
  }
  if (auto red = dyn_cast<graph::ReduceMeanOp>(op))
    return lowerReduce(op, red.getInput(), red.getResult(), red.getAxes(), "SUM", true);
  if (auto red = dyn_cast<graph::ReduceSumOp>(op))
    return lowerReduce(op, red.getInput(), red.getResult(), red.getAxes(), "SUM", false);
  if (auto red = dyn_cast<graph::ReduceMaxOp>(op))
    return lowerReduce(op, red.getInput(), red.getResult(), red.getAxes(), "MAX", false);
  if (auto red = dyn_cast<graph::ReduceMinOp>(op))
    return lowerReduce(op, red.getInput(), red.getResult(), red.getAxes(), "MIN", false);
  auto f32 = [&](float v) { return b.getF32FloatAttr(v); };
  if (auto clip = dyn_cast<graph::ClipOp>(op)) {
    // A Clip right after a conv or matmul folds into its requantization
    // instead (convert-graph-to-qk); here it clamps the dequantized values.
    std::optional<double> lo, hi;
    if (clip.getMin())
      lo = clip.getMinAttr().getValueAsDouble();
    if (clip.getMax())
      hi = clip.getMaxAttr().getValueAsDouble();
    return lowerF32Map(op, clip.getInput(), clip.getResult(), [&](Value f) {
      if (lo)
        e.vbini("MAX", f, f32(float(*lo)), f);
      if (hi)
        e.vbini("MIN", f, f32(float(*hi)), f);
    });
  }
  if (auto lr = dyn_cast<graph::LeakyReluOp>(op)) {
    // x < 0 ? alpha * x : x is max(x, alpha * x) for alpha <= 1, min otherwise.
    float alpha = float(lr.getAlphaAttr().getValueAsDouble());
    return lowerF32Map(op, lr.getInput(), lr.getResult(), [&](Value f) {
      auto ft = cast<BufferType>(f.getType());
      Value ax = e.tile(MemorySpace::LM, ft.getShape()[0], ft.getShape()[1], b.getF32Type());
      e.vbini("MUL", f, f32(alpha), ax);
      e.vbin(alpha <= 1.0f ? "MAX" : "MIN", f, ax, f);
    });
  }
  // HardSigmoid: max(0, min(1, alpha * x + beta)); HardSwish: x times
  // HardSigmoid with alpha = 1/6, beta = 1/2 (ONNX's definitions, f32 steps).
  auto hardSigmoid = [&](Value f, Value into, float alpha, float beta) {
    e.vbini("MUL", f, f32(alpha), into);
    e.vbini("ADD", into, f32(beta), into);
    e.vbini("MAX", into, f32(0.0f), into);
    e.vbini("MIN", into, f32(1.0f), into);
  };
  if (auto hs = dyn_cast<graph::HardSigmoidOp>(op))
    return lowerF32Map(op, hs.getInput(), hs.getResult(), [&](Value f) {
      hardSigmoid(f, f, float(hs.getAlphaAttr().getValueAsDouble()),
                  float(hs.getBetaAttr().getValueAsDouble()));
    });
  if (llvm::isa<graph::HardSwishOp>(op))
    return lowerF32Map(op, op->getOperand(0), op->getResult(0), [&](Value f) {
      auto ft = cast<BufferType>(f.getType());
      Value g = e.tile(MemorySpace::LM, ft.getShape()[0], ft.getShape()[1], b.getF32Type());
      hardSigmoid(f, g, 1.0f / 6.0f, 0.5f);
      e.vbin("MUL", f, g, f);
    });
  if (auto ct = dyn_cast<graph::ConvTransposeOp>(op))
    return lowerConvTranspose(ct);
  if (auto rs = dyn_cast<graph::ResizeOp>(op)) {
    // Nearest-neighbour resizing whose sampling is a pure replication: for
    // every axis, ONNX's coordinate formula (coordinate_transformation_mode,
    // then nearest_mode, clamped) evaluated at compile time for every output
    // index gives floor(o / k) for an integer k. Then the result is the input
    // read with a zero stride over each k (a copy, contract D14); any other
    // sampling is a diagnostic naming it.
    ArrayRef<int64_t> in = tensorOf(rs.getInput()).getShape();
    ArrayRef<int64_t> out = tensorOf(rs.getResult()).getShape();
    ArrayRef<float> scales = rs.getScales();
    StringRef ctm = rs.getCoordinateTransformationMode(), nm = rs.getNearestMode();
    if (rs.getMode() != "nearest")
      return op->emitOpError() << "resize mode '" << rs.getMode() << "' has no NPU lowering yet";
    auto source = [&](int64_t o, size_t axis) -> std::optional<int64_t> {
      double scale = scales[axis], x;
      if (ctm == "asymmetric")
        x = double(o) / scale;
      else if (ctm == "half_pixel")
        x = (double(o) + 0.5) / scale - 0.5;
      else if (ctm == "pytorch_half_pixel")
        x = out[axis] > 1 ? (double(o) + 0.5) / scale - 0.5 : 0.0;
      else if (ctm == "tf_half_pixel_for_nn")
        x = (double(o) + 0.5) / scale;
      else if (ctm == "align_corners")
        x = out[axis] > 1 ? double(o) * double(in[axis] - 1) / double(out[axis] - 1) : 0.0;
      else
        return std::nullopt;
      double r;
      if (nm == "floor")
        r = std::floor(x);
      else if (nm == "ceil")
        r = std::ceil(x);
      else if (nm == "round_prefer_floor")
        r = x - std::floor(x) == 0.5 ? std::floor(x) : std::round(x);
      else if (nm == "round_prefer_ceil")
        r = std::round(x);
      else
        return std::nullopt;
      return std::min<int64_t>(std::max<int64_t>(int64_t(r), 0), in[axis] - 1);
    };
    SmallVector<int64_t> shape, strides;
    Value src = gmOf(rs.getInput());
    auto st = cast<BufferType>(src.getType());
    for (size_t axis = 0; axis < in.size(); ++axis) {
      int64_t k = in[axis] > 0 ? out[axis] / in[axis] : 0;
      bool replicate = k >= 1 && k * in[axis] == out[axis];
      for (int64_t o = 0; replicate && o < out[axis]; ++o)
        replicate = source(o, axis) == o / k;
      if (!replicate)
        return op->emitOpError() << "nearest resize along axis " << axis << " (" << in[axis]
                                 << " -> " << out[axis] << ", " << ctm << ", " << nm
                                 << ") is not a whole-number replication; no NPU lowering yet";
      shape.append({in[axis], k});
      strides.append({st.getStrides()[axis], 0});
    }
    Value dst = resultBuffer(rs.getResult());
    Value dstView = e.view(dst, 0, shape, denseStrides(shape, st.getElementBytes()));
    return lowerCopy(op, e.view(src, 0, shape, strides), dstView, shape, strides);
  }
  if (auto sl = dyn_cast<graph::SliceOp>(op)) {
    // A strided window of the input: starts give the offset, steps scale the
    // strides; the copy keeps coordinates and quantization (contract D13).
    Value src = gmOf(sl.getInput());
    auto st = cast<BufferType>(src.getType());
    SmallVector<int64_t> strides;
    int64_t offset = 0;
    for (auto [i, start, step] : llvm::enumerate(sl.getStarts(), sl.getSteps())) {
      if (step < 1)
        return op->emitOpError() << "slice step " << step << " on axis " << i
                                 << " has no NPU lowering yet (positive steps only)";
      offset += start * st.getStrides()[i];
      strides.push_back(step * st.getStrides()[i]);
    }
    ArrayRef<int64_t> shape = tensorOf(sl.getResult()).getShape();
    return lowerCopy(op, e.view(src, offset, shape, strides), resultBuffer(sl.getResult()), shape,
                     strides);
  }
  if (auto tr = dyn_cast<graph::TransposeOp>(op)) {
    Value src = gmOf(tr.getInput());
    auto st = cast<BufferType>(src.getType());
    SmallVector<int64_t> strides;
    for (int64_t p : tr.getPerm())
      strides.push_back(st.getStrides()[size_t(p)]);
    return lowerCopy(op, src, resultBuffer(tr.getResult()), tensorOf(tr.getResult()).getShape(),
                     strides);
  }
  if (auto pad = dyn_cast<graph::PadOp>(op)) {
    if (pad.getMode() != "constant")
      return op->emitOpError() << "pad mode '" << pad.getMode() << "' has no NPU lowering yet";
    ArrayRef<int64_t> pads = pad.getPads();
    size_t rank = pads.size() / 2;
    Type el = tensorOf(pad.getResult()).getElementType();
    double value = pad.getValueAttr().getValueAsDouble();
    int64_t fill;
    if (auto q = quantOf(el)) {
      auto qt = cast<quant::QuantizedType>(el);
      double v = std::nearbyint(value / q->scales[0]) + double(q->zps[0]);
      v = std::min(std::max(v, double(qt.getStorageTypeMin())), double(qt.getStorageTypeMax()));
      fill = int64_t(v);
    }
    else if (el.isF32()) {
      float f = float(value);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      fill = bits;
    } else
      fill = int64_t(value);
    fill &= (int64_t(1) << (8 * bytesOf(storageOf(el)))) - 1;
    return lowerPad(op, gmOf(pad.getInput()), resultBuffer(pad.getResult()),
                    tensorOf(pad.getInput()).getShape(), pads.take_front(rank),
                    pads.drop_front(rank), fill);
  }
  if (auto mm = dyn_cast<qk::MatMulOp>(op)) {
    if (mm.getRhsZp().size() != 1 && llvm::any_of(mm.getRhsZp(), [&](int64_t z) { return z != mm.getRhsZp()[0]; }))
      return op->emitOpError("per-column rhs zero points that differ need a correction term; "
                             "MATRIX subtracts one b_zp");
    return lowerMatmul(op, mm.getLhs(), mm.getRhs(), mm.getBias(), mm.getResult(), mm.getLhsZp(),
                       mm.getRhsZp()[0], mm.getRequantAttr());
  }
  if (auto mm = dyn_cast<graph::MatMulOp>(op)) {
    if (!tensorOf(mm.getResult()).getElementType().isF32())
      return op->emitOpError("non-f32 graph.matmul reaches emission unquantized");
    return lowerMatmul(op, mm.getLhs(), mm.getRhs(), Value(), mm.getResult(), 0, 0, {});
  }
  if (auto gemm = dyn_cast<graph::GemmOp>(op)) {
    if (!tensorOf(gemm.getResult()).getElementType().isF32())
      return op->emitOpError("Gemm lowers for f32 (a quantized Gemm has no kernel yet)");
    Value c = gemm.getC() ? gmOf(gemm.getC()) : Value();
    return lowerMatmul(op, gemm.getA(), gemm.getB(), Value(), gemm.getResult(), 0, 0, {},
                       gemm.getTransA(), gemm.getTransB(),
                       float(gemm.getAlphaAttr().getValueAsDouble()), c,
                       float(gemm.getBetaAttr().getValueAsDouble()));
  }
  if (auto bn = dyn_cast<graph::BatchNormOp>(op)) {
    // ONNX's inference form, step by step in f32: scale * (x - mean) /
    // sqrt(var + epsilon) + bias, the per-channel operands broadcast along
    // axis 1 by zero strides (never materialized at the tensor's size in GM).
    auto xt = tensorOf(bn.getX());
    if (!xt.getElementType().isF32() || xt.getRank() < 2)
      return op->emitOpError("BatchNormalization lowers for f32 tensors of rank >= 2");
    ArrayRef<int64_t> shape = xt.getShape();
    auto perChannel = [&](Value v) {
      EwOperand o{gmOf(v), SmallVector<int64_t, 4>(shape.size(), 0), true};
      o.strides[1] = 4;
      return o;
    };
    SmallVector<EwOperand> ins{broadcastOperand(bn.getX(), shape), perChannel(bn.getScale()),
                               perChannel(bn.getBias()), perChannel(bn.getMean()),
                               perChannel(bn.getVar())};
    float eps = float(bn.getEpsilonAttr().getValueAsDouble());
    return elementwise(op, shape, ins, resultBuffer(bn.getResult()), 24, [&](EwTiles &tl) {
      Value x = tl.in[0], var = tl.in[4];
      e.vbin("SUB", x, tl.in[3], x);
      e.vbin("MUL", x, tl.in[1], x);  // IEEE products commute
      e.vbini("ADD", var, b.getF32FloatAttr(eps), var);
      e.vun("SQRT", var, var);
      e.vbin("DIV", x, var, x);
      e.vbin("ADD", x, tl.in[2], x);
    });
  }
  if (auto conv = dyn_cast<qk::Conv2DOp>(op)) {
    if (conv.getLayout() != qk::Layout::NCHW)
      return op->emitOpError("emission handles NCHW convolutions");
    ArrayRef<int64_t> wzp = conv.getWeightZp();
    if (llvm::any_of(wzp, [&](int64_t z) { return z != wzp[0]; }))
      return op->emitOpError("per-channel weight zero points that differ need a correction term; "
                             "MATRIX subtracts one b_zp");
    return lowerConv(op, conv.getInput(), conv.getWeight(), conv.getBias(), conv.getResult(),
                     conv.getStrides(), conv.getPads(), conv.getDilations(), conv.getGroups(),
                     conv.getInputZp(), wzp[0], conv.getRequantAttr());
  }
  if (auto conv = dyn_cast<graph::ConvOp>(op)) {
    if (!tensorOf(conv.getResult()).getElementType().isF32())
      return op->emitOpError("non-f32 graph.conv reaches emission unquantized");
    if (tensorOf(conv.getX()).getRank() != 4)
      return op->emitOpError("convolution lowering handles 2-D (NCHW) inputs");
    return lowerConv(op, conv.getX(), conv.getW(), conv.getBias(), conv.getResult(),
                     conv.getStrides(), conv.getPads(), conv.getDilations(), conv.getGroup(), 0, 0,
                     {});
  }
  return op->emitOpError("has no NPU lowering yet");
}

LogicalResult KernelLowering::run(func::FuncOp func) {
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  // A model file's inputs and outputs have its element types (a folded Shape
  // result, int64, or a bool mask cannot cross the boundary).
  auto checkBoundary = [&](Value v, StringRef what, StringAttr name, size_t index) -> LogicalResult {
    Type st = storageOf(tensorOf(v).getElementType());
    if (isModelStorage(st))
      return success();
    return emitError(v.getLoc()) << what << " " << index
                                 << (name ? (" '" + name.getValue() + "'").str() : std::string())
                                 << " has element type " << st
                                 << "; model files hold i8, ui8, i16, i32, f16 and f32 tensors";
  };
  for (BlockArgument arg : body.getArguments())
    if (failed(checkBoundary(arg, "graph input",
                             func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "graph.name"),
                             arg.getArgNumber())))
      return failure();
  for (auto [i, v] : llvm::enumerate(ret.getOperands()))
    if (failed(checkBoundary(v, "graph output",
                             func.getResultAttrOfType<StringAttr>(unsigned(i), "graph.name"), i)))
      return failure();
  // Inputs.
  for (BlockArgument arg : body.getArguments()) {
    auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "graph.name");
    e.loc = arg.getLoc();
    std::string fallback = "input_" + std::to_string(arg.getArgNumber());
    gm[arg] = ioBuffer(MemorySpace::Input, inputBytes, name ? name.getValue() : StringRef(fallback),
                       tensorOf(arg));
  }
  // Outputs: the producing op writes straight into the output region when
  // the returned value is its own result; otherwise a copy does.
  SmallVector<std::pair<Value, Value>> copies;
  llvm::DenseSet<Value> claimed;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    auto name = func.getResultAttrOfType<StringAttr>(unsigned(i), "graph.name");
    e.loc = v.getLoc();
    std::string fallback = "output_" + std::to_string(i);
    Value out = ioBuffer(MemorySpace::Output, outputBytes,
                         name ? name.getValue() : StringRef(fallback), tensorOf(v));
    // Through views back to the op that computes the bytes.
    Value root = v;
    while (root.getDefiningOp() && llvm::isa<graph::StorageCastOp, graph::ReshapeOp>(root.getDefiningOp()))
      root = root.getDefiningOp()->getOperand(0);
    Operation *def = root.getDefiningOp();
    if (def && !llvm::isa<graph::ConstantOp>(def) && claimed.insert(root).second) {
      auto rt = tensorOf(root);
      Type st = storageOf(rt.getElementType());
      gm[root] = e.view(e.retype(out, st), 0, rt.getShape(), denseStrides(rt.getShape(), bytesOf(st)));
    } else {
      copies.push_back({v, out});
    }
  }
  for (Operation &op : body.without_terminator())
    if (failed(lower(&op)))
      return failure();
  for (auto [v, out] : copies) {
    e.loc = v.getLoc();
    Value src = gmOf(v);
    auto st = cast<BufferType>(src.getType());
    if (failed(lowerCopy(ret, src, out, st.getShape(), st.getStrides())))
      return failure();
  }
  return success();
}

namespace {

struct ConvertKernelToEmitPass
    : npuc::impl::ConvertKernelToEmitBase<ConvertKernelToEmitPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    const target::TargetInfo *t = target::lookupTarget(targetName);
    if (!t) {
      module.emitError() << "unknown target '" << targetName << "'; valid targets: "
                         << target::targetNames();
      return signalPassFailure();
    }
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    if (funcs.size() != 1) {
      module.emitError() << "expects one function to compile, found " << funcs.size();
      return signalPassFailure();
    }
    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(module.getBody());
    auto program = ProgramOp::create(b, funcs[0].getLoc(), b.getStringAttr(t->name));
    program.getBody().emplaceBlock();
    b.setInsertionPointToStart(&program.getBody().front());
    KernelLowering lowering(b, *t);
    if (failed(lowering.run(funcs[0]))) {
      program.erase();
      return signalPassFailure();
    }
    funcs[0].erase();
  }
};

} // namespace
