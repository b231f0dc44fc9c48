//===- Importer.cpp - ModelProto to the graph dialect ---------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The model-level work: reading the file, opsets, initializers (their data:
// TensorData.cpp), pinned input shapes, graph structure (missing inputs,
// duplicate names, cycles), dispatch of every node to its op importer
// (Ops*.cpp), which creates graph ops through NodeContext::build, and the
// diagnostics report. Issues are collected across the whole model; a node
// whose inputs failed is skipped without a second report, but its own op
// type is still checked.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"
#include "Folding.h"

#include "npuc/Base/Spelling.h"
#include "npuc/Base/ISA.h"
#include "npuc/Base/Json.h"
#include "npuc/Base/ModelFile.h"
#include "npuc/Base/Sha256.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MathExtras.h"

#include <deque>
#include <filesystem>

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

std::optional<std::vector<Val>> NodeContext::sequence(size_t i) {
  if (i < size_t(node.input_size()) && !node.input(int(i)).empty()) {
    auto it = imp.sequences.find(node.input(int(i)));
    if (it != imp.sequences.end())
      return it->second;
  }
  (void)fail(code::Structure, "input " + llvm::Twine(i) + " is not a sequence whose structure is known at "
                                                           "compile time");
  return std::nullopt;
}

void NodeContext::setSequenceOutput(size_t i, std::vector<Val> elements) {
  if (i < size_t(node.output_size()) && !node.output(int(i)).empty())
    imp.sequences[node.output(int(i))] = std::move(elements);
}

std::optional<Val> NodeContext::required(size_t i) {
  if (auto v = input(i))
    return v;
  (void)fail(code::Structure, "required input " + llvm::Twine(i) + " is missing");
  return std::nullopt;
}

DenseElementsAttr NodeContext::requiredConstant(size_t i, StringRef what) {
  std::optional<Val> v = input(i);
  if (!v) {
    (void)fail(code::Structure, "required input " + llvm::Twine(i) + " (" + what + ") is missing");
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
    (void)fail(code::NotConstant, "input " + llvm::Twine(i) + " (" + what + ", '" + node.input(i) +
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
    (void)fail(code::UnsupportedType, what + llvm::Twine(" must be integers"));
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
    (void)fail(code::UnsupportedAttr, what + llvm::Twine(" ") + llvm::Twine(a) + " is outside [-" +
                                          llvm::Twine(rank) + ", " + llvm::Twine(rank) + ")");
    return std::nullopt;
  }
  return n;
}

FailureOr<Operation *> NodeContext::checkBuilt(Operation *op) {
  OperationName name = op->getName();
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
        if (!imp.fitsMemory(cast<RankedTensorType>(t), name.getStringRef().str() + " result", &node)) {
          op->erase();
          return failure();
        }
      // An op on constants (a shape computation) is its value.
      if (std::optional<DenseElementsAttr> value = graph::foldToConstant(op)) {
        Location l = op->getLoc();
        Type type = op->getResult(0).getType();
        op->erase();
        return graph::ConstantOp::create(b, l, type, cast<ElementsAttr>(*value)).getOperation();
      }
      return op;
    }
  }
  op->erase();
  (void)fail(code::ShapeMismatch, name.getStringRef() + ": " + message);
  return failure();
}

FailureOr<Value> NodeContext::resultOf(FailureOr<Operation *> op) {
  if (failed(op))
    return failure();
  return (*op)->getResult(0);
}

