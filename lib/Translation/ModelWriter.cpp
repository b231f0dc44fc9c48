//===- ModelWriter.cpp - enc IR to a model file ---------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Translation/ModelWriter.h"
#include "npuc/Base/Target.h"
#include "npuc/Dialect/Enc/IR/EncOps.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"
#include "npuc/Translation/NPUCode.h"
#include "npuc/Version.h"

#include "mlir/Tools/mlir-translate/Translation.h"

#include <cstring>
#include <map>

using namespace mlir;
using namespace npuc;
using namespace npuc::enc;

namespace {
/// Copies a dense constant's bytes, little endian in its storage type, to
/// `out` (which holds exactly its size): straight from the attribute's
/// storage, a splat repeated, so no element is decoded and no copy made.
LogicalResult copyBytes(ConstOp c, DenseElementsAttr value, uint8_t *out, uint64_t size) {
  unsigned width = value.getElementType().getIntOrFloatBitWidth();
  ArrayRef<char> raw = value.getRawData();
  uint64_t element = width / 8;
  if (width % 8 != 0 || size != uint64_t(value.getNumElements()) * element)
    return c.emitOpError("holds elements of ") << width << " bits, which have no byte layout";
  if (!value.isSplat()) {
    std::memcpy(out, raw.data(), size);
    return success();
  }
  for (uint64_t at = 0; at < size; at += element)
    std::memcpy(out + at, raw.data(), element);
  return success();
}

uint64_t byteSize(DenseElementsAttr value) {
  return uint64_t(value.getNumElements()) * (value.getElementType().getIntOrFloatBitWidth() / 8);
}

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
} // namespace

