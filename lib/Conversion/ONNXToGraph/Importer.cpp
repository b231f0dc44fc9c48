//===- Importer.cpp - ModelProto to the graph dialect ---------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The model-level work: reading the file, external data confined to the
// model's directory, initializers, pinned input shapes, graph structure
// (missing inputs, duplicate names, cycles), dispatch of every node to its op
// importer (Ops.cpp), and the diagnostics report. Issues are collected across
// the whole model; a node whose inputs failed is skipped without a second
// report, but its own op type is still checked.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"
#include "Folding.h"

#include "npuc/Base/Spelling.h"
#include "npuc/Base/ISA.h"
#include "npuc/Base/Json.h"
#include "npuc/Base/ModelFile.h"
#include "npuc/Base/Sha256.h"
#include "npuc/Base/TensorFile.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MathExtras.h"

#include <deque>
#include <filesystem>
#include <fstream>

using namespace mlir;
using namespace npuc;
using namespace npuc::onnx_import;
namespace fs = std::filesystem;

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

NodeContext::NodeContext(Importer &importer, const onnx::NodeProto &n, int64_t set)
    : node(n), opset(set), imp(importer), b(importer.b), loc(importer.nodeLoc(n)) {
  for (const std::string &name : n.input()) {
    auto it = imp.values.find(name);
    inputs.push_back(name.empty() || it == imp.values.end() ? std::nullopt
                                                            : std::optional<Val>(it->second));
  }
}

std::optional<Val> NodeContext::input(size_t i) const {
  return i < inputs.size() ? inputs[i] : std::nullopt;
}

std::optional<Val> NodeContext::required(size_t i) {
  if (auto v = input(i))
    return v;
  fail(code::Structure, "required input " + llvm::Twine(i) + " is missing");
  return std::nullopt;
}

DenseElementsAttr NodeContext::requiredConstant(size_t i, StringRef what) {
  std::optional<Val> v = input(i);
  if (!v) {
    fail(code::Structure, "required input " + llvm::Twine(i) + " (" + what + ") is missing");
    return {};
  }
  if (!v->constant) {
    // The graph inputs the value is computed from (a data-dependent
    // condition, a sample rate): freezing them makes it a constant.
    SmallVector<BlockArgument> inputs;
    SmallVector<Value> work{v->value};
    llvm::DenseSet<Value> seen;
    while (!work.empty() && inputs.size() <= 4) {
      Value x = work.pop_back_val();
      if (!seen.insert(x).second)
        continue;
      if (auto arg = dyn_cast<BlockArgument>(x))
        inputs.push_back(arg);
      else
        work.append(x.getDefiningOp()->operand_begin(), x.getDefiningOp()->operand_end());
    }
    auto inputName = [&](BlockArgument a) {
      auto n = dyn_cast<NameLoc>(a.getLoc());
      return n ? n.getName().str() : std::string("?");
    };
    std::string hint;
    if (inputs.size() == 1 && inputs[0] == v->value)
      hint = "; it is a graph input: freeze it with --bind-input " + node.input(i) + "=FILE";
    else if (!inputs.empty() && inputs.size() <= 4) {
      std::string names, binds;
      for (BlockArgument a : inputs) {
        names += (names.empty() ? "'" : ", '") + inputName(a) + "'";
        binds += " --bind-input " + inputName(a) + "=FILE";
      }
      hint = "; it is computed from graph input" + std::string(inputs.size() > 1 ? "s " : " ") +
             names + ": freeze " + (inputs.size() > 1 ? "them" : "it") + " with" + binds;
    }
    fail(code::NotConstant, "input " + llvm::Twine(i) + " (" + what + ", '" + node.input(i) +
                                "') must be a constant or fold to one" + hint);
    if (!hint.empty())
      imp.issues.back().bindInput = inputName(inputs.front());
    return {};
  }
  return v->constant;
}

std::optional<std::vector<int64_t>> NodeContext::constantInts(size_t i, StringRef what) {
  DenseElementsAttr c = requiredConstant(i, what);
  if (!c)
    return std::nullopt;
  if (!llvm::isa<IntegerType>(c.getElementType())) {
    fail(code::UnsupportedType, what + llvm::Twine(" must be integers"));
    return std::nullopt;
  }
  std::vector<int64_t> out;
  for (const APInt &v : c.getValues<APInt>())
    out.push_back(intValue(v, c.getElementType()));
  return out;
}

const onnx::AttributeProto *NodeContext::attr(StringRef name) const {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t NodeContext::intAttr(StringRef name, int64_t dflt) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->i() : dflt;
}
float NodeContext::floatAttr(StringRef name, float dflt) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->f() : dflt;
}
std::string NodeContext::stringAttr(StringRef name, StringRef dflt) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->s() : dflt.str();
}
std::optional<std::vector<int64_t>> NodeContext::intsAttr(StringRef name) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}
std::optional<std::vector<float>> NodeContext::floatsAttr(StringRef name) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return std::nullopt;
  return std::vector<float>(a->floats().begin(), a->floats().end());
}