LogicalResult NodeContext::bindOutput(FailureOr<Value> result) {
  if (failed(result))
    return failure();
  setOutput(0, *result);
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
    if (!out.empty() && !values.count(out) && !sequences.count(out)) {
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
      if (values.count(out) || sequences.count(out) || producer.count(out)) {
        report(code::Structure, &graph.node(i), opset,
               "value '" + out + "' is defined more than once");
        continue;
      }
      producer[out] = i;
    }
  std::vector<int> pending(graph.node_size(), 0);
  std::vector<std::vector<int>> users(graph.node_size());
  auto available = [&](const std::string &n) {
    return n.empty() || values.count(n) || sequences.count(n) || poisoned.count(n);
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

//===----------------------------------------------------------------------===//
// The model
//===----------------------------------------------------------------------===//

bool Importer::readModel(onnx::ModelProto &proto, Result &result) {
  std::vector<uint8_t> file;
  std::string readError;
  if (!model::readFile(path, file, readError)) {
    report(code::Read, nullptr, 0,
           readError + (fs::is_directory(path) ? " (npuc compiles one model file, e.g. DIR/model.onnx)" : ""));
    return false;
  }
  std::string bytes(file.begin(), file.end());
  result.sourceSha256 = sha256Hex(bytes.data(), bytes.size());
  if (bytes.empty() || !proto.ParseFromString(bytes) || !proto.has_graph()) {
    report(code::Read, nullptr, 0,
           "not an ONNX model, or truncated (the protobuf does not parse to a ModelProto with a graph)");
    return false;
  }
  return true;
}

bool Importer::readOpsets(const onnx::ModelProto &proto) {
  for (const onnx::OperatorSetIdProto &o : proto.opset_import()) {
    if (o.domain().empty() || o.domain() == "ai.onnx")
      opset = o.version();
    else if (o.domain() == "com.microsoft")
      msOpset = o.version();
  }
  if (opset == 0 && proto.opset_import_size() == 0)
    opset = 1;
  // An opset before 6 reads as opset 6 when every op of the graph has the
  // same schema in both (ONNX's registry says when each op last changed):
  // Not, Softplus or Softsign from opset 1 are the ops of opset 6.
  if (opset > 0 && opset < kMinOpset) {
    for (const onnx::NodeProto &n : proto.graph().node())
      if ((n.domain().empty() || n.domain() == "ai.onnx") &&
          schemaVersion(n, opset) != schemaVersion(n, kMinOpset)) {
        report(code::Opset, nullptr, opset,
               "default-domain opset " + std::to_string(opset) + " is outside the supported range [" +
                   std::to_string(kMinOpset) + ", " + std::to_string(kMaxOpset) + "], and " +
                   n.op_type() + " changed after it (version " +
                   std::to_string(schemaVersion(n, opset)) + ", then " +
                   std::to_string(schemaVersion(n, kMinOpset)) + ")");
        return false;
      }
    opset = kMinOpset;
  }
  if (opset != 0 && (opset < kMinOpset || opset > kMaxOpset)) {
    report(code::Opset, nullptr, opset,
           "default-domain opset " + std::to_string(opset) + " is outside the supported range [" +
               std::to_string(kMinOpset) + ", " + std::to_string(kMaxOpset) + "]");
    return false;
  }
  return true;
}

std::set<std::string> Importer::importInitializers(const onnx::GraphProto &g) {
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
  return initializers;
}

std::set<std::string> Importer::bindInputs(const onnx::GraphProto &g,
                                           const std::set<std::string> &initializers,
                                           std::vector<std::string> &unbound) {
  std::set<std::string> bound;
  for (const auto &[name, file] : options.boundInputs) {
    const onnx::ValueInfoProto *info = nullptr;
    for (const onnx::ValueInfoProto &vi : g.input())
      if (vi.name() == name && !initializers.count(name))
        info = &vi;
    if (!info) {
      unbound.push_back(name);
      continue;
    }
    bound.insert(name);
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
  return bound;
}

std::set<std::string> Importer::importGraphInputs(const onnx::GraphProto &g,
                                                  const std::set<std::string> &initializers,
                                                  const std::set<std::string> &bound, Block *entry) {
  std::set<std::string> pinned;
  for (const onnx::ValueInfoProto &vi : g.input()) {
    if (initializers.count(vi.name()) || bound.count(vi.name()))
      continue;
    const std::string &name = vi.name();
    if (values.count(name)) {
      report(code::Structure, nullptr, 0, "graph input '" + name + "' is defined more than once");
      continue;
    }
    std::optional<RankedTensorType> type = graphInputType(vi, pinned);
    if (!type) {
      poisoned.insert(name);
      continue;
    }
    Location loc = NameLoc::get(b.getStringAttr(name), FileLineColLoc::get(&ctx, path, 0, 0));
    values[name] = Val{entry->addArgument(*type, loc), {}};
    if (vi.type().tensor_type().elem_type() == onnx::TensorProto::DOUBLE)
      float64At.push_back("graph input '" + name + "'");
  }
  return pinned;
}

std::optional<RankedTensorType> Importer::graphInputType(const onnx::ValueInfoProto &vi,
                                                         std::set<std::string> &pinned) {
  const std::string &name = vi.name();
  if (!vi.type().has_tensor_type()) {
    report(code::UnsupportedType, nullptr, 0, "graph input '" + name + "' is not a tensor");
    return std::nullopt;
  }
  const onnx::TypeProto_Tensor &tt = vi.type().tensor_type();
  std::optional<Type> element = elementType(tt.elem_type());
  if (!element) {
    report(code::UnsupportedType, nullptr, 0,
           "graph input '" + name + "' has unsupported element type " + typeName(tt.elem_type()) +
               float64Hint(tt.elem_type()));
    return std::nullopt;
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
    pinned.insert(pinName);
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
  if (!tt.has_shape() && !llvm::is_contained(pinned, name)) {
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
  if (!ok)
    return std::nullopt;
  return RankedTensorType::get(shape, *element);
}

void Importer::reportUnknownInputs(const onnx::GraphProto &g,
                                   const std::set<std::string> &initializers,
                                   const std::set<std::string> &pinned,
                                   const std::vector<std::string> &unbound) {
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
    if (!pinned.count(pinName))
      notAnInput("--input-shape", pinName);
  for (const std::string &name : unbound)
    notAnInput("--bind-input", name);
}

void Importer::finishMain(const onnx::GraphProto &g, func::FuncOp func) {
  Block *entry = &func.getBody().front();
  SmallVector<Value> results;
  SmallVector<std::string> resultNames;
  std::set<unsigned> doubleResults;
  for (const onnx::ValueInfoProto &vi : g.output()) {
    auto it = values.find(vi.name());
    if (it == values.end()) {
      if (sequences.count(vi.name()))
        report(code::UnsupportedType, nullptr, 0,
               "graph output '" + vi.name() + "' is a sequence; model files hold tensors (a sequence inside "
               "the graph is flattened, one at its boundary is not)");
      else if (!poisoned.count(vi.name()))
        report(code::Structure, nullptr, 0,
               "graph output '" + vi.name() + "' is not produced by any node");
      continue;
    }
    Value v = it->second.value;
    if (vi.type().tensor_type().elem_type() == onnx::TensorProto::DOUBLE) {
      // Declared float64, computed as float32 (elementType).
      Type element = cast<ShapedType>(v.getType()).getElementType();
      if (!element.isF32()) {
        std::string computed;
        llvm::raw_string_ostream os(computed);
        os << element;
        report(code::UnsupportedType, nullptr, 0,
               "graph output '" + vi.name() + "' is declared DOUBLE but its producer computes " +
                   computed);
        continue;
      }
      float64At.push_back("graph output '" + vi.name() + "'");
      doubleResults.insert(unsigned(results.size()));
    }
    results.push_back(v);
    resultNames.push_back(vi.name());
  }
  func::ReturnOp::create(b, FileLineColLoc::get(&ctx, path, 0, 0), results);
  func.setFunctionType(b.getFunctionType(entry->getArgumentTypes(), ValueRange(results).getTypes()));
  // The ONNX names of the graph's inputs and outputs, for the model file's
  // tensor descriptors.
  auto f64 = TypeAttr::get(b.getF64Type());
  for (BlockArgument arg : entry->getArguments())
    if (auto name = dyn_cast<NameLoc>(arg.getLoc())) {
      func.setArgAttr(arg.getArgNumber(), graph::kBoundaryNameAttr, name.getName());
      if (llvm::is_contained(float64At, "graph input '" + name.getName().str() + "'"))
        func.setArgAttr(arg.getArgNumber(), graph::kBoundaryTypeAttr, f64);
    }
  for (unsigned i : doubleResults)
    func.setResultAttr(i, graph::kBoundaryTypeAttr, f64);
  if (!float64At.empty()) {
    std::string where;
    unsigned listed = 0;
    for (const std::string &w : float64At)
      if (!w.empty() && listed++ < 3)
        where += (where.empty() ? "" : ", ") + w;
    if (listed > 3)
      where += " and " + std::to_string(listed - 3) + " more";
    warnings.push_back("the model computes in float64" + (where.empty() ? "" : " (" + where + ")") +
                       ", which NPU-v1 computes in float32: results differ from float64 "
                       "arithmetic by float32 rounding; float64 inputs are rounded when bound and "
                       "outputs widened (docs/numerics.md, \"float64\")");
  }
  for (auto [i, name] : llvm::enumerate(resultNames))
    func.setResultAttr(unsigned(i), graph::kBoundaryNameAttr, b.getStringAttr(name));
  // Constants that folding consumed (shape computations) are no longer used.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*entry)))
    if (llvm::isa<graph::ConstantOp>(op) && op.use_empty())
      op.erase();
}

void Importer::verifyModule(ModuleOp module) {
  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    if (message.empty())
      message = d.str();
    return success();
  });
  if (failed(mlir::verify(module)))
    report(code::ShapeMismatch, nullptr, 0, "the imported module does not verify: " + message);
}

Result Importer::run() {
  Result result;
  onnx::ModelProto model;
  if (!readModel(model, result) || !readOpsets(model)) {
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

  // Initializers become constants, and so do the inputs frozen from the
  // command line; the other graph inputs, with pinned shapes, become
  // arguments.
  std::set<std::string> initializers = importInitializers(g);
  std::vector<std::string> unbound;  // --bind-input names that are not graph inputs
  std::set<std::string> bound = bindInputs(g, initializers, unbound);
  std::set<std::string> pinned = importGraphInputs(g, initializers, bound, entry);
  reportUnknownInputs(g, initializers, pinned, unbound);

  importNodes(g);
  finishMain(g, func);

  if (issues.empty())
    verifyModule(module);
  if (!issues.empty())
    result.module = nullptr;
  result.issues = std::move(issues);
  result.warnings = std::move(warnings);
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
