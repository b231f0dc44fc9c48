//===- Importer.h - Internal state of the ONNX importer ---------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_CONVERSION_ONNXTOGRAPH_IMPORTER_H
#define NPUC_LIB_CONVERSION_ONNXTOGRAPH_IMPORTER_H

#include "npuc/Conversion/ONNXToGraph/ONNXToGraph.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <optional>
#include <set>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace npuc::onnx_import {

/// Diagnostic codes (docs/diagnostics.md).
namespace code {
inline constexpr const char *Read = "NPUC-E0001";          // unreadable, not ONNX, truncated
inline constexpr const char *ExternalData = "NPUC-E0002";  // external data escapes or is missing
inline constexpr const char *Opset = "NPUC-E0003";         // opset outside [6, 22]
inline constexpr const char *UnsupportedOp = "NPUC-E0101";
inline constexpr const char *UnsupportedAttr = "NPUC-E0102";
inline constexpr const char *UnsupportedType = "NPUC-E0103";
inline constexpr const char *NotConstant = "NPUC-E0104";   // an input that must be constant is not
inline constexpr const char *DynamicShape = "NPUC-E0201";
inline constexpr const char *ShapeMismatch = "NPUC-E0202";
inline constexpr const char *Overflow = "NPUC-E0203";
inline constexpr const char *BadInputShape = "NPUC-E0204";  // --input-shape does not apply
inline constexpr const char *Structure = "NPUC-E0301";      // missing input, duplicate, cycle
} // namespace code

/// A value during import: its SSA value and, when known, its constant data.
struct Val {
  mlir::Value value;
  mlir::DenseElementsAttr constant;  // null unless a constant
  mlir::RankedTensorType type() const { return mlir::cast<mlir::RankedTensorType>(value.getType()); }
  llvm::ArrayRef<int64_t> shape() const { return type().getShape(); }
  mlir::Type element() const { return type().getElementType(); }
};

class Importer;

/// The largest value a size-like attribute takes (kernel sizes, strides,
/// dilations, pads, block sizes, groups): hostile sizes are refused before
/// any arithmetic on them (the importer fuzzer found products and sums of
/// such attributes overflowing 64 bits).
constexpr int64_t kMaxSizeAttr = int64_t(1) << 31;

/// The most elements of a constant the importer builds from a shape (an
/// index ramp, a triangle of offsets, an identity): a larger one is refused
/// before it is built (the importer fuzzer found a Hardmax over 2^31 - 1
/// elements building 16 GiB of indices).
constexpr int64_t kMaxBuiltConstant = int64_t(1) << 24;

class NodeContext;

/// The creation of one graph op type with one result (NodeContext::build of
/// that type) as a value, `graphOp<OpTy>`: for importers that choose the op
/// at run time, from a table of ONNX op types or between two ops.
using GraphOpBuilder = mlir::FailureOr<mlir::Value> (*)(NodeContext &c, mlir::ValueRange operands,
                                                         mlir::Type result,
                                                         llvm::ArrayRef<mlir::NamedAttribute> attrs);

/// One node being imported: inputs, attributes, results and diagnostics.
class NodeContext {
public:
  NodeContext(Importer &importer, const onnx::NodeProto &node, int64_t opset);

  const onnx::NodeProto &node;
  int64_t opset;
  Importer &imp;
  mlir::OpBuilder &b;
  mlir::Location loc;

  size_t numInputs() const { return inputs.size(); }
  /// Input i, or nullopt when absent (optional input left empty or out of range).
  std::optional<Val> input(size_t i) const;
  /// Input i, which the op requires; reports and returns nullopt otherwise.
  std::optional<Val> required(size_t i);
  /// Input `i` as a sequence known at compile time (an error when it is not).
  std::optional<std::vector<Val>> sequence(size_t i);
  /// Input i's constant data, which the op requires; reports otherwise.
  mlir::DenseElementsAttr requiredConstant(size_t i, llvm::StringRef what);
  std::optional<std::vector<int64_t>> constantInts(size_t i, llvm::StringRef what);

  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  int64_t intAttr(llvm::StringRef name, int64_t dflt) const;
  float floatAttr(llvm::StringRef name, float dflt) const;
  std::string stringAttr(llvm::StringRef name, llvm::StringRef dflt) const;
  std::optional<std::vector<int64_t>> intsAttr(llvm::StringRef name) const;
  std::optional<std::vector<float>> floatsAttr(llvm::StringRef name) const;
  /// A size-like integer attribute (a window, block, group or count size):
  /// `dflt` when absent; reports and returns nullopt when outside
  /// [lo, kMaxSizeAttr], before any arithmetic is done on it.
  std::optional<int64_t> sizeAttr(llvm::StringRef name, int64_t dflt, int64_t lo);
  /// Reports and returns false unless every value of the size-like attribute
  /// `name` is in [lo, kMaxSizeAttr].
  bool inSizeRange(llvm::StringRef name, llvm::ArrayRef<int64_t> values, int64_t lo);
  /// Reports and returns false when a constant of `elements` elements that
  /// `what` needs is larger than kMaxBuiltConstant.
  bool fitsBuiltConstant(int64_t elements, const llvm::Twine &what);