bool NodeContext::inSizeRange(StringRef name, ArrayRef<int64_t> values, int64_t lo) {
  for (int64_t v : values)
    if (v < lo || v > kMaxSizeAttr) {
      (void)fail(code::UnsupportedAttr, name + llvm::Twine(" value ") + llvm::Twine(v) +
                                            " is outside [" + llvm::Twine(lo) + ", 2^31]");
      return false;
    }
  return true;
}
bool NodeContext::fitsBuiltConstant(int64_t elements, const llvm::Twine &what) {
  if (elements <= kMaxBuiltConstant)
    return true;
  (void)fail(code::Overflow, what + " needs a constant of " + llvm::Twine(elements) +
                                 " elements, more than the 2^24 npuc builds");
  return false;
}
std::optional<int64_t> NodeContext::sizeAttr(StringRef name, int64_t dflt, int64_t lo) {
  int64_t v = intAttr(name, dflt);
  if (!inSizeRange(name, v, lo))
    return std::nullopt;
  return v;
}

LogicalResult NodeContext::fail(const char *c, const llvm::Twine &message) {
  imp.report(c, &node, opset, message);
  return failure();
}

std::optional<int64_t> NodeContext::axis(int64_t a, int64_t rank, StringRef what) {
  int64_t n = a < 0 ? a + rank : a;
  if (n < 0 || n >= rank) {
    fail(code::UnsupportedAttr, what + llvm::Twine(" ") + llvm::Twine(a) +
                                    " is outside [-" + llvm::Twine(rank) + ", " +
                                    llvm::Twine(rank) + ")");
    return std::nullopt;
  }
  return n;
}

FailureOr<Operation *> NodeContext::buildOp(StringRef name, ValueRange operands, TypeRange results,
                                            ArrayRef<NamedAttribute> attrs) {
  OperationState state(loc, ("graph." + name).str());
  state.addOperands(operands);
  state.addTypes(results);
  state.addAttributes(attrs);
  Operation *op = b.create(state);
  std::string message;
  {
    ScopedDiagnosticHandler handler(b.getContext(), [&](Diagnostic &d) {
      if (message.empty())
        message = d.str();
      return success();
    });
    if (succeeded(mlir::verify(op))) {
      // Hostile sizes are refused before any work is spent on them.
      for (Type t : op->getResultTypes())
        if (!imp.fitsMemory(cast<RankedTensorType>(t), "graph." + name.str() + " result", &node)) {
          op->erase();
          return failure();
        }
      // An op on constants (a shape computation) is its value.
      if (std::optional<DenseElementsAttr> value = evaluateConstant(op)) {
        Location l = op->getLoc();
        Type type = op->getResult(0).getType();
        op->erase();
        return graph::ConstantOp::create(b, l, type, cast<ElementsAttr>(*value)).getOperation();
      }
      return op;
    }
  }
  op->erase();
  (void)fail(code::ShapeMismatch, "graph." + name + ": " + message);
  return failure();
}

FailureOr<Value> NodeContext::build(StringRef name, ValueRange operands, Type result,
                                    ArrayRef<NamedAttribute> attrs) {
  FailureOr<Operation *> op = buildOp(name, operands, TypeRange(result), attrs);
  if (failed(op))
    return failure();
  return (*op)->getResult(0);
}

LogicalResult NodeContext::buildOutput(StringRef name, ValueRange operands, Type result,
                                       ArrayRef<NamedAttribute> attrs) {
  FailureOr<Value> r = build(name, operands, result, attrs);
  if (failed(r))
    return failure();
  setOutput(0, *r);
  return success();
}

Val NodeContext::constant(DenseElementsAttr value, Type resultType) {
  Type type = resultType ? resultType : value.getType();
  Value v = graph::ConstantOp::create(b, loc, type, cast<ElementsAttr>(value)).getResult();
  return Val{v, resultType && resultType != value.getType() ? DenseElementsAttr() : value};
}

void NodeContext::setOutput(size_t i, Val v) {
  if (i >= size_t(node.output_size()) || node.output(int(i)).empty())
    return;
  if (!v.constant)
    if (auto c = v.value.getDefiningOp<graph::ConstantOp>())
      if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
          dense && dense.getType() == v.value.getType())
        v.constant = dense;
  imp.values[node.output(int(i))] = v;
  // The op this node built to compute the output carries the output's ONNX
  // name (TensorNames.h); a value passed through (Identity) or folded to a
  // constant keeps its own.
  auto result = dyn_cast<OpResult>(v.value);
  if (!result || v.constant)
    return;
  Operation *op = result.getOwner();
  if (graph::withoutTensorNames(op->getLoc()) != graph::withoutTensorNames(loc))
    return;
  SmallVector<std::string> names = graph::tensorNames(op->getLoc());
  names.resize(std::max<size_t>(names.size(), op->getNumResults()));
  names[result.getResultNumber()] = node.output(int(i));
  op->setLoc(graph::withTensorNames(loc, names));
}

//===----------------------------------------------------------------------===//
// Importer
//===----------------------------------------------------------------------===//

Importer::Importer(MLIRContext &context, std::string p, const Options &o)
    : ctx(context), b(&context), path(std::move(p)), options(o) {
  fs::path parent = fs::path(path).parent_path();
  dir = parent.empty() ? "." : parent.string();
}

