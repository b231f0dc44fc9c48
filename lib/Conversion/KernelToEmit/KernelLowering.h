//===- KernelLowering.h - Kernels to engine operations, shared state -------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Private to lib/Conversion/KernelToEmit: the lowering state of one function
// (its GM buffers and the Emitter), shared by the dispatch and buffers
// (KernelToEmit.cpp), the elementwise, reduction and pooling kernels
// (ElementwiseKernels.cpp), the data-movement kernels (TensorKernels.cpp) and
// the MATRIX kernels (MatrixKernels.cpp). Each op has a selector, which checks
// that its lowering handles it and records its lowering case (LoweringCase.h),
// and a lowering that branches on that case; both are declared here and
// paired in KernelToEmit.cpp's op table.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_CONVERSION_KERNELTOEMIT_KERNELLOWERING_H
#define NPUC_LIB_CONVERSION_KERNELTOEMIT_KERNELLOWERING_H

#include "Emitter.h"
#include "npuc/Schedule/ConvTiling.h"
#include "npuc/Schedule/DepthwiseTiling.h"
#include "npuc/Schedule/ElementwiseTiling.h"
#include "LoweringCase.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"
#include "npuc/Dialect/QK/IR/QKOps.h"
#include "npuc/Dialect/Emit/IR/EmitISA.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"

#include <functional>
#include <optional>