  /// Reports an issue for this node; returns failure() for convenience.
  llvm::LogicalResult fail(const char *code, const llvm::Twine &message);
  /// Normalizes a possibly negative axis for `rank`; reports when out of range.
  std::optional<int64_t> axis(int64_t a, int64_t rank, llvm::StringRef what = "axis");

  /// Creates OpTy through its ODS builder (OpTy::create) with the given
  /// operands, result types and attributes, then checks it (checkBuilt): a
  /// verifier failure or a result too large for an NPU memory region is
  /// reported as an issue, and an op on constants is folded to a
  /// graph.constant, which is returned instead.
  template <typename OpTy>
  mlir::FailureOr<mlir::Operation *> buildOp(mlir::ValueRange operands, mlir::TypeRange results,
                                             llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    return checkBuilt(OpTy::create(b, loc, results, operands, attrs).getOperation());
  }
  /// buildOp() of an op with one result: that result.
  template <typename OpTy>
  mlir::FailureOr<mlir::Value> build(mlir::ValueRange operands, mlir::Type result,
                                     llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    return resultOf(buildOp<OpTy>(operands, mlir::TypeRange(result), attrs));
  }
  /// build(), then binds the result as output 0 of the node.
  template <typename OpTy>
  llvm::LogicalResult buildOutput(mlir::ValueRange operands, mlir::Type result,
                                  llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    return bindOutput(build<OpTy>(operands, result, attrs));
  }
  /// build() and buildOutput() of an op chosen at run time (graphOp<OpTy>).
  mlir::FailureOr<mlir::Value> build(GraphOpBuilder op, mlir::ValueRange operands,
                                     mlir::Type result,
                                     llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    return op(*this, operands, result, attrs);
  }
  llvm::LogicalResult buildOutput(GraphOpBuilder op, mlir::ValueRange operands, mlir::Type result,
                                  llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    return bindOutput(op(*this, operands, result, attrs));
  }
  /// A graph.constant holding `value`.
  Val constant(mlir::DenseElementsAttr value, mlir::Type resultType = {});
  /// Binds output i of the node.
  void setOutput(size_t i, Val v);
  void setOutput(size_t i, mlir::Value v) { setOutput(i, Val{v, {}}); }
  void setSequenceOutput(size_t i, std::vector<Val> elements);

  mlir::RankedTensorType tensor(llvm::ArrayRef<int64_t> shape, mlir::Type element) const {
    return mlir::RankedTensorType::get(shape, element);
  }
  mlir::NamedAttribute named(llvm::StringRef name, mlir::Attribute value) const {
    return b.getNamedAttr(name, value);
  }

private:
  std::vector<std::optional<Val>> inputs;

  /// The checks of buildOp() on the op just created, the same for every op
  /// type: verification (the first diagnostic is the issue's message), the
  /// size of each result, folding on constants. Erases the op on failure.
  mlir::FailureOr<mlir::Operation *> checkBuilt(mlir::Operation *op);
  static mlir::FailureOr<mlir::Value> resultOf(mlir::FailureOr<mlir::Operation *> op);
  llvm::LogicalResult bindOutput(mlir::FailureOr<mlir::Value> result);
};

/// NodeContext::build<OpTy>, and the GraphOpBuilder of OpTy.
template <typename OpTy>
mlir::FailureOr<mlir::Value> buildGraphOp(NodeContext &c, mlir::ValueRange operands,
                                          mlir::Type result,
                                          llvm::ArrayRef<mlir::NamedAttribute> attrs) {
  return c.build<OpTy>(operands, result, attrs);
}
template <typename OpTy>
inline constexpr GraphOpBuilder graphOp = &buildGraphOp<OpTy>;

using OpImporter = llvm::LogicalResult (*)(NodeContext &);
/// The importer of (domain, op type), or nullptr (Ops.cpp).
OpImporter lookupOpImporter(llvm::StringRef domain, llvm::StringRef opType);

/// The schema version of `node`'s op in effect at opset `set` (ONNX's schema
/// registry; `set` itself for ops of other domains).
int64_t schemaVersion(const onnx::NodeProto &node, int64_t set);

/// The name of ONNX element type `onnxType` (TensorProto.DataType), or
/// "invalid" (TensorData.cpp).
const char *typeName(int32_t onnxType);