void Importer::report(const char *c, const onnx::NodeProto *node, int64_t set, const llvm::Twine &msg) {
  Issue issue;
  issue.code = c;
  if (node) {
    issue.node = node->name().empty() && node->output_size() ? node->output(0) : node->name();
    issue.opType = node->op_type();
    issue.domain = node->domain();
    issue.opset = set;
  }
  issue.message = msg.str();
  issues.push_back(std::move(issue));
}

std::string Importer::nodeName(const onnx::NodeProto &node) {
  return !node.name().empty() ? node.name() : node.output_size() ? node.output(0) : node.op_type();
}

Location Importer::nodeLoc(const onnx::NodeProto &node) {
  return NameLoc::get(b.getStringAttr(nodeName(node)), FileLineColLoc::get(&ctx, path, 0, 0));
}

bool Importer::fitsMemory(RankedTensorType type, const std::string &what,
                          const onnx::NodeProto *node) {
  // An empty tensor is measured as if its zero dimensions were 1: the other
  // dimensions still enter products (the importer fuzzer found Softmax's
  // coercion to 2-D overflowing on [INT64_MAX, 6, 0]).
  auto count = graph::shapes::extent(type.getShape());
  if (!count) {
    report(code::Overflow, node, node ? opset : 0, what + ": " + llvm::toString(count.takeError()));
    return false;
  }
  Type element = type.getElementType();
  if (auto q = dyn_cast<quant::QuantizedType>(element))
    element = q.getStorageType();
  unsigned bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 8;
  unsigned __int128 bytes = (unsigned __int128)uint64_t(*count) * std::max(1u, bits / 8);
  if (bytes <= isa::gmAddressBytes())
    return true;
  bool empty = llvm::is_contained(type.getShape(), 0);
  report(code::Overflow, node, node ? opset : 0,
         what + " " + graph::shapes::str(type.getShape()) + (empty ? " is empty but spans " : " has ") +
             std::to_string(*count) + " elements, " +
             std::to_string(uint64_t(std::min<unsigned __int128>(bytes, UINT64_MAX))) +
             " bytes; an NPU memory region addresses at most " +
             std::to_string(isa::gmAddressBytes()) + " bytes");
  return false;
}

std::optional<Type> Importer::elementType(int32_t t) {
  switch (t) {
  case onnx::TensorProto::FLOAT: return b.getF32Type();
  case onnx::TensorProto::FLOAT16: return b.getF16Type();
  case onnx::TensorProto::DOUBLE: return b.getF64Type();
  case onnx::TensorProto::BFLOAT16: return b.getBF16Type();
  case onnx::TensorProto::INT8: return b.getIntegerType(8);
  case onnx::TensorProto::INT16: return b.getIntegerType(16);
  case onnx::TensorProto::INT32: return b.getIntegerType(32);
  case onnx::TensorProto::INT64: return b.getIntegerType(64);
  case onnx::TensorProto::UINT8: return b.getIntegerType(8, false);
  case onnx::TensorProto::UINT16: return b.getIntegerType(16, false);
  case onnx::TensorProto::UINT32: return b.getIntegerType(32, false);
  case onnx::TensorProto::UINT64: return b.getIntegerType(64, false);
  case onnx::TensorProto::BOOL: return b.getI1Type();
  default: return std::nullopt;
  }
}

namespace {
const char *typeName(int32_t t) {
  return onnx::TensorProto_DataType_IsValid(t)
             ? onnx::TensorProto_DataType_Name(onnx::TensorProto_DataType(t)).c_str()
             : "invalid";
}

/// Reads external data confined to the model's directory.
bool readExternal(Importer &imp, const onnx::TensorProto &t, const onnx::NodeProto *node,
                  uint64_t bytes, std::vector<char> &out) {
  std::string location;
  uint64_t offset = 0, length = bytes;
  bool hasLength = false;
  for (const onnx::StringStringEntryProto &e : t.external_data()) {
    if (e.key() == "location")
      location = e.value();
    else if (e.key() == "offset" || e.key() == "length") {
      char *end = nullptr;
      unsigned long long v = std::strtoull(e.value().c_str(), &end, 10);
      if (e.value().empty() || *end || e.value()[0] == '-') {
        imp.report(code::ExternalData, node, 0,
                   "tensor '" + t.name() + "': external data " + e.key() + " '" + e.value() +
                       "' is not a non-negative integer");
        return false;
      }
      (e.key() == "offset" ? offset : length) = v;
      hasLength |= e.key() == "length";
    }
  }
  auto fail = [&](const std::string &why) {
    imp.report(code::ExternalData, node, 0, "tensor '" + t.name() + "': " + why);
    return false;
  };
  fs::path rel(location);
  if (location.empty())
    return fail("external data has no location");
  if (rel.is_absolute())
    return fail("external data location '" + location + "' is absolute; it must be relative "
                "to the model's directory");
  for (const fs::path &part : rel)
    if (part == "..")
      return fail("external data location '" + location + "' leaves the model's directory");
  std::error_code ec;
  fs::path base = fs::weakly_canonical(imp.dir, ec);
  fs::path file = fs::weakly_canonical(fs::path(imp.dir) / rel, ec);
  if (ec || !fs::exists(file))
    return fail("external data file '" + location + "' does not exist");
  if (!fs::is_regular_file(file, ec))
    return fail("external data location '" + location + "' is not a regular file");
  auto [mismatch, _] = std::mismatch(base.begin(), base.end(), file.begin(), file.end());
  if (mismatch != base.end())
    return fail("external data file '" + location + "' resolves outside the model's directory "
                "(through a symbolic link)");
  uint64_t size = fs::file_size(file, ec);
  if (ec || offset > size || length > size - offset)
    return fail("external data [" + std::to_string(offset) + ", +" + std::to_string(length) +
                ") exceeds '" + location + "' (" + std::to_string(size) + " bytes)");
  if (hasLength && length != bytes)
    return fail("external data length " + std::to_string(length) + " does not match the " +
                std::to_string(bytes) + " bytes of the tensor");
  std::ifstream in(file, std::ios::binary);
  out.resize(bytes);
  in.seekg(std::streamoff(offset));
  in.read(out.data(), std::streamsize(bytes));
  if (!in)
    return fail("cannot read external data from '" + location + "'");
  return true;
}
} // namespace