namespace npuc::emit::lowering {
using namespace mlir;

/// The tiling select-tiling chose for a kernel, a #qk.tiling (QKAttributes.td).
/// The lowering reads it and never picks its own.
inline constexpr llvm::StringLiteral kTilingAttr = "npuc.tiling";
/// The tilings select-tiling chose for an op's elementwise loop nests, in the
/// order the lowering emits them (ElementwiseTiling.h): an array of
/// #qk.tiling with a space of four extents.
inline constexpr llvm::StringLiteral kLoopTilingAttr = "npuc.loop_tiling";


/// The matrix product a matmul-kind op (qk.matmul, graph.matmul, graph.gemm)
/// lowers to, or nullopt for any other op.
std::optional<MatmulProblem> matmulProblem(Operation *op);

/// The depthwise convolution (one input and one output channel per group,
/// NCHW; integer, or f32 including a ConvTranspose's) `op` lowers to on
/// VECTOR, or nullopt.
std::optional<DepthwiseProblem> depthwiseProblem(Operation *op);

/// The pooling (qk.pool) `op` lowers to on V_DW
/// (func MAX or SUM), or nullopt.
std::optional<DepthwiseProblem> poolProblem(Operation *op);

/// The dense or grouped convolution (NCHW, integer or f32, constant weights,
/// its window's rows undilated) `op` lowers to with its window gathered in
/// LM (ConvTiling.h), or nullopt: the depthwise and pointwise kinds, and the
/// others, which gather im2col from GM.
std::optional<ConvProblem> convProblem(Operation *op);

/// Whether a ConvTranspose's windows do not overlap (kernel = stride, no pads,
/// dilations or output padding, one group; f32 with constant weights and
/// bias): a pointwise product and a depth-to-space copy.
bool isDepthToSpace(qk::ConvTransposeOp op);

/// Whether `op` is a convolution the lowering runs as a matrix product
/// (pointwise: NCHW, 1x1, stride 1, unpadded, one group).
bool isPointwise(Operation *op);

/// ISA field limits the kernels tile against, generated from ISA.td
/// (npuc-tblgen); a lowering never retypes them.
inline constexpr int64_t kMatrixExtentMax = isa::limit::MATMUL::m_max;  // m, n and k
inline constexpr int64_t kDmaPadMax = isa::limit::DMA_IN_PAD::lo0_max;
static_assert(kMatrixExtentMax == isa::limit::MATMUL::n_max &&
                  kMatrixExtentMax == isa::limit::MATMUL::k_max,
              "one MATRIX extent limit");

/// The type a tensor's elements are stored as: a quantized type's storage;
/// bool (i1) as i8 0/1; int64, uint16 and uint32 as i32 (the boundary types
/// of docs/model-format.md: ids, indices, counts and masks, narrowed where
/// they enter and widened where they leave).
inline Type storageOf(Type element) {
  MLIRContext *ctx = element.getContext();
  if (auto q = dyn_cast<quant::QuantizedType>(element)) {
    unsigned w = q.getStorageTypeIntegralWidth();
    return q.isSigned() ? Type(IntegerType::get(ctx, w))
                        : Type(IntegerType::get(ctx, w, IntegerType::Unsigned));
  }
  if (auto i = dyn_cast<IntegerType>(element)) {
    if (i.getWidth() == 1)
      return IntegerType::get(ctx, 8);
    if ((i.getWidth() == 64 && !i.isUnsigned()) ||
        (i.isUnsigned() && (i.getWidth() == 16 || i.getWidth() == 32)))
      return IntegerType::get(ctx, 32);
    if (i.isSigned())
      return IntegerType::get(ctx, i.getWidth());
  }
  return element;
}

/// Whether `element` crosses the model file's boundary as a type of its own
/// over its storage type (bool, int64, uint16, uint32).
inline bool isBoundaryType(Type element) {
  auto i = dyn_cast<IntegerType>(element);
  return i && storageOf(element) != element &&
         (i.getWidth() == 1 || i.getWidth() == 64 || i.isUnsigned());
}

/// Whether a model file can hold a tensor stored as `st`: i8, ui8, i16, i32,
/// f16, f32 (docs/model-format.md).
inline bool isModelStorage(Type st) {
  if (st.isF32() || st.isF16())
    return true;
  auto i = dyn_cast<IntegerType>(st);
  return i && (i.getWidth() == 8 || ((i.getWidth() == 16 || i.getWidth() == 32) && !i.isUnsigned()));
}

inline RankedTensorType tensorOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// Scales and zero points of a quantized type, per tensor or along `axis`.
using Quant = graph::QuantParameters;
inline std::optional<Quant> quantOf(Type element) { return graph::quantParameters(element); }

/// Whether two element types store the same values the same way: plain, or
/// quantized with one storage type, scale and zero point (int8 and uint8 of
/// equal parameters are not: their bytes mean different values).
inline bool sameQuant(Type a, Type b) {
  auto qa = quantOf(a), qb = quantOf(b);
  if (!qa || !qb)
    return !qa && !qb;
  return storageOf(a) == storageOf(b) && qa->axis == qb->axis && qa->scales == qb->scales &&
         qa->zeroPoints == qb->zeroPoints;
}

/// One operand of an elementwise kernel: its GM buffer and its byte strides
/// against the kernel's 4-D iteration space (0 where it broadcasts).
struct EwOperand {
  Value gm;
  SmallVector<int64_t, 4> strides;
  /// A per-channel parameter (scale, zero point, BatchNorm operand): when it
  /// is constant along the tile's columns it is loaded as one value per row,
  /// a [rows, 1] tile the VECTOR engine broadcasts by address (b_bcast), not
  /// a copy at the tensor's size (contract N7).
  bool perRow = false;
};

/// The LM tiles an elementwise body works on: one per operand, the output
/// tile, and the grid.
struct EwTiles {
  SmallVector<Value> in;
  Value out;
  int64_t rows, cols;
};

/// The selectors (LoweringCase.h), one per op or family of ops, each defined
/// next to the lowering that branches on what it records.
LogicalResult selectView(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &viewSpace();
LogicalResult selectQuantize(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &quantizeSpace();
LogicalResult selectDequantize(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &dequantizeSpace();
LogicalResult selectRequantize(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &requantizeSpace();
LogicalResult selectBinary(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &binarySpace();
LogicalResult selectUnary(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &unarySpace();
LogicalResult selectF32Map(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &f32MapSpace();
LogicalResult selectGelu(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &geluSpace();
LogicalResult selectClip(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &clipSpace();
LogicalResult selectLeakyRelu(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &leakyReluSpace();
LogicalResult selectSoftmax(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &softmaxSpace();
LogicalResult selectPool(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &poolSpace();
LogicalResult selectReduce(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &reduceSpace();
LogicalResult selectChannelParams(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &channelParamsSpace();
LogicalResult selectLayerNorm(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &layerNormSpace();
LogicalResult selectPow(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &powSpace();
LogicalResult selectCompare(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &compareSpace();
LogicalResult selectLogic(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &notSpace();
LogicalResult selectWhere(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &whereSpace();
LogicalResult selectCast(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &castSpace();
/// How a Cast between two plain case types converts, or none when it has no
/// lowering (LogicKernels.cpp).
std::optional<Conversion> castConversion(StringRef from, StringRef to);
LogicalResult selectArg(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &argSpace();
LogicalResult selectConcat(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &concatSpace();
LogicalResult selectPad(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &padSpace();
/// qk.copy: strided copies, one per address plan.
LogicalResult selectCopy(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &copySpace();
LogicalResult selectMatmul(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &matmulSpace();
LogicalResult selectConv(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &convSpace();
LogicalResult selectConvTranspose(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &convTransposeSpace();

/// Whether a per-axis parameter (scale or zero point) is loaded as one value
/// per tile row: some dimension after the axis has more than one element (it
/// is constant along the tile's columns); otherwise the axis is the innermost
/// dimension and the parameter is copied at the tile's size (elementwise()).
bool paramsPerRow(ArrayRef<int64_t> shape, int64_t axis);

/// Shared by the matrix products and the convolutions (MatrixKernels.cpp):
/// a diagnostic when no MATRIX mode (emit::matrixMode) multiplies operands
/// stored as `a` and `w`.
LogicalResult checkMatrixTypes(Operation *op, Type a, Type w);
/// What pointwiseProblem and depthwiseProblem read of a qk.conv2d (NCHW) or
/// a graph.conv.
struct ConvOperands {
  Value x, w, y, b;  // b: the bias, or null
  int64_t groups = 1;
  ArrayRef<int64_t> strides, pads, dil;
  bool bias = false;
  bool integer = false;  // qk.conv2d
  qk::RequantAttr rq;
};
std::optional<ConvOperands> convOperands(Operation *op);
/// The value of a constant tensor, through storage casts, or null.
DenseElementsAttr constantValue(Value v);

/// What lowerConvBuffers branches on, from the op's lowering case.
struct ConvPlan {
  bool depthwise = false;  // one input and one output channel per group
  bool padded = false;     // pads first, into an arena copy
  bool window1x1 = false;  // im2col of a 1x1 window: one 3-D DMA per tile
};

/// A convolution whose im2col tiles come from GM, as describe() records it
/// for select-tiling (chooseIm2colTiling).
struct Im2colProduct {
  Operation *op;
  MatmulProblem problem;
  int64_t OW, khw;
};

/// A Relu or Clip fused into an f32 convolution (graph-fuse-activation): the
/// epilogue applies it to every float result tile in ACC, as the standalone
/// ops do (RELU; MAX, then MIN).
struct FloatActivation {
  Activation kind = Activation::None;
  std::optional<float> lo, hi;
};

/// What a kernel's epilogue does to each accumulator tile before the store:
/// the bias (per column, or per row with `biasPerRow`) and the
/// requantization (per tensor, or by a table per column, per row with
/// `perRow`) through the MATRIX output stage; for a float result the bias on
/// VECTOR and the fused activation. The bias and the table are GM buffers,
/// or LM ones already resident (used as they are). With `fused`, the bias and
/// a Relu were applied with the products (v_dw): only a clip's bounds and the
/// store are left.
struct Epilogue {
  Value bias;
  qk::RequantAttr rq;
  Value params;
  bool perRow = false, biasPerRow = false, fused = false;
  FloatActivation activation;
};

/// A convolution's zero points, requantization and fused activation.
struct ConvContract {
  int64_t xzp = 0, wzp = 0;
  qk::RequantAttr rq;
  FloatActivation activation;
};

/// The GM buffers of a convolution Y = X * W (+ Bias).
struct ConvBuffers {
  Value x, w, bias, y;
};

/// A convolution's strides, pads, dilations and groups.
struct ConvGeometry {
  ArrayRef<int64_t> strides, pads, dilations;
  int64_t groups = 1;
};

/// The GM buffers of a matrix product C = A x B (+ Bias).
struct ProductBuffers {
  Value a, b, bias, c;
};
/// What a matrix product computes beyond A x B: the operands' zero points,
/// the requantization (per row with `perRow`: weights on the left), a bias
/// per row or per column, Gemm's alpha and beta * addend, and a float
/// convolution's fused activation (a pointwise one is a product).
struct ProductContract {
  int64_t azp = 0, bzp = 0;
  qk::RequantAttr rq;
  bool perRow = false, biasPerRow = false;
  float alpha = 1.0f;
  Value addend;
  float beta = 1.0f;
  FloatActivation activation;
};

class KernelLowering;
/// One op's lowering: the op it handles (its name, for the evidence and
/// --list-cases, and its TypeID, for the dispatch), its selector and its
/// lowering.
struct OpLowering {
  llvm::StringLiteral name;
  TypeID id;
  Selector select;
  LogicalResult (KernelLowering::*lower)(const LoweringCase &);
  SpaceOf space;
};
/// The lowering of op class OpTy.
template <typename OpTy>
OpLowering opLowering(Selector select,
                      LogicalResult (KernelLowering::*lower)(const LoweringCase &), SpaceOf space) {
  return {OpTy::getOperationName(), TypeID::get<OpTy>(), select, lower, space};
}

class KernelLowering {
public:
  KernelLowering(OpBuilder &b, const target::TargetInfo &t) : e(b, t), b(b), t(t) {}

  LogicalResult run(func::FuncOp func);
  /// Runs the lowering of `func` (into a program the caller discards) and
  /// lists, per op in order, the elementwise loop nests it would emit, which
  /// it records instead of emitting: select-tiling's view of each nest's
  /// iteration space, built by the code that will walk it. A kernel of no
  /// loop nest (lowerMatmulBuffers, lowerWindowConv, lowerDepthwise,
  /// lowerPool) returns before it emits anything.
  LogicalResult describe(func::FuncOp func,
                         std::vector<std::pair<Operation *, ElementwiseProblem>> &nests,
                         std::vector<Im2colProduct> &products);

  // The op lowerings, the op table's entries (KernelToEmit.cpp): each lowers
  // the op of its case and branches on what the case's selector recorded.
  LogicalResult lowerView(const LoweringCase &c);
  LogicalResult lowerQuantize(const LoweringCase &c);
  LogicalResult lowerDequantize(const LoweringCase &c);
  LogicalResult lowerRequantize(const LoweringCase &c);
  LogicalResult lowerBinary(const LoweringCase &c);
  LogicalResult lowerUnary(const LoweringCase &c);
  LogicalResult lowerClip(const LoweringCase &c);
  LogicalResult lowerLeakyRelu(const LoweringCase &c);
  LogicalResult lowerHardSigmoid(const LoweringCase &c);
  LogicalResult lowerHardSwish(const LoweringCase &c);
  LogicalResult lowerGelu(const LoweringCase &c);
  LogicalResult lowerSoftmax(const LoweringCase &c);
  LogicalResult lowerPool(const LoweringCase &c);
  LogicalResult lowerReduce(const LoweringCase &c);
  LogicalResult lowerBatchNorm(const LoweringCase &c);
  LogicalResult lowerChannelAffine(const LoweringCase &c);
  /// A per-channel parameter (axis 1 of `shape`) of a BatchNorm or channel-affine.
  EwOperand perChannelOperand(const LoweringCase &c, Value v, ArrayRef<int64_t> shape);
  LogicalResult lowerLayerNorm(const LoweringCase &c);
  LogicalResult lowerPow(const LoweringCase &c);
  LogicalResult lowerCompare(const LoweringCase &c);
  LogicalResult lowerLogic(const LoweringCase &c);
  LogicalResult lowerWhere(const LoweringCase &c);
  LogicalResult lowerCast(const LoweringCase &c);
  LogicalResult lowerArg(const LoweringCase &c);
  LogicalResult lowerConcat(const LoweringCase &c);
  LogicalResult lowerPadOp(const LoweringCase &c);
  LogicalResult lowerCopyOp(const LoweringCase &c);
  LogicalResult lowerMatmulOp(const LoweringCase &c);
  LogicalResult lowerConv(const LoweringCase &c);
  LogicalResult lowerConvTranspose(const LoweringCase &c);

private:
  Emitter e;
  OpBuilder &b;
  const target::TargetInfo &t;
  DenseMap<Value, Value> gm;
  /// While describing: where the loop nests are recorded.
  std::vector<std::pair<Operation *, ElementwiseProblem>> *described = nullptr;
  std::vector<Im2colProduct> *describedProducts = nullptr;
  /// Whether this run only describes (select-tiling): a kernel of no
  /// elementwise loop nest and no im2col product (lowerMatmulBuffers,
  /// lowerWindowConv, lowerDepthwise, lowerPool) then records nothing and
  /// emits nothing, returning at once.
  bool describingOnly() const { return described != nullptr; }
  /// Loop nests emitted so far per op (the index into its npuc.loop_tiling).
  DenseMap<Operation *, unsigned> nestsEmitted;
  int64_t inputBytes = 0, outputBytes = 0;

  Value gmOf(Value tensor);
  Value ioBuffer(MemorySpace space, int64_t &cursor, StringRef name, RankedTensorType type);
  Value arena(RankedTensorType type) {
    Type st = storageOf(type.getElementType());
    return e.alloc(MemorySpace::ARENA, type.getShape(), st, denseStrides(type.getShape(), bytesOf(st)));
  }
  Value resultBuffer(Value result) {
    auto it = gm.find(result);
    if (it != gm.end())
      return it->second;
    return gm[result] = arena(tensorOf(result));
  }
  Value constant(Attribute value, RankedTensorType type);
  Value f32Constant(ArrayRef<float> values);

  /// Selects `op`'s case (checking it against the one select-lowering-cases
  /// recorded, when it ran) and runs the op's lowering.
  LogicalResult lower(Operation *op);
  LogicalResult elementwise(Operation *op, ArrayRef<int64_t> shape, ArrayRef<EwOperand> ins,
                            Value out, EwWork work, const std::function<void(EwTiles &)> &body);
  /// A nest of whole rows (rowProblem) as tile loops of the rows select-tiling
  /// chose: `body` gets each tile's row count and its first row.
  LogicalResult rowLoops(Operation *op, const ElementwiseProblem &p,
                         const std::function<void(int64_t rows, const Offset &first)> &body);
  /// A reduction along columns (columnProblem) as tile loops: `body` gets
  /// each tile's column count, its block and its first column.
  LogicalResult columnLoops(
      Operation *op, const ElementwiseProblem &p,
      const std::function<void(int64_t cols, const Offset &block, const Offset &first)> &body);
  /// The tiling select-tiling chose for `op`'s next elementwise loop nest,
  /// checked against the problem the lowering walks; while describing, the
  /// nest is recorded instead and the answer is nullopt (emit nothing).
  FailureOr<std::optional<ElementwiseTiling>> tileNest(Operation *op, const ElementwiseProblem &p);
  FailureOr<ElementwiseTiling> nestTiling(Operation *op, const ElementwiseProblem &p);
  EwOperand broadcastOperand(Value tensor, ArrayRef<int64_t> outShape);
  /// An elementwise function of one f32 or per-tensor quantized tensor,
  /// computed in f32 on the exact dequantized values and quantized once
  /// (docs/numerics.md); `body` rewrites the f32 tile in place.
  /// `bodyPasses` is what `body` costs VECTOR, in passes over the tile.
  LogicalResult lowerF32Map(Operation *op, Value input, Value result, int64_t bodyPasses,
                            const std::function<void(Value)> &body);
  /// A [rows, cols] f32 tile with the real values of `tile`: a cast, then
  /// (q - zp) * scale when `q` is given (each step one f32 rounding, as ONNX).
  Value toF32(Value tile, const std::optional<Quant> &q);
  /// `f` (f32, modified) stored as `storage`: saturate(round_half_even(f / scale) + zp)
  /// when `q` is given, else `f` itself.
  Value fromF32(Value f, const std::optional<Quant> &q, Type storage);
  void shiftUnsigned(EwTiles &tl, VBinFunc func, unsigned width);
  LogicalResult lowerCopy(Operation *op, Value src, Value dst, ArrayRef<int64_t> shape,
                          ArrayRef<int64_t> srcStrides);
  LogicalResult lowerPad(Operation *op, Value src, Value dst, ArrayRef<int64_t> inShape,
                         ArrayRef<int64_t> lo, ArrayRef<int64_t> hi, int64_t fill);
  /// [..., M, K] x [K, N] (or batched [..., K, N]); Gemm's transposed
  /// operands are read through transposing views, alpha scales the product
  /// and beta * `addend` (broadcast to [M, N]) is added before the store.
  /// A matrix product of GM buffers as npuc.tiling says (MatmulTiling.h's
  /// problem of `op`): C = A x B per batch, then the epilogue.
  LogicalResult lowerMatmulBuffers(Operation *op, const ProductBuffers &buf,
                                   const ProductContract &k);
  /// A matrix product of tensors: `k` without perRow, which the case says;
  /// transA/transB are the problem's (matmulProblem), checked against `c`.
  LogicalResult lowerMatmul(const LoweringCase &c, Value lhs, Value rhs, Value bias, Value result,
                            ProductContract k, bool transA = false, bool transB = false);
  LogicalResult lowerConvBuffers(Operation *op, const ConvPlan &plan, const ConvBuffers &buf,
                                 const ConvGeometry &geometry, const ConvContract &k);
  LogicalResult lowerDepthwise(Operation *op, const ConvBuffers &buf, const ConvContract &k);
  LogicalResult lowerDepthToSpace(qk::ConvTransposeOp op);
  /// A convProblem by the tiling select-tiling chose (ConvTiling.h).
  LogicalResult lowerWindowConv(Operation *op, const ConvProblem &p, Value X, Value Bias, Value Y,
                                const ConvContract &k);
  /// The window conv's tiling as select-tiling wrote it, checked.
  FailureOr<ConvTiling> windowConvTiling(Operation *op, const ConvProblem &p);
  /// The tiling select-tiling wrote on `op` (kTilingAttr), whose tile has
  /// `extents` entries (`form` names them); a diagnostic otherwise.
  FailureOr<qk::TilingAttr> chosenTiling(Operation *op, size_t extents, StringRef form);
  /// A [1, n] LM row of zeros of `element`.
  Value zeroRow(Type element, int64_t n);
  /// The weights of `p` (constant, [M, Cg, KH, KW]) as the window conv reads
  /// them: [chunk][kh][kw, c (+ gap)][M], the gaps `gap`; stacked
  /// (ConvTiling::stacked), [chunk][kw, kh, c (+ gap)][M].
  Value windowConvWeights(Operation *op, const ConvProblem &p, int64_t chunk, int64_t gap,
                          bool stacked);
  /// One tile of a depthwise or pooling problem: `chans` channels from c0 by
  /// `rows` output rows from oh0 of batch n, its image loaded.
  struct WindowTile {
    int64_t chans, rows, rin;
    Offset n, c0, oh0;
    Offset chunk;  // c0 / the tiling's channels: the chunk's index
    Value image;
    DepthwisePitches pitch;
  };
  /// The tiling select-tiling wrote for `op`, checked against `p`.
  FailureOr<DepthwiseTiling> windowTiling(Operation *op, const DepthwiseProblem &p, Value X);
  /// The tile loops of `p` under `tl` (row tiles of one shape share a loop):
  /// per tile the image, padded with `fill` on its way into LM, then `tile`.
  void windowTiles(const DepthwiseProblem &p, const DepthwiseTiling &tl, Value X, int64_t fill,
                   const std::function<void(const WindowTile &)> &tile);
  /// The epilogue `ep` of a [rows, cols] accumulator tile whose first row
  /// and column are `row0` and `col0` of the result's channels (where the
  /// bias and the table are read), then DMA_OUT to `dst` (a 2-D GM view).
  void epilogue(Value acc, int64_t rows, int64_t cols, Value dst, const Epilogue &ep,
                Offset row0 = 0, Offset col0 = 0);
  Value requantTable(qk::RequantAttr rq, int64_t channels);
};

} // namespace npuc::emit::lowering

#endif
