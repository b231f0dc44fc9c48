//===- OpsQuant.cpp - QDQ and QOperator importers -------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Quantization becomes types: a scale and zero point (constant inputs) build a
// !quant.uniform element type, per tensor or per axis. QuantizeLinear and
// DequantizeLinear become graph.quantize / graph.dequantize with
// graph.storage_cast to and from ONNX's integer tensors; a constant that is
// dequantized becomes a quantized constant. QOperator ops (QLinearConv,
// QLinearMatMul, com.microsoft QLinearAdd/QLinearMul) become the graph op on
// quantized operands, so both forms meet in one representation.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"

using namespace mlir;
using namespace npuc::onnx_import;

Type npuc::onnx_import::plainStorage(NodeContext &c, quant::QuantizedType q) {
  unsigned w = q.getStorageTypeIntegralWidth();
  return q.isSigned() ? Type(c.b.getIntegerType(w)) : Type(c.b.getIntegerType(w, false));
}

/// Integer tensor `v` seen as quantized type `q`: a quantized constant when
/// `v` is constant, else a storage_cast.
FailureOr<Value> npuc::onnx_import::asQuantized(NodeContext &c, const Val &v, quant::QuantizedType q) {
  auto type = c.tensor(v.shape(), q);
  if (v.element() != plainStorage(c, q)) {
    (void)c.fail(code::UnsupportedType,
                 "quantized data of type " + llvm::Twine(v.element().isUnsignedInteger() ? "uint" : "int") +
                     llvm::Twine(v.element().getIntOrFloatBitWidth()) +
                     " does not match its zero point's type");
    return failure();
  }
  if (v.constant) {
    // The storage values stay; only the type says what they mean.
    DenseElementsAttr storage = DenseElementsAttr(v.constant).bitcast(c.b.getIntegerType(q.getStorageTypeIntegralWidth()));
    return c.constant(storage, type).value;
  }
  return c.build<graph::StorageCastOp>({v.value}, type);
}

LogicalResult npuc::onnx_import::buildQuantizedOutput(NodeContext &c, GraphOpBuilder op,
                                                      ValueRange operands, ArrayRef<int64_t> shape,
                                                      quant::QuantizedType q,
                                                      ArrayRef<NamedAttribute> attrs) {
  FailureOr<Value> r = c.build(op, operands, c.tensor(shape, q), attrs);
  if (failed(r))
    return failure();
  // Both the quantized value and its storage view are the node's output
  // (TensorNames.h): rewrites that fuse the quantized op keep the name when
  // the view folds away.
  if (c.node.output_size() && !c.node.output(0).empty())
    r->getDefiningOp()->setLoc(graph::withTensorNames(c.loc, {c.node.output(0)}));
  return c.buildOutput<graph::StorageCastOp>({*r}, c.tensor(shape, plainStorage(c, q)));
}