bool Importer::readBoundTensor(const std::string &file, onnx::TensorProto &t) {
  std::vector<uint8_t> data;
  std::string error;
  if (!model::readFile(file, data, error)) {
    report(code::BadInputShape, nullptr, 0, "--bind-input: " + error);
    return false;
  }
  std::string bytes(data.begin(), data.end());
  if (bytes.compare(0, 6, "\x93NUMPY") == 0) {
    HostTensor h;
    std::string error;
    if (!parseNpy(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(), h, error)) {
      report(code::BadInputShape, nullptr, 0, "--bind-input: '" + file + "': " + error);
      return false;
    }
    static const int32_t onnxType[] = {3, 2, 5, 6, 10, 1};  // model::DType order
    t.set_data_type(onnxType[unsigned(h.dtype)]);
    for (int64_t d : h.shape)
      t.add_dims(d);
    t.set_raw_data(std::string(h.data.begin(), h.data.end()));
    return true;
  }
  if (!t.ParseFromString(bytes)) {
    report(code::BadInputShape, nullptr, 0, "--bind-input: '" + file + "' is neither a .npy file nor a TensorProto");
    return false;
  }
  return true;
}

DenseElementsAttr Importer::tensorData(const onnx::TensorProto &t, const onnx::NodeProto *node) {
  std::optional<Type> element = elementType(t.data_type());
  if (!element || element->isBF16()) {
    report(code::UnsupportedType, node, 0,
           "tensor '" + t.name() + "' has unsupported element type " + typeName(t.data_type()));
    return {};
  }
  SmallVector<int64_t> shape(t.dims().begin(), t.dims().end());
  auto count = graph::shapes::numElements(shape);
  if (!count) {
    report(code::Overflow, node, 0, "tensor '" + t.name() + "': " + llvm::toString(count.takeError()));
    return {};
  }
  // The limit applies to the extent (zero dimensions as 1), so that an empty
  // initializer's other dimensions cannot overflow products either.
  auto extent = graph::shapes::extent(shape);
  if (!extent) {
    report(code::Overflow, node, 0, "tensor '" + t.name() + "': " + llvm::toString(extent.takeError()));
    return {};
  }
  auto type = RankedTensorType::get(shape, *element);
  unsigned width = element->getIntOrFloatBitWidth();
  uint64_t bytes = element->isInteger(1) ? uint64_t(*count) : uint64_t(*count) * (width / 8);
  if (uint64_t(*extent) > (uint64_t(1) << 34) / std::max(1u, width / 8)) {
    report(code::Overflow, node, 0, "tensor '" + t.name() + "' spans more than 16 GiB");
    return {};
  }
  std::vector<char> raw;
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    if (!readExternal(*this, t, node, bytes, raw))
      return {};
  } else if (t.has_raw_data()) {
    if (t.raw_data().size() != bytes) {
      report(code::Read, node, 0,
             "tensor '" + t.name() + "' holds " + std::to_string(t.raw_data().size()) +
                 " bytes of raw data, expected " + std::to_string(bytes));
      return {};
    }
    raw.assign(t.raw_data().begin(), t.raw_data().end());
  } else {
    // Typed fields: the count is checked before the buffer is sized by the
    // dims (a hostile shape over a few values must not allocate gigabytes),
    // then the values widen into little-endian raw bytes.
    bool f32 = element->isF32(), f64 = element->isF64();
    bool i64 = element->isInteger(64) && !element->isUnsignedInteger();
    bool u64 = element->isUnsignedInteger(32) || element->isUnsignedInteger(64);
    int64_t have = f32   ? t.float_data_size()
                   : f64 ? t.double_data_size()
                   : i64 ? t.int64_data_size()
                   : u64 ? t.uint64_data_size()
                         : t.int32_data_size();
    if (uint64_t(have) != uint64_t(*count)) {
      report(code::Read, node, 0,
             "tensor '" + t.name() + "' holds " + std::to_string(have) + " values, expected " +
                 std::to_string(*count));
      return {};
    }
    raw.resize(bytes);
    unsigned n = element->isInteger(1) ? 1 : width / 8;
    for (int i = 0; i < have; ++i) {
      uint64_t v;
      if (f32) {
        uint32_t u;
        float f = t.float_data(i);
        std::memcpy(&u, &f, 4);
        v = u;
      } else if (f64) {
        double d = t.double_data(i);
        std::memcpy(&v, &d, 8);
      } else {
        v = i64 ? uint64_t(t.int64_data(i)) : u64 ? t.uint64_data(i) : uint64_t(uint32_t(t.int32_data(i)));
      }
      for (unsigned k = 0; k < n; ++k)
        raw[uint64_t(i) * n + k] = char(v >> (8 * k));
    }
  }
  if (element->isInteger(1)) {
    SmallVector<bool> bits;
    for (char c : raw)
      bits.push_back(c != 0);
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  return DenseElementsAttr::getFromRawBuffer(type, ArrayRef<char>(raw));
}