class Importer {
public:
  Importer(mlir::MLIRContext &context, std::string path, const Options &options);
  Result run();

  mlir::MLIRContext &ctx;
  mlir::OpBuilder b;
  std::string path, dir;
  Options options;
  std::vector<Issue> issues;
  std::vector<std::string> warnings;  // Result::warnings
  std::vector<NodeInfo> nodes;
  std::map<std::string, Val> values;
  /// Sequences whose structure is known at compile time (SequenceConstruct,
  /// SplitToSequence, ...), flattened at import: their tensors in order.
  std::map<std::string, std::vector<Val>> sequences;
  std::set<std::string> poisoned;  // produced by a node that failed: not reported again
  int64_t opset = 0, msOpset = 0;

  /// Where the model has float64 values, which the program computes in
  /// float32 ("graph input 'x'", ...; "" for one inside the graph): the
  /// import warns once (docs/numerics.md, "float64").
  std::vector<std::string> float64At;

  void report(const char *code, const onnx::NodeProto *node, int64_t opset, const llvm::Twine &msg);
  /// The element type the graph computes an ONNX type in: its own, except
  /// DOUBLE, computed as f32 (recorded in float64At).
  std::optional<mlir::Type> elementType(int32_t onnxType);
  /// What to add to "unsupported element type T" for a DOUBLE refused by
  /// --float64=refuse ("" otherwise).
  std::string float64Hint(int32_t onnxType) const;
  /// Whether a tensor of `type` fits an NPU memory region (isa::gmAddressBytes);
  /// reports NPUC-E0203 at `node` (or the model) otherwise.
  bool fitsMemory(mlir::RankedTensorType type, const std::string &what,
                  const onnx::NodeProto *node);
  /// The data of a TensorProto (raw, typed fields, or external data inside
  /// the model's directory) as an attribute; reports and returns null otherwise.
  mlir::DenseElementsAttr tensorData(const onnx::TensorProto &t, const onnx::NodeProto *node);
  /// Reads a --bind-input file (.npy or TensorProto .pb).
  bool readBoundTensor(const std::string &file, onnx::TensorProto &t);
  /// Imports the nodes of `graph` (the main graph or an If branch).
  void importNodes(const onnx::GraphProto &graph);
  void importNode(const onnx::NodeProto &node);
  mlir::Location nodeLoc(const onnx::NodeProto &node);
  /// The name diagnostics and locations use: the node's, else its first output's.
  static std::string nodeName(const onnx::NodeProto &node);

private:
  // The steps of run(), in order. Each reports what it finds.
  /// Reads and parses the model file (its SHA-256 goes into `result`);
  /// false when it is unreadable or not a ModelProto with a graph.
  bool readModel(onnx::ModelProto &proto, Result &result);
  /// The default-domain and com.microsoft opsets; false when the default
  /// one is outside [kMinOpset, kMaxOpset] (and cannot read as kMinOpset).
  bool readOpsets(const onnx::ModelProto &proto);
  /// The initializers of `g` as constants; returns their names.
  std::set<std::string> importInitializers(const onnx::GraphProto &g);
  /// The graph inputs --bind-input freezes to constants; returns the names
  /// it applied to, and adds those that are not graph inputs to `unbound`.
  std::set<std::string> bindInputs(const onnx::GraphProto &g,
                                   const std::set<std::string> &initializers,
                                   std::vector<std::string> &unbound);
  /// The other graph inputs, as arguments of `entry`; returns the names
  /// --input-shape pinned.
  std::set<std::string> importGraphInputs(const onnx::GraphProto &g,
                                          const std::set<std::string> &initializers,
                                          const std::set<std::string> &bound, mlir::Block *entry);
  /// The type of graph input `vi`, its shape pinned by --input-shape (the
  /// names applied are added to `pinned`); nullopt when it is not a static
  /// tensor of a supported type that fits memory.
  std::optional<mlir::RankedTensorType> graphInputType(const onnx::ValueInfoProto &vi,
                                                       std::set<std::string> &pinned);
  /// Reports the --input-shape and --bind-input options that name no graph input.
  void reportUnknownInputs(const onnx::GraphProto &g, const std::set<std::string> &initializers,
                           const std::set<std::string> &pinned,
                           const std::vector<std::string> &unbound);
  /// Returns the graph outputs from `func`, which gets its type and the ONNX
  /// names of its arguments and results; erases the constants left unused.
  void finishMain(const onnx::GraphProto &g, mlir::func::FuncOp func);
  /// Reports the first verifier diagnostic of `module`, if any.
  void verifyModule(mlir::ModuleOp module);
};

} // namespace npuc::onnx_import

#endif