namespace {
/// The quantized element type of input `valueIdx`, from the constant scale
/// and zero point at `scaleIdx` / `zpIdx` (-1: absent). A 1-D scale of more
/// than one element is per axis along `axis` of a tensor of `shape`.
std::optional<quant::QuantizedType> quantType(NodeContext &c, int scaleIdx, int zpIdx,
                                              ArrayRef<int64_t> shape, int64_t axis,
                                              Type expressed, Type storage = {}) {
  DenseElementsAttr scale = c.requiredConstant(size_t(scaleIdx), "scale");
  if (!scale)
    return std::nullopt;
  if (!isa<FloatType>(scale.getElementType())) {
    (void)c.fail(code::UnsupportedType, "scale must be a float");
    return std::nullopt;
  }
  DenseElementsAttr zp;
  if (zpIdx >= 0 && c.input(size_t(zpIdx)) && !(zp = c.requiredConstant(size_t(zpIdx), "zero point")))
    return std::nullopt;
  Type zpType = zp ? zp.getElementType() : (storage ? storage : Type(c.b.getIntegerType(8, false)));
  auto zpInt = dyn_cast<IntegerType>(zpType);
  if (!zpInt || (zpInt.getWidth() != 8 && zpInt.getWidth() != 16 && zpInt.getWidth() != 32)) {
    (void)c.fail(code::UnsupportedType, "zero point type must be an 8-, 16- or 32-bit integer");
    return std::nullopt;
  }
  bool isSigned = !zpInt.isUnsigned();
  unsigned width = zpInt.getWidth();
  int64_t lo = isSigned ? -(int64_t(1) << (width - 1)) : 0;
  int64_t hi = isSigned ? (int64_t(1) << (width - 1)) - 1 : (int64_t(1) << width) - 1;
  Type storageType = c.b.getIntegerType(width);
  unsigned flags = isSigned ? quant::QuantizationFlags::Signed : 0;
  SmallVector<double> scales;
  for (const APFloat &f : scale.getValues<APFloat>()) {
    double s = FloatAttr::getValueAsDouble(f);
    if (!(s > 0) || !std::isfinite(s)) {
      (void)c.fail(code::UnsupportedAttr, "scale " + std::to_string(s) + " is not positive and finite");
      return std::nullopt;
    }
    scales.push_back(s);
  }
  SmallVector<int64_t> zps;
  if (zp)
    for (const APInt &v : zp.getValues<APInt>())
      zps.push_back(isSigned ? v.getSExtValue() : int64_t(v.getZExtValue()));
  else
    zps.assign(scales.size(), 0);
  if (zps.size() != scales.size()) {
    (void)c.fail(code::ShapeMismatch, "scale and zero point differ in size");
    return std::nullopt;
  }
  if (scale.getType().getRank() == 0 || scales.size() == 1)
    return quant::UniformQuantizedType::get(flags, storageType, expressed, scales[0], zps[0], lo, hi);
  auto a = c.axis(axis, int64_t(shape.size()));
  if (!a)
    return std::nullopt;
  if (int64_t(scales.size()) != shape[*a]) {
    (void)c.fail(code::ShapeMismatch, "per-axis scale has " + llvm::Twine(scales.size()) +
                                          " entries, but axis " + llvm::Twine(*a) + " has size " +
                                          llvm::Twine(shape[*a]));
    return std::nullopt;
  }
  return quant::UniformQuantizedPerAxisType::get(flags, storageType, expressed, scales, zps,
                                                  int32_t(*a), lo, hi);
}


/// Attributes of QuantizeLinear and DequantizeLinear from opset 21 on that
/// change their arithmetic: blocked scales (block_size, 21) and the
/// precision the scale is applied in (precision, 23): refused unless they
/// are the defaults, never ignored.
LogicalResult checkQDQAttributes(NodeContext &c) {
  if (int64_t b = c.intAttr("block_size", 0))
    return c.fail(code::UnsupportedAttr, "blocked quantization (block_size " + std::to_string(b) +
                                             ") is not supported; scales are per tensor or per axis");
  if (int64_t p = c.intAttr("precision", 0))
    return c.fail(code::UnsupportedAttr, "precision " + std::to_string(p) +
                                             " is not supported; the scale is applied in float");
  return success();
}

/// True when QuantizeLinear's / DequantizeLinear's scale or zero point is
/// computed at run time (DynamicQuantizeLinear's outputs, say): such a node
/// cannot be a quantized type and is ONNX's definition in f32 graph ops.
bool hasRunTimeParameters(NodeContext &c) {
  std::optional<Val> scale = c.input(1), zp = c.input(2);
  return (scale && !scale->constant) || (zp && !zp->constant);
}

/// A scale or zero point `v` shaped to broadcast against data of rank `rank`:
/// a scalar stays, a 1-D tensor of more than one element lies along `axis`.
FailureOr<Value> broadcastParameter(NodeContext &c, const Val &v, ArrayRef<int64_t> shape, int64_t axisAttr,
                                    StringRef what) {
  if (v.type().getNumElements() == 1)
    return v.value;
  std::optional<int64_t> a = c.axis(axisAttr, int64_t(shape.size()));
  if (!a)
    return failure();
  if (v.shape().size() != 1 || v.shape()[0] != shape[*a])
    return (void)c.fail(code::ShapeMismatch, llvm::Twine(what) + " has " + llvm::Twine(v.type().getNumElements()) +
                                                 " elements; per axis it needs one per element of axis " +
                                                 llvm::Twine(*a) + " (" + llvm::Twine(shape[*a]) + ")"),
           failure();
  SmallVector<int64_t> s(shape.size(), 1);
  s[size_t(*a)] = shape[*a];
  return c.build<graph::ReshapeOp>({v.value}, c.tensor(s, v.element()));
}

/// A zero point as f32, shaped to broadcast against data of `shape`.
FailureOr<Value> zeroPointF32(NodeContext &c, const Val &zp, ArrayRef<int64_t> shape, int64_t axis) {
  FailureOr<Value> z = broadcastParameter(c, zp, shape, axis, "zero point");
  if (failed(z))
    return failure();
  return c.build<graph::CastOp>({*z}, c.tensor(cast<RankedTensorType>(z->getType()).getShape(), c.b.getF32Type()));
}

/// QuantizeLinear with a run-time scale or zero point: saturate(round(x /
/// scale) + zero point) in f32, rounding half to even, cast to the 8- or
/// 16-bit storage type.
LogicalResult importRunTimeQuantize(NodeContext &c, const Val &x, Type storage) {
  std::optional<Val> scale = c.required(1), zp = c.input(2);
  if (!scale)
    return failure();
  Type f32 = c.b.getF32Type();
  if (x.element() != f32 || scale->element() != f32)
    return c.fail(code::UnsupportedType, "QuantizeLinear with a run-time scale takes f32 data and an f32 scale");
  if (zp)
    storage = zp->element();
  auto st = dyn_cast<IntegerType>(storage);
  if (!st || (st.getWidth() != 8 && st.getWidth() != 16))
    return c.fail(code::UnsupportedType, "QuantizeLinear with a run-time scale quantizes to 8- or 16-bit integers");
  int64_t axis = c.intAttr("axis", 1);
  FailureOr<Value> s = broadcastParameter(c, *scale, x.shape(), axis, "scale");
  if (failed(s))
    return failure();
  RankedTensorType type = x.type();
  FailureOr<Value> q = c.build<graph::DivOp>({x.value, *s}, type);
  if (succeeded(q))
    q = c.build<graph::RoundOp>({*q}, type);
  if (succeeded(q) && zp) {
    FailureOr<Value> z = zeroPointF32(c, *zp, x.shape(), axis);
    if (failed(z))
      return failure();
    q = c.build<graph::AddOp>({*q, *z}, type);
  }
  if (failed(q))
    return failure();
  bool isSigned = !st.isUnsigned();
  unsigned w = st.getWidth();
  double lo = isSigned ? -double(int64_t(1) << (w - 1)) : 0.0;
  double hi = isSigned ? double((int64_t(1) << (w - 1)) - 1) : double((int64_t(1) << w) - 1);
  q = c.build<graph::ClipOp>({*q}, type, {c.named("min", c.b.getF64FloatAttr(lo)), c.named("max", c.b.getF64FloatAttr(hi))});
  if (failed(q))
    return failure();
  return c.buildOutput<graph::CastOp>({*q}, c.tensor(x.shape(), storage));
}

/// DequantizeLinear with a run-time scale or zero point: (x - zero point) *
/// scale in f32; 8- and 16-bit integers and their differences are exact in
/// f32, and an int32 x has no zero point (ONNX).
LogicalResult importRunTimeDequantize(NodeContext &c, const Val &x) {
  std::optional<Val> scale = c.required(1), zp = c.input(2);
  if (!scale)
    return failure();
  Type f32 = c.b.getF32Type();
  if (scale->element() != f32)
    return c.fail(code::UnsupportedType, "DequantizeLinear with a run-time scale takes an f32 scale");
  if (zp && zp->element() != x.element())
    return c.fail(code::UnsupportedType, "the zero point's type differs from the data's");
  if (zp && x.element().isInteger(32))
    return c.fail(code::UnsupportedAttr, "int32 data takes no zero point");
  int64_t axis = c.intAttr("axis", 1);
  auto type = c.tensor(x.shape(), f32);
  FailureOr<Value> v = c.build<graph::CastOp>({x.value}, type);
  if (succeeded(v) && zp) {
    FailureOr<Value> z = zeroPointF32(c, *zp, x.shape(), axis);
    if (failed(z))
      return failure();
    v = c.build<graph::SubOp>({*v, *z}, type);
  }
  FailureOr<Value> s = broadcastParameter(c, *scale, x.shape(), axis, "scale");
  if (failed(v) || failed(s))
    return failure();
  return c.buildOutput<graph::MulOp>({*v, *s}, type);
}

LogicalResult importQuantize(NodeContext &c) {
  if (failed(checkQDQAttributes(c)))
    return failure();
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  if (!isa<FloatType>(x->element()))
    return c.fail(code::UnsupportedType, "QuantizeLinear of non-float data is not supported");
  // Without a zero point the storage is uint8, or output_dtype (opset 21).
  Type storage;
  if (int64_t dt = c.intAttr("output_dtype", 0)) {
    std::optional<Type> t = c.imp.elementType(int32_t(dt));
    if (!t || !isa<IntegerType>(*t))
      return c.fail(code::UnsupportedType, "output_dtype " + llvm::Twine(dt) + " is not supported");
    storage = *t;
  }
  if (hasRunTimeParameters(c))
    return importRunTimeQuantize(c, *x, storage ? storage : Type(c.b.getIntegerType(8, false)));
  auto q = quantType(c, 1, 2, x->shape(), c.intAttr("axis", 1), x->element(), storage);
  if (!q)
    return failure();
  return buildQuantizedOutput(c, graphOp<graph::QuantizeOp>, {x->value}, x->shape(), *q);
}

LogicalResult importDequantize(NodeContext &c) {
  if (failed(checkQDQAttributes(c)))
    return failure();
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  if (!isa<IntegerType>(x->element()) || x->element().isInteger(64) || x->element().isInteger(1))
    return c.fail(code::UnsupportedType, "DequantizeLinear of data that is not 8-, 16- or 32-bit integers");
  if (hasRunTimeParameters(c))
    return importRunTimeDequantize(c, *x);
  auto q = quantType(c, 1, 2, x->shape(), c.intAttr("axis", 1), c.b.getF32Type(), x->element());
  if (!q)
    return failure();
  FailureOr<Value> quantized = asQuantized(c, *x, *q);
  if (failed(quantized))
    return failure();
  return c.buildOutput<graph::DequantizeOp>({*quantized}, c.tensor(x->shape(), c.b.getF32Type()));
}

/// QLinearAdd / QLinearMul (com.microsoft): A, A_scale, A_zp, B, B_scale, B_zp, C_scale, C_zp.
LogicalResult importQLinearBinary(NodeContext &c) {
  std::optional<Val> a = c.required(0), b = c.required(3);
  if (!a || !b)
    return failure();
  Type f32 = c.b.getF32Type();
  auto qa = quantType(c, 1, 2, a->shape(), 0, f32, a->element());
  auto qb = quantType(c, 4, 5, b->shape(), 0, f32, b->element());
  auto qc = quantType(c, 6, 7, {}, 0, f32, a->element());
  if (!qa || !qb || !qc)
    return failure();
  FailureOr<Value> va = asQuantized(c, *a, *qa), vb = asQuantized(c, *b, *qb);
  if (failed(va) || failed(vb))
    return failure();
  auto shape = sh::broadcast(a->shape(), b->shape());
  if (!shape)
    return c.fail(code::ShapeMismatch, llvm::toString(shape.takeError()));
  GraphOpBuilder op =
      c.node.op_type() == "QLinearAdd" ? graphOp<graph::AddOp> : graphOp<graph::MulOp>;
  return buildQuantizedOutput(c, op, {*va, *vb}, *shape, *qc);
}

LogicalResult importQLinearMatMul(NodeContext &c) {
  std::optional<Val> a = c.required(0), b = c.required(3);
  if (!a || !b)
    return failure();
  Type f32 = c.b.getF32Type();
  // Per-row scales of a (axis rank - 2), per-column scales of b (axis rank - 1).
  auto qa = quantType(c, 1, 2, a->shape(), std::max<int64_t>(0, int64_t(a->shape().size()) - 2), f32,
                      a->element());
  auto qb = quantType(c, 4, 5, b->shape(), int64_t(b->shape().size()) - 1, f32, b->element());
  auto qy = quantType(c, 6, 7, {}, 0, f32, a->element());
  if (!qa || !qb || !qy)
    return failure();
  FailureOr<Value> va = asQuantized(c, *a, *qa), vb = asQuantized(c, *b, *qb);
  if (failed(va) || failed(vb))
    return failure();
  auto shape = sh::matmul(a->shape(), b->shape());
  if (!shape)
    return c.fail(code::ShapeMismatch, llvm::toString(shape.takeError()));
  return buildQuantizedOutput(c, graphOp<graph::MatMulOp>, {*va, *vb}, *shape, *qy);
}
/// QLinearConv: x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, [B].
LogicalResult importQLinearConv(NodeContext &c) {
  std::optional<Val> x = c.required(0), w = c.required(3);
  if (!x || !w)
    return failure();
  Type f32 = c.b.getF32Type();
  auto qx = quantType(c, 1, 2, x->shape(), 0, f32, x->element());
  auto qw = quantType(c, 4, 5, w->shape(), 0, f32, w->element());
  auto qy = quantType(c, 6, 7, {}, 0, f32, x->element());
  if (!qx || !qw || !qy)
    return failure();
  FailureOr<Value> vx = asQuantized(c, *x, *qx), vw = asQuantized(c, *w, *qw);
  if (failed(vx) || failed(vw))
    return failure();
  SmallVector<Value> operands{*vx, *vw};
  if (std::optional<Val> bias = c.input(8)) {
    // int32 bias at the accumulator scale x_scale * w_scale, zero point 0.
    if (!bias->constant || !bias->element().isInteger(32))
      return c.fail(code::NotConstant, "the bias of QLinearConv must be a constant int32 tensor");
    double xs = cast<quant::UniformQuantizedType>(*qx).getScale();
    Type biasQ;
    Type i32 = c.b.getIntegerType(32);
    if (auto pw = dyn_cast<quant::UniformQuantizedPerAxisType>(*qw)) {
      SmallVector<double> scales;
      for (double s : pw.getScales())
        scales.push_back(xs * s);
      biasQ = quant::UniformQuantizedPerAxisType::get(quant::QuantizationFlags::Signed, i32, f32, scales,
                                                       SmallVector<int64_t>(scales.size(), 0), 0,
                                                       INT32_MIN, INT32_MAX);
    } else {
      biasQ = quant::UniformQuantizedType::get(quant::QuantizationFlags::Signed, i32, f32,
                                               xs * cast<quant::UniformQuantizedType>(*qw).getScale(), 0,
                                               INT32_MIN, INT32_MAX);
    }
    operands.push_back(c.constant(bias->constant, c.tensor(bias->shape(), biasQ)).value);
  }
  std::optional<ConvGeometry> g = convGeometry(c, *x, *w);
  if (!g)
    return failure();
  return buildQuantizedOutput(c, graphOp<graph::ConvOp>, operands, g->shape, *qy,
                              convAttrs(c, *g));
}
} // namespace