void Importer::importNode(const onnx::NodeProto &node) {
  bool ms = node.domain() == "com.microsoft";
  int64_t set = ms ? msOpset : opset;
  OpImporter fn = lookupOpImporter(node.domain(), node.op_type());
  bool poisonedInput = llvm::any_of(node.input(), [&](const std::string &n) {
    return poisoned.count(n) != 0;
  });
  auto poisonOutputs = [&] {
    for (const std::string &out : node.output())
      poisoned.insert(out);
  };
  if (!fn) {
    report(code::UnsupportedOp, &node, set,
           "unsupported operator '" + node.op_type() + "'" +
               (node.domain().empty() ? std::string() : " of domain '" + node.domain() + "'"));
    poisonOutputs();
    return;
  }
  if (poisonedInput) {
    poisonOutputs();
    return;
  }
  NodeContext ctx(*this, node, set);
  size_t before = issues.size();
  if (failed(fn(ctx))) {
    if (issues.size() == before)
      report(code::UnsupportedAttr, &node, set, "cannot be imported");
    poisonOutputs();
    return;
  }
  for (const std::string &out : node.output())
    if (!out.empty() && !values.count(out)) {
      report(code::UnsupportedOp, &node, set, "output '" + out + "' is not supported");
      poisoned.insert(out);
    }
  nodes.push_back({nodeName(node), node.op_type(), node.domain(), set, schemaVersion(node, set)});
}

void Importer::importNodes(const onnx::GraphProto &graph) {
  // Kahn's algorithm: ONNX graphs are usually sorted, but need not be.
  std::map<std::string, int> producer;
  for (int i = 0; i < graph.node_size(); ++i)
    for (const std::string &out : graph.node(i).output()) {
      if (out.empty())
        continue;
      if (values.count(out) || producer.count(out)) {
        report(code::Structure, &graph.node(i), opset,
               "value '" + out + "' is defined more than once");
        continue;
      }
      producer[out] = i;
    }
  std::vector<int> pending(graph.node_size(), 0);
  std::vector<std::vector<int>> users(graph.node_size());
  auto available = [&](const std::string &n) {
    return n.empty() || values.count(n) || poisoned.count(n);
  };
  for (int i = 0; i < graph.node_size(); ++i) {
    std::set<int> deps;
    for (const std::string &in : graph.node(i).input()) {
      if (available(in))
        continue;
      auto it = producer.find(in);
      if (it == producer.end()) {
        report(code::Structure, &graph.node(i), opset,
               "input '" + in + "' is not produced by any node, initializer or graph input");
        poisoned.insert(in);
        continue;
      }
      deps.insert(it->second);
    }
    // Subgraph (If branch) inputs from the outer scope count too.
    for (const onnx::AttributeProto &a : graph.node(i).attribute())
      if (a.has_g())
        for (const onnx::NodeProto &n : a.g().node())
          for (const std::string &in : n.input())
            if (auto it = producer.find(in); it != producer.end() && it->second != i)
              deps.insert(it->second);
    pending[i] = int(deps.size());
    for (int d : deps)
      users[d].push_back(i);
  }
  std::deque<int> ready;
  for (int i = 0; i < graph.node_size(); ++i)
    if (pending[i] == 0)
      ready.push_back(i);
  std::vector<bool> done(graph.node_size(), false);
  size_t imported = 0;
  while (!ready.empty()) {
    int i = ready.front();
    ready.pop_front();
    importNode(graph.node(i));
    done[i] = true;
    ++imported;
    for (int u : users[i])
      if (--pending[u] == 0)
        ready.push_back(u);
  }
  if (imported != size_t(graph.node_size())) {
    std::string names;
    for (int i = 0; i < graph.node_size(); ++i)
      if (!done[i]) {
        const onnx::NodeProto &n = graph.node(i);
        std::string label = !n.name().empty() ? n.name()
                            : n.output_size()  ? n.output(0)
                                               : "#" + std::to_string(i) + " " + n.op_type();
        names += (names.empty() ? "'" : ", '") + label + "'";
        for (const std::string &out : n.output())
          poisoned.insert(out);
      }
    report(code::Structure, nullptr, 0, "nodes " + names + " form a cycle");
  }
}

