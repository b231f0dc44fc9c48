//===- npuc-import-fuzzer.cpp - libFuzzer target for the ONNX importer ----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Built in the sanitizer tree (scripts/check-sanitizers.sh: clang++-22,
// -fsanitize=fuzzer,address,undefined). An input is an ONNX ModelProto, or
// any bytes: the importer must accept it or report issues, never crash, hang
// or leak; a small graph it accepts also goes through the whole pipeline to a
// model file that the model-file reader accepts. The custom mutator makes
// structure-aware changes to inputs that parse (extreme attribute values,
// huge, zero and negative dims, dangling names, cycles, bad opsets, short
// initializers, traversal paths in external data) and byte-level ones to the
// rest.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/ModelFile.h"
#include "npuc/Conversion/ONNXToGraph/ONNXToGraph.h"
#include "npuc/Pipeline/Pipeline.h"
#include "npuc/Translation/ModelWriter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include <onnx/onnx_pb.h>

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

/// A graph small enough to compile within the fuzzer's time per input.
constexpr int64_t kMaxOpsToCompile = 24;
constexpr int64_t kMaxElementsToCompile = 1 << 14;

template <typename T>
T pick(std::mt19937 &rng, std::initializer_list<T> values) {
  return *(values.begin() + rng() % values.size());
}

int64_t extremeInt(std::mt19937 &rng) {
  return pick<int64_t>(rng, {0, -1, 1, 2, 3, -2, 255, 65536, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN,
                             int64_t(1) << 40, -(int64_t(1) << 33)});
}

onnx::NodeProto *someNode(onnx::GraphProto &g, std::mt19937 &rng) {
  return g.node_size() ? g.mutable_node(int(rng() % unsigned(g.node_size()))) : nullptr;
}

onnx::TensorShapeProto *someShape(onnx::GraphProto &g, std::mt19937 &rng) {
  int n = g.input_size() + g.output_size() + g.value_info_size();
  if (!n)
    return nullptr;
  int k = int(rng() % unsigned(n));
  onnx::ValueInfoProto *vi = k < g.input_size()                      ? g.mutable_input(k)
                             : k < g.input_size() + g.output_size() ? g.mutable_output(k - g.input_size())
                                                                    : g.mutable_value_info(k - g.input_size() - g.output_size());
  return vi->mutable_type()->mutable_tensor_type()->mutable_shape();
}

/// One structure-aware change; false when it found nothing to change.
bool mutate(onnx::ModelProto &m, std::mt19937 &rng) {
  onnx::GraphProto &g = *m.mutable_graph();
  switch (rng() % 12) {
  case 0: {  // the default-domain opset
    for (auto &o : *m.mutable_opset_import())
      if (o.domain().empty() || o.domain() == "ai.onnx") {
        o.set_version(pick<int64_t>(rng, {-1, 0, 1, 5, 6, 11, 13, 17, 18, 23, 24, 25, 1000, INT64_MAX}));
        return true;
      }
    return false;
  }
  case 1: {  // an integer attribute, or one element of a list of them
    onnx::NodeProto *n = someNode(g, rng);
    if (!n || !n->attribute_size())
      return false;
    onnx::AttributeProto *a = n->mutable_attribute(int(rng() % unsigned(n->attribute_size())));
    if (a->ints_size())
      a->set_ints(int(rng() % unsigned(a->ints_size())), extremeInt(rng));
    else if (a->has_i())
      a->set_i(extremeInt(rng));
    else if (a->has_f())
      a->set_f(pick<float>(rng, {0.0f, -1.0f, 1e30f, -1e-30f, std::numeric_limits<float>::infinity(),
                                 std::numeric_limits<float>::quiet_NaN()}));
    else
      return false;
    return true;
  }
  case 2: {  // a dimension: huge, zero, negative, or unknown
    onnx::TensorShapeProto *s = someShape(g, rng);
    if (!s || !s->dim_size())
      return false;
    auto *d = s->mutable_dim(int(rng() % unsigned(s->dim_size())));
    if (rng() % 4 == 0)
      d->set_dim_param("n");
    else
      d->set_dim_value(extremeInt(rng));
    return true;
  }
  case 3: {  // an initializer: short data, other dims, another type
    if (!g.initializer_size())
      return false;
    onnx::TensorProto *t = g.mutable_initializer(int(rng() % unsigned(g.initializer_size())));
    switch (rng() % 3) {
    case 0:
      if (t->raw_data().empty())
        t->clear_float_data();
      else
        t->mutable_raw_data()->resize(t->raw_data().size() / 2);
      break;
    case 1:
      if (t->dims_size())
        t->set_dims(int(rng() % unsigned(t->dims_size())), extremeInt(rng));
      else
        t->add_dims(extremeInt(rng));
      break;
    default:
      t->set_data_type(int32_t(rng() % 24));
    }
    return true;
  }
  case 4: {  // a dangling name
    onnx::NodeProto *n = someNode(g, rng);
    if (!n || !n->input_size())
      return false;
    n->set_input(int(rng() % unsigned(n->input_size())), pick<const char *>(rng, {"nope", "", "x\n"}));
    return true;
  }
  case 5: {  // a cycle: the first node reads the last node's output
    if (g.node_size() < 1 || !g.node(0).input_size() || !g.node(g.node_size() - 1).output_size())
      return false;
    g.mutable_node(0)->set_input(0, g.node(g.node_size() - 1).output(0));
    return true;
  }
  case 6: {  // external data: traversal, absolute paths, hostile offsets
    if (!g.initializer_size())
      return false;
    onnx::TensorProto *t = g.mutable_initializer(int(rng() % unsigned(g.initializer_size())));
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    t->clear_raw_data();
    t->clear_external_data();
    auto *loc = t->add_external_data();
    loc->set_key("location");
    loc->set_value(pick<const char *>(rng, {"../../../etc/passwd", "/etc/passwd", "weights.bin", "", "."}));
    auto *off = t->add_external_data();
    off->set_key(pick<const char *>(rng, {"offset", "length"}));
    off->set_value(std::to_string(extremeInt(rng)));
    return true;
  }
  case 7: {  // another op type
    onnx::NodeProto *n = someNode(g, rng);
    if (!n)
      return false;
    n->set_op_type(pick<const char *>(rng, {"Conv", "MatMul", "Gather", "Reshape", "Resize", "Pad", "Slice",
                                            "Concat", "Softmax", "LayerNormalization", "If", "Loop",
                                            "Expand", "Tile", "TopK", "NoSuchOp"}));
    return true;
  }
  case 8: {  // a node twice (an output defined twice)
    if (!g.node_size())
      return false;
    *g.add_node() = g.node(int(rng() % unsigned(g.node_size())));
    return true;
  }
  case 9: {  // a node removed
    if (!g.node_size())
      return false;
    g.mutable_node()->DeleteSubrange(int(rng() % unsigned(g.node_size())), 1);
    return true;
  }
  case 10: {  // a graph output or input removed
    if (rng() % 2 && g.output_size()) {
      g.mutable_output()->DeleteSubrange(int(rng() % unsigned(g.output_size())), 1);
      return true;
    }
    if (!g.input_size())
      return false;
    g.mutable_input()->DeleteSubrange(int(rng() % unsigned(g.input_size())), 1);
    return true;
  }
  default: {  // an input's element type
    if (!g.input_size())
      return false;
    g.mutable_input(int(rng() % unsigned(g.input_size())))
        ->mutable_type()
        ->mutable_tensor_type()
        ->set_elem_type(int32_t(rng() % 24));
    return true;
  }
  }
}

