//===- KernelBuilder.h - The kernel building blocks of convert-qk-to-emit -===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Private to lib/Conversion/QKToEmit. Each qk op is lowered by its pattern
// (KernelPattern.h), defined in its family's file next to its selector and
// its plan; the patterns derive from KernelBuilder, which holds what they
// share: the kernels' parameter structs (Epilogue, ProductContract,
// ConvContract, ...), the plans' pure functions (IterationSpaces, planCopy,
// planPad, the problems of the matrix products and convolutions), and the
// building blocks (buffers and constants, the elementwise tile loops,
// copies and pads, the matrix product and its epilogue, the convolutions'
// loops), each defined in the file of the family that introduced it.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_CONVERSION_QKTOEMIT_KERNELBUILDER_H
#define NPUC_LIB_CONVERSION_QKTOEMIT_KERNELBUILDER_H

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


/// The matrix product a qk.matmul, a pointwise qk.conv2d or a depth-to-space
/// qk.conv_transpose lowers to, or nullopt for any other op.
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

/// The type a tensor's elements are stored as (graph::storageType).
inline Type storageOf(Type element) { return graph::storageType(element); }

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

/// outer x r x inner: the elements before `axis`, along it and after it.
inline std::array<int64_t, 3> aroundAxis(ArrayRef<int64_t> shape, int64_t axis) {
  std::array<int64_t, 3> x{1, shape[size_t(axis)], 1};
  for (size_t i = 0; i < shape.size(); ++i)
    if (int64_t(i) != axis)
      x[int64_t(i) < axis ? 0 : 2] *= shape[i];
  return x;
}

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

/// How an operand walks an elementwise nest over `outShape`: the dense
/// strides of its storage (every GM tensor is dense row-major), 0 along the
/// axes it broadcasts. A `perRow` operand (a per-channel scale, zero point or
/// BatchNorm parameter constant along the tile's columns) loads one value per
/// row, a [rows, 1] tile the VECTOR engine broadcasts by address (b_bcast),
/// not a copy at the tensor's size (contract N7).
EwAccess broadcastAccess(Value tensor, ArrayRef<int64_t> outShape, bool perRow = false);
/// How a result (or any tensor walked whole) covers a nest over its own
/// shape: its dense strides, every dimension's (a size-1 one too).
EwAccess denseAccess(Value tensor);
/// A parameter of one f32 value per index of `axis` of a rank-`rank` space
/// (a per-axis scale or zero point, a per-channel BatchNorm operand).
EwAccess axisAccess(size_t rank, int64_t axis, bool perRow);

/// The LM tiles an elementwise body works on: one per operand, the output
/// tile, and the grid.
struct EwTiles {
  SmallVector<Value> in;
  Value out;
  int64_t rows, cols;
};

/// The selectors (LoweringCase.h) and plans (IterationSpaces) two families
/// share; each family declares its own in its file, where its patterns name
/// them.
LogicalResult selectLogic(LoweringCase &c, const target::TargetInfo &t);