Result Importer::run() {
  Result result;
  std::vector<uint8_t> file;
  std::string readError;
  if (!model::readFile(path, file, readError)) {
    report(code::Read, nullptr, 0,
           readError + (fs::is_directory(path) ? " (npuc compiles one model file, e.g. DIR/model.onnx)" : ""));
    result.issues = std::move(issues);
    return result;
  }
  std::string bytes(file.begin(), file.end());
  result.sourceSha256 = sha256Hex(bytes.data(), bytes.size());
  onnx::ModelProto model;
  if (bytes.empty() || !model.ParseFromString(bytes) || !model.has_graph()) {
    report(code::Read, nullptr, 0,
           "not an ONNX model, or truncated (the protobuf does not parse to a ModelProto with a graph)");
    result.issues = std::move(issues);
    return result;
  }
  for (const onnx::OperatorSetIdProto &o : model.opset_import()) {
    if (o.domain().empty() || o.domain() == "ai.onnx")
      opset = o.version();
    else if (o.domain() == "com.microsoft")
      msOpset = o.version();
  }
  if (opset == 0 && model.opset_import_size() == 0)
    opset = 1;
  // An opset before 6 reads as opset 6 when every op of the graph has the
  // same schema in both (ONNX's registry says when each op last changed):
  // Not, Softplus or Softsign from opset 1 are the ops of opset 6.
  if (opset > 0 && opset < kMinOpset) {
    for (const onnx::NodeProto &n : model.graph().node())
      if ((n.domain().empty() || n.domain() == "ai.onnx") &&
          schemaVersion(n, opset) != schemaVersion(n, kMinOpset)) {
        report(code::Opset, nullptr, opset,
               "default-domain opset " + std::to_string(opset) + " is outside the supported range [" +
                   std::to_string(kMinOpset) + ", " + std::to_string(kMaxOpset) + "], and " +
                   n.op_type() + " changed after it (version " +
                   std::to_string(schemaVersion(n, opset)) + ", then " +
                   std::to_string(schemaVersion(n, kMinOpset)) + ")");
        result.issues = std::move(issues);
        return result;
      }
    opset = kMinOpset;
  }
  if (opset != 0 && (opset < kMinOpset || opset > kMaxOpset)) {
    report(code::Opset, nullptr, opset,
           "default-domain opset " + std::to_string(opset) + " is outside the supported range [" +
               std::to_string(kMinOpset) + ", " + std::to_string(kMaxOpset) + "]");
    result.issues = std::move(issues);
    return result;
  }
  const onnx::GraphProto &g = model.graph();
  result.nodeCount = size_t(g.node_size());
  if (g.output_size() == 0) {
    report(code::Structure, nullptr, 0,
           "the graph has no outputs: there is nothing to compute (a model names at least one "
           "graph output)");
    result.issues = std::move(issues);
    return result;
  }

  ModuleOp module = ModuleOp::create(FileLineColLoc::get(&ctx, path, 0, 0));
  result.module = OwningOpRef<ModuleOp>(module);
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(b, FileLineColLoc::get(&ctx, path, 0, 0), "main",
                                   b.getFunctionType({}, {}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToEnd(entry);

  // Initializers become constants.
  std::set<std::string> initializers;
  for (const onnx::TensorProto &t : g.initializer()) {
    initializers.insert(t.name());
    if (values.count(t.name())) {
      report(code::Structure, nullptr, 0, "initializer '" + t.name() + "' is defined more than once");
      continue;
    }
    DenseElementsAttr data = tensorData(t, nullptr);
    if (!data) {
      poisoned.insert(t.name());
      continue;
    }
    Location loc = NameLoc::get(b.getStringAttr(t.name()), FileLineColLoc::get(&ctx, path, 0, 0));
    Value v = graph::ConstantOp::create(b, loc, data.getType(), cast<ElementsAttr>(data));
    values[t.name()] = Val{v, data};
  }

  // Inputs frozen to constants from the command line.
  std::set<std::string> boundUsed;
  std::vector<std::string> unboundNames;  // --bind-input names that are not graph inputs
  for (const auto &[name, file] : options.boundInputs) {
    const onnx::ValueInfoProto *info = nullptr;
    for (const onnx::ValueInfoProto &vi : g.input())
      if (vi.name() == name && !initializers.count(name))
        info = &vi;
    if (!info) {
      unboundNames.push_back(name);
      continue;
    }
    boundUsed.insert(name);
    onnx::TensorProto t;
    if (!readBoundTensor(file, t)) {
      poisoned.insert(name);
      continue;
    }
    t.set_name(name);
    int32_t declared = info->type().tensor_type().elem_type();
    if (declared != t.data_type()) {
      report(code::BadInputShape, nullptr, 0,
             "--bind-input " + name + ": '" + file + "' holds " + typeName(t.data_type()) +
                 ", the input is " + typeName(declared));
      poisoned.insert(name);
      continue;
    }
    DenseElementsAttr data = tensorData(t, nullptr);
    if (!data) {
      poisoned.insert(name);
      continue;
    }
    Location loc = NameLoc::get(b.getStringAttr(name), FileLineColLoc::get(&ctx, path, 0, 0));
    values[name] = Val{graph::ConstantOp::create(b, loc, data.getType(), cast<ElementsAttr>(data)), data};
  }

  // Graph inputs, with pinned shapes.
  std::set<std::string> pinnedUsed;
  SmallVector<Type> argTypes;
  for (const onnx::ValueInfoProto &vi : g.input()) {
    if (initializers.count(vi.name()) || boundUsed.count(vi.name()))
      continue;
    const std::string &name = vi.name();
    if (values.count(name)) {
      report(code::Structure, nullptr, 0, "graph input '" + name + "' is defined more than once");
      continue;
    }
    if (!vi.type().has_tensor_type()) {
      report(code::UnsupportedType, nullptr, 0, "graph input '" + name + "' is not a tensor");
      poisoned.insert(name);
      continue;
    }
    const onnx::TypeProto_Tensor &tt = vi.type().tensor_type();
    std::optional<Type> element = elementType(tt.elem_type());
    if (!element) {
      report(code::UnsupportedType, nullptr, 0,
             "graph input '" + name + "' has unsupported element type " + typeName(tt.elem_type()));
      poisoned.insert(name);
      continue;
    }
    SmallVector<int64_t> shape;
    std::vector<std::string> symbolic;
    for (const onnx::TensorShapeProto_Dimension &d : tt.shape().dim()) {
      shape.push_back(d.has_dim_value() && d.dim_value() >= 0 ? d.dim_value() : ShapedType::kDynamic);
      symbolic.push_back(d.has_dim_param() ? d.dim_param() : "?");
    }
    bool ok = true;
    for (const auto &[pinName, dims] : options.inputShapes) {
      if (pinName != name)
        continue;
      pinnedUsed.insert(pinName);
      if (tt.has_shape() && dims.size() != shape.size()) {
        report(code::BadInputShape, nullptr, 0,
               "--input-shape " + name + " gives " + std::to_string(dims.size()) +
                   " dimensions, but the input has rank " + std::to_string(shape.size()));
        ok = false;
        break;
      }
      if (!tt.has_shape())
        shape.assign(dims.begin(), dims.end());
      for (size_t i = 0; i < dims.size(); ++i) {
        if (shape[i] != ShapedType::kDynamic && shape[i] != dims[i]) {
          report(code::BadInputShape, nullptr, 0,
                 "--input-shape " + name + ": dimension " + std::to_string(i) + " is " +
                     std::to_string(shape[i]) + " in the model, not " + std::to_string(dims[i]));
          ok = false;
        }
        shape[i] = dims[i];
      }
    }
    if (!tt.has_shape() && !llvm::is_contained(pinnedUsed, name)) {
      report(code::DynamicShape, nullptr, 0,
             "graph input '" + name + "' has no shape; give one with --input-shape " + name +
                 "=D1xD2x...");
      ok = false;
    }
    for (size_t i = 0; ok && i < shape.size(); ++i)
      if (shape[i] == ShapedType::kDynamic || shape[i] < 0) {
        // The pin to write: the known dimensions as they are, '?' for each
        // dynamic one.
        std::string pin;
        for (size_t d = 0; d < shape.size(); ++d)
          pin += (d ? "x" : "") + (shape[d] >= 0 ? std::to_string(shape[d]) : std::string("?"));
        report(code::DynamicShape, nullptr, 0,
               "graph input '" + name + "' dimension " + std::to_string(i) + " ('" + symbolic[i] +
                   "') is dynamic; pin it with --input-shape " + name + "=" + pin +
                   ", each '?' replaced by its size");
        ok = false;
      }
    if (ok)
      ok = fitsMemory(RankedTensorType::get(shape, *element), "graph input '" + name + "'", nullptr);
    if (!ok) {
      poisoned.insert(name);
      continue;
    }
    auto type = RankedTensorType::get(shape, *element);
    argTypes.push_back(type);
    Location loc = NameLoc::get(b.getStringAttr(name), FileLineColLoc::get(&ctx, path, 0, 0));
    values[name] = Val{entry->addArgument(type, loc), {}};
  }
  // Options that name no graph input say which inputs there are.
  std::vector<std::string> inputNames;
  std::string inputList;
  for (const onnx::ValueInfoProto &vi : g.input())
    if (!initializers.count(vi.name())) {
      inputNames.push_back(vi.name());
      std::string dims;
      for (const onnx::TensorShapeProto_Dimension &d : vi.type().tensor_type().shape().dim())
        dims += (dims.empty() ? "" : "x") + (d.has_dim_value() ? std::to_string(d.dim_value()) : std::string("?"));
      inputList += (inputList.empty() ? "'" : ", '") + vi.name() + "' [" + dims + "]";
    }
  auto notAnInput = [&](const std::string &option, const std::string &name) {
    report(code::BadInputShape, nullptr, 0,
           option + " names '" + name + "', which is not a graph input" +
               npuc::cli::didYouMean(name, inputNames) + "; the graph inputs are " +
               (inputList.empty() ? "none" : inputList));
  };
  for (const auto &[pinName, dims] : options.inputShapes)
    if (!pinnedUsed.count(pinName))
      notAnInput("--input-shape", pinName);
  for (const std::string &name : unboundNames)
    notAnInput("--bind-input", name);

  importNodes(g);

  SmallVector<Value> results;
  SmallVector<std::string> resultNames;
  for (const onnx::ValueInfoProto &vi : g.output()) {
    auto it = values.find(vi.name());
    if (it == values.end()) {
      if (!poisoned.count(vi.name()))
        report(code::Structure, nullptr, 0,
               "graph output '" + vi.name() + "' is not produced by any node");
      continue;
    }
    results.push_back(it->second.value);
    resultNames.push_back(vi.name());
  }
  func::ReturnOp::create(b, FileLineColLoc::get(&ctx, path, 0, 0), results);
  func.setFunctionType(b.getFunctionType(argTypes, ValueRange(results).getTypes()));
  // The ONNX names of the graph's inputs and outputs, for the model file's
  // tensor descriptors.
  for (BlockArgument arg : entry->getArguments())
    if (auto name = dyn_cast<NameLoc>(arg.getLoc()))
      func.setArgAttr(arg.getArgNumber(), "graph.name", name.getName());
  for (auto [i, name] : llvm::enumerate(resultNames))
    func.setResultAttr(unsigned(i), "graph.name", b.getStringAttr(name));
  // Constants that folding consumed (shape computations) are no longer used.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*entry)))
    if (llvm::isa<graph::ConstantOp>(op) && op.use_empty())
      op.erase();

  if (issues.empty()) {
    std::string message;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      if (message.empty())
        message = d.str();
      return success();
    });
    if (failed(mlir::verify(module)))
      report(code::ShapeMismatch, nullptr, 0, "the imported module does not verify: " + message);
  }
  if (!issues.empty())
    result.module = nullptr;
  result.issues = std::move(issues);
  result.nodes = std::move(nodes);
  return result;
}