FailureOr<model::Model>
npuc::enc::buildModel(ModuleOp module,
                      const std::vector<std::pair<std::string, std::string>> &provenance) {
  SmallVector<ProgramOp> programs;
  module.walk([&](ProgramOp p) { programs.push_back(p); });
  if (programs.size() != 1)
    return module.emitError("expected exactly one enc.program, found ") << programs.size();
  ProgramOp program = programs.front();
  if (!program.getTarget())
    return program.emitOpError("needs a target to be written as a model file");
  const target::TargetInfo *t = target::lookupTarget(*program.getTarget());

  model::Model m;
  m.targetName = t->name;
  m.targetHash = t->hash();
  std::vector<isa::Word> words;
  if (failed(encodeProgram(program, words)))
    return failure();
  for (const isa::Word &w : words)
    m.code.insert(m.code.end(), w.begin(), w.end());
  // One record per run of instructions from the same node(s) (an empty name
  // ends a run); an instruction of an op fused from several nodes names them
  // all, one per line (docs/model-format.md).
  uint32_t index = 0;
  std::string previous;
  for (Operation &op : program.getBody().front()) {
    std::string name;
    for (const std::string &n : graph::nodeNames(op.getLoc()))
      name += (name.empty() ? "" : "\n") + n;
    if (name != previous)
      m.debug.emplace_back(index, name);
    previous = std::move(name);
    ++index;
  }

  // Constants: placed where they say, never overlapping.
  std::map<uint64_t, std::pair<uint64_t, ConstOp>> placed;
  uint64_t constantBytes = 0;
  for (ConstOp c : module.getOps<ConstOp>()) {
    uint64_t begin = uint64_t(c.getOffset());
    uint64_t end = begin + byteSize(cast<DenseElementsAttr>(c.getValue()));
    auto next = placed.lower_bound(begin);
    if ((next != placed.end() && next->first < end) ||
        (next != placed.begin() && std::prev(next)->second.first > begin))
      return c.emitOpError("bytes [") << begin << ", " << end << ") overlap another enc.const";
    placed[begin] = {end, c};
    constantBytes = std::max(constantBytes, end);
  }
  m.constants.assign(constantBytes, 0);
  for (auto &[begin, placement] : placed) {
    auto [end, c] = placement;
    if (failed(copyBytes(c, cast<DenseElementsAttr>(c.getValue()), m.constants.data() + begin,
                         end - begin)))
      return failure();
  }

  m.arenaSize = program.getArenaSize().value_or(0);
  m.stateSize = program.getStateSize().value_or(0);
  for (TensorOp op : module.getOps<TensorOp>()) {
    model::TensorDesc d;
    d.role = op.getRole() == "input"    ? model::Role::Input
             : op.getRole() == "output" ? model::Role::Output
             : op.getRole() == "value"  ? model::Role::Value
                                        : model::Role::State;
    d.region = d.role == model::Role::Input    ? uint8_t(isa::Region::INPUT)
               : d.role == model::Role::Output ? uint8_t(isa::Region::OUTPUT)
                                               : uint8_t(isa::Region::STATE);
    if (d.role == model::Role::Value)
      d.region = *op.getRegion() == "arena"   ? uint8_t(isa::Region::ARENA)
                 : *op.getRegion() == "input" ? uint8_t(isa::Region::INPUT)
                                              : uint8_t(isa::Region::OUTPUT);
    d.dtype = *storageDType(op.getElement());
    if (std::optional<Type> host = op.getBoundary()) {
      std::optional<model::DType> bt = boundaryDType(*host);
      if (!bt || model::storageOf(*bt) != d.dtype)
        return op.emitOpError() << "boundary type " << *host << " does not suit storage "
                                << op.getElement();
      d.boundary = *bt;
    }
    d.name = op.getName().str();
    d.offset = uint64_t(op.getOffset());
    d.shape.assign(op.getShape().begin(), op.getShape().end());
    d.strides.assign(op.getStrides().begin(), op.getStrides().end());
    if (op.getScales()) {
      d.quant = op.getAxis() ? model::Quant::PerAxis : model::Quant::PerTensor;
      d.axis = op.getAxis() ? int32_t(*op.getAxis()) : -1;
      d.scales.assign(op.getScales()->begin(), op.getScales()->end());
      d.zeroPoints.assign(op.getZeroPoints()->begin(), op.getZeroPoints()->end());
    }
    if (d.role == model::Role::Value) {
      int64_t after = op.getAfterAttr().getInt();
      m.values.push_back({std::move(d), op.getNode()->str(),
                          after < 0 ? model::ValueDesc::kFromStart : uint32_t(after)});
      continue;
    }
    uint64_t end = alignUp(d.offset + d.spanBytes(), model::kAlign);
    uint64_t &size = d.role == model::Role::Input    ? m.inputSize
                     : d.role == model::Role::Output ? m.outputSize
                                                     : m.stateSize;
    size = std::max(size, end);
    m.tensors.push_back(std::move(d));
  }
  // Inputs, then outputs, then state, each in the order written.
  std::stable_sort(m.tensors.begin(), m.tensors.end(),
                   [](const model::TensorDesc &a, const model::TensorDesc &b) {
                     return a.role < b.role;
                   });
  m.provenance = provenance;
  return m;
}

LogicalResult
npuc::enc::writeModelFile(ModuleOp module, const std::string &path,
                          const std::vector<std::pair<std::string, std::string>> &provenance) {
  FailureOr<model::Model> m = buildModel(module, provenance);
  if (failed(m))
    return failure();
  std::string error;
  if (!model::writeFileAtomically(path, model::serializePieces(*m), error))
    return module.emitError(error);
  return success();
}

void npuc::enc::registerModelTranslation() {
  TranslateFromMLIRRegistration exportModel(
      "export-npu-model", "write a module's enc.program, tensors and constants as a model file",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a module");
        FailureOr<model::Model> m =
            buildModel(module, {{"compiler", identityString()}, {"source", "npuc-translate"}});
        if (failed(m))
          return failure();
        std::vector<uint8_t> bytes = model::serialize(*m);
        os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
        return success();
      },
      [](DialectRegistry &registry) { registry.insert<EncDialect>(); });
}