void npuc::onnx_import::registerQuantOps(llvm::StringMap<OpImporter> &t) {
  t["QuantizeLinear"] = importQuantize;
  t["DequantizeLinear"] = importDequantize;
  t["QLinearMatMul"] = importQLinearMatMul;
  t["QLinearConv"] = importQLinearConv;
  t["com.microsoft::QLinearAdd"] = importQLinearBinary;
  t["com.microsoft::QLinearMul"] = importQLinearBinary;
}

namespace {
const llvm::StringMap<OpImporter> &opTable() {
  static const llvm::StringMap<OpImporter> table = [] {
    llvm::StringMap<OpImporter> t;
    registerElementwiseOps(t);
    registerNNOps(t);
    registerTensorOps(t);
    registerQuantOps(t);
    registerExtraOps(t);
    registerIntegerOps(t);
    registerSequenceOps(t);
    registerControlOps(t);
    registerSignalOps(t);
    registerTrainingOps(t);
    registerAttentionOps(t);
    registerScatterOps(t);
    registerSumOps(t);
    registerGridSampleOps(t);
    registerResizeOps(t);
    registerDecomposedOps(t);
    return t;
  }();
  return table;
}
} // namespace

OpImporter npuc::onnx_import::lookupOpImporter(StringRef domain, StringRef opType) {
  std::string key = domain.empty() || domain == "ai.onnx" ? opType.str() : (domain + "::" + opType).str();
  auto it = opTable().find(key);
  return it == opTable().end() ? nullptr : it->second;
}

std::vector<std::pair<std::string, std::string>> npuc::onnx_import::importedOps() {
  std::vector<std::pair<std::string, std::string>> ops;
  for (const auto &entry : opTable()) {
    StringRef key = entry.getKey();
    size_t sep = key.find("::");
    if (sep == StringRef::npos)
      ops.push_back({"", key.str()});
    else
      ops.push_back({key.take_front(sep).str(), key.drop_front(sep + 2).str()});
  }
  std::sort(ops.begin(), ops.end());
  return ops;
}