/// The directory inputs are written to (the importer reads a path, and
/// resolves external data beside it): one per fuzzing process, removed when
/// the process exits.
struct WorkDir {
  std::string path;
  WorkDir() {
    path = (std::filesystem::temp_directory_path() / ("npuc-import-fuzzer-" + std::to_string(getpid())))
               .string();
    std::filesystem::create_directories(path);
  }
  ~WorkDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

const std::string &workDir() {
  static const WorkDir dir;
  return dir.path;
}

bool smallEnough(mlir::ModuleOp module) {
  int64_t ops = 0;
  bool small = true;
  module.walk([&](mlir::Operation *op) {
    ++ops;
    for (mlir::Type t : op->getResultTypes())
      if (auto rt = llvm::dyn_cast<mlir::RankedTensorType>(t))
        small &= rt.hasStaticShape() && rt.getNumElements() <= kMaxElementsToCompile;
  });
  return small && ops <= kMaxOpsToCompile;
}
} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize, unsigned seed) {
  std::mt19937 rng(seed);
  onnx::ModelProto m;
  if (rng() % 4 == 0 || !m.ParseFromArray(data, int(size)))
    return LLVMFuzzerMutate(data, size, maxSize);
  bool changed = false;
  for (unsigned k = 1 + rng() % 3; k > 0; --k)
    changed |= mutate(m, rng);
  std::string out;
  if (!changed || !m.SerializeToString(&out) || out.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string path = workDir() + "/model.onnx";
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char *>(data), std::streamsize(size));
  }
  mlir::MLIRContext context;
  context.printOpOnDiagnostic(false);
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic &) { return mlir::success(); });
  npuc::onnx_import::Result result = npuc::onnx_import::importModel(context, path, {});
  // An import either succeeds or says why, with a code.
  if (!result.module && result.issues.empty())
    std::abort();
  for (const npuc::onnx_import::Issue &issue : result.issues)
    if (issue.code.empty())
      std::abort();
  if (!result.module || !smallEnough(*result.module))
    return 0;
  mlir::PassManager pm(&context);
  npuc::PipelineOptions options;
  options.target = "npu-v1-tiny";
  options.allowUnverified = true;
  npuc::buildPipeline(pm, options);
  if (mlir::failed(pm.run(*result.module)))
    return 0;
  mlir::FailureOr<npuc::model::Model> built = npuc::enc::buildModel(*result.module, {});
  if (mlir::failed(built))
    return 0;
  // What the compiler writes, the reader accepts.
  std::vector<uint8_t> bytes = npuc::model::serialize(*built);
  npuc::model::Model again;
  std::string error;
  if (!npuc::model::parse(bytes.data(), bytes.size(), again, error))
    std::abort();
  return 0;
}