Result npuc::onnx_import::importModel(MLIRContext &context, const std::string &path,
                                      const Options &options) {
  context.loadDialect<graph::GraphDialect, func::FuncDialect, quant::QuantDialect>();
  return Importer(context, path, options).run();
}

std::string npuc::onnx_import::formatIssue(const std::string &path, const Issue &i) {
  std::string s = path + ": ";
  if (!i.opType.empty()) {
    s += "node '" + i.node + "' (" + (i.domain.empty() ? "" : i.domain + ".") + i.opType;
    if (i.opset)
      s += ", opset " + std::to_string(i.opset);
    s += "): ";
  } else if (!i.node.empty()) {
    s += "node '" + i.node + "': ";
  }
  return s + "error " + i.code + ": " + i.message;
}

std::string npuc::onnx_import::reportJson(const std::string &path, const Result &r,
                                          const std::vector<Issue> &extraIssues,
                                          const std::map<std::string, std::vector<NodeCase>> &cases) {
  std::string s = "{\"model\": " + json::quote(path) + ",\n \"source_sha256\": \"" +
                  r.sourceSha256 + "\",\n \"nodes\": " + std::to_string(r.nodeCount) +
                  ",\n \"importable\": " + (r.issues.empty() ? "true" : "false") +
                  ",\n \"issues\": [";
  std::vector<const Issue *> all;
  for (const Issue &i : r.issues)
    all.push_back(&i);
  for (const Issue &i : extraIssues)
    all.push_back(&i);
  for (size_t k = 0; k < all.size(); ++k) {
    const Issue &i = *all[k];
    s += std::string(k ? ",\n  " : "\n  ") + "{\"code\": \"" + i.code + "\", \"node\": " +
         json::quote(i.node) + ", \"op_type\": " + json::quote(i.opType) + ", \"domain\": " +
         json::quote(i.domain) + ", \"opset\": " + std::to_string(i.opset) +
         ", \"message\": " + json::quote(i.message) + ", \"bind_input\": " + json::quote(i.bindInput) +
         ", \"nodes\": [";
    for (size_t n = 0; n < i.nodes.size(); ++n)
      s += (n ? ", " : "") + json::quote(i.nodes[n]);
    s += "]}";
  }
  s += "],\n \"cases\": [";
  for (size_t k = 0; k < r.nodes.size(); ++k) {
    const NodeInfo &n = r.nodes[k];
    s += std::string(k ? ",\n  " : "\n  ") + "{\"node\": " + json::quote(n.node) +
         ", \"op_type\": " + json::quote(n.opType) + ", \"domain\": " + json::quote(n.domain) +
         ", \"opset\": " + std::to_string(n.opset) + ", \"version\": " + std::to_string(n.version) +
         ", \"cases\": [";
    auto it = cases.find(n.node);
    if (it != cases.end())
      for (size_t c = 0; c < it->second.size(); ++c) {
        const NodeCase &nc = it->second[c];
        s += std::string(c ? ", " : "") + "{\"case\": " + json::quote(nc.key) +
             ", \"evidence\": " + json::quote(nc.level) + ", \"tests\": " + json::quote(nc.tests) +
             "}";
      }
    s += "]}";
  }
  return s + "]}\n";
}