struct IterationSpaces;
LogicalResult planLogic(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
/// The nest of an f32 map of operand 0 into result 0 (lowerF32Map) whose
/// body costs VECTOR `bodyPasses` passes over the f32 tile.
LogicalResult planF32Map(Operation *op, IterationSpaces &s, int64_t bodyPasses);

/// Whether a per-axis parameter (scale or zero point) is loaded as one value
/// per tile row: some dimension after the axis has more than one element (it
/// is constant along the tile's columns); otherwise the axis is the innermost
/// dimension and the parameter is copied at the tile's size (elementwise()).
bool paramsPerRow(ArrayRef<int64_t> shape, int64_t axis);

/// The element types of a matrix product's or a convolution's case space
/// (MatrixKernels.cpp), its integer input named `lhs`: f32, or f16 to f32 or
/// f16; 8-bit integers to i8, ui8 or i32; each with a bias or without.
std::vector<support::TypeSignature> productSignatures(const char *lhs);

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

/// What lowerConvBuffers branches on, from the op's lowering case, and the
/// im2col product the op's plan states (none for a depthwise one).
struct ConvPlan {
  bool depthwise = false;  // one input and one output channel per group
  bool padded = false;     // pads first, into an arena copy
  bool window1x1 = false;  // im2col of a 1x1 window: one 3-D DMA per tile
  const MatmulProblem *product = nullptr;
};

/// A convolution whose im2col tiles come from GM, as its plan states it for
/// select-tiling (chooseIm2colTiling).
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

/// The loop nests and im2col products of one op, in the order its lowering
/// walks them: what select-tiling tiles. An op's plan states them from its
/// types, attributes and lowering case alone (every GM tensor is dense
/// row-major, so nothing else decides them); its lowering walks the same plan.
struct IterationSpaces {
  std::vector<ElementwiseProblem> nests;
  std::vector<Im2colProduct> products;
};
/// An op's plan (null for an op of no loop nest and no im2col product).
using PlanFn = LogicalResult (*)(const LoweringCase &, const target::TargetInfo &, IterationSpaces &);
/// The rows `op`'s nest keeps as rows (ElementwiseTiling.h), from the
/// products near it (ElementwiseKernels.cpp).
RowRule rowsBesideProduct(Operation *op);
/// Appends the canonical nest over `shape` to `s` (ElementwiseTiling.h); a
/// diagnostic at `op` when the DMA cannot walk it.
LogicalResult addNest(Operation *op, IterationSpaces &s, ArrayRef<int64_t> shape,
                      std::vector<EwAccess> ins, EwAccess out, EwWork work);
/// The plan of `op` under its case `c` (none when it has no loop nest), as
/// its pattern states it: what select-tiling tiles and the lowering walks.
LogicalResult planOf(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);

/// The nests of a strided copy of `shape` (lowerCopy): one when the space
/// fits the DMA's 4 dimensions once contiguous ones merge; otherwise the
/// outer dimensions up to `peel` are peeled, one nest per index.
struct CopyPlan {
  bool peeled = false;
  size_t peel = 0;
  int64_t count = 1;
};
FailureOr<CopyPlan> planCopy(Operation *op, ArrayRef<int64_t> shape, ArrayRef<int64_t> srcStrides,
                             ArrayRef<int64_t> dstStrides, int64_t elemBytes, IterationSpaces &s);
/// A constant Pad of a rank 1-4 tensor (lowerPad) through DMA_IN's padding:
/// its one nest, checked against the DMA's padding range.
LogicalResult planPad(Operation *op, ArrayRef<int64_t> inShape, ArrayRef<int64_t> lo,
                      ArrayRef<int64_t> hi, int64_t elemBytes, IterationSpaces &s);
/// The copies the function's return makes (a value it returns that is not
/// computed into its output region: an input, a constant, a value returned
/// twice), in order.
SmallVector<std::pair<Value, unsigned>> returnCopies(func::FuncOp func);
/// The nests of those copies, at the return.
LogicalResult planReturn(func::FuncOp func, IterationSpaces &s);
/// What the lowering checks of a function before any op (model-file types
/// at the boundary, no empty tensor), and of an op's constants; select-tiling
/// checks the same before it plans.
LogicalResult checkFunction(func::FuncOp func);
LogicalResult checkConstants(Operation *op);

/// The lowering state of one function, owned by convert-qk-to-emit's driver:
/// the GM buffer of each tensor, and how many loop nests each op has
/// emitted (the index into its npuc.loop_tiling).
struct FunctionState {
  DenseMap<Value, Value> gm;
  DenseMap<Operation *, unsigned> nestsEmitted;
};

/// The kernel building blocks every pattern (KernelPattern.h) lowers with:
/// buffers, constants, the elementwise tile loops, copies and pads, the
/// matrix product and its epilogue, the convolutions' loops. A builder is a
/// view of one function's lowering (its Emitter, its target and its
/// FunctionState); it keeps no state of its own between ops.
class KernelBuilder {
public:
  KernelBuilder(Emitter &e, const target::TargetInfo &t, FunctionState &state)
      : e(e), b(e.b), t(t), gm(state.gm), nestsEmitted(state.nestsEmitted) {}

  Emitter &e;
  OpBuilder &b;
  const target::TargetInfo &t;
  DenseMap<Value, Value> &gm;
  DenseMap<Operation *, unsigned> &nestsEmitted;

  /// The GM buffer of `tensor`: its own, or a constant's, materialized in
  /// CONST on first use; null for a tensor not lowered yet.
  Value gmOf(Value tensor);
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

  /// The planned nest `nest` (addNest) over the GM buffers `ins` and `out`:
  /// per tile, DMA_IN of each operand, `body`, DMA_OUT of the result.
  LogicalResult elementwise(Operation *op, const ElementwiseProblem &nest, ArrayRef<Value> ins,
                            Value out, const std::function<void(EwTiles &)> &body);
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
  /// checked against the problem the lowering walks.
  FailureOr<ElementwiseTiling> nestTiling(Operation *op, const ElementwiseProblem &p);
  /// An elementwise function of one f32 or per-tensor quantized tensor,
  /// computed in f32 on the exact dequantized values and quantized once
  /// (docs/numerics.md); `body` rewrites the f32 tile in place.
  /// `nest` is the map's planned nest (planMap, which states what `body`
  /// costs VECTOR).
  LogicalResult lowerF32Map(Operation *op, const ElementwiseProblem &nest, Value input, Value result,
                            const std::function<void(Value)> &body);
  /// A [rows, cols] f32 tile with the real values of `tile`: a cast, then
  /// (q - zp) * scale when `q` is given (each step one f32 rounding, as ONNX).
  Value toF32(Value tile, const std::optional<Quant> &q);
  /// `f` (f32, modified) stored as `storage`: saturate(round_half_even(f / scale) + zp)
  /// when `q` is given, else `f` itself.
  Value fromF32(Value f, const std::optional<Quant> &q, Type storage);
  /// The logic functions of bools (qk.not; qk.binary's AND, OR and XOR),
  /// as planLogic plans them.
  LogicalResult lowerLogic(const LoweringCase &c, const IterationSpaces &planned);
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
  LogicalResult lowerConvBuffers(Operation *op, const ConvPlan &plan, const ConvBuffers &buf,
                                 const ConvGeometry &geometry, const ConvContract &k);
  LogicalResult lowerDepthwise(Operation *op, const ConvBuffers &buf, const ConvContract &k);
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
    /// When the feeder pads (feederPads) the image is the real rows alone,
    /// [chans, real rows, W]: the instruction pads `padTop` rows above and
    /// the problem's padLeft columns.
    int64_t padTop = 0;
  };
  /// The tiling select-tiling wrote for `op`, checked against `p`.
  FailureOr<DepthwiseTiling> windowTiling(Operation *op, const DepthwiseProblem &p, Value X);
  /// The tile loops of `p` under `tl` (row tiles of one shape share a loop):
  /// per tile the image, padded with `fill` on its way into LM (or unpadded,
  /// when the feeder pads), then `tile`.
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
