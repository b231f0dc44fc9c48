//===- EncOps.cpp - The encoding dialect's ops ----------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Enc/IR/EncOps.h"
#include "npuc/Base/Target.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace npuc;
using namespace npuc::enc;

const isa::InstDesc *npuc::enc::getInstDesc(Operation *op) {
  if (op->getDialect() == nullptr || op->getName().getDialectNamespace() != "enc")
    return nullptr;
  return isa::lookup(op->getName().stripDialect());
}

LogicalResult npuc::enc::verifyInstructionFields(Operation *op) {
  const isa::InstDesc *desc = getInstDesc(op);
  if (!desc)
    return op->emitOpError("is not an instruction of the NPU ISA");
  for (unsigned i = 0; i < desc->numFields; ++i) {
    const isa::FieldDesc &field = desc->fields[i];
    auto attr = op->getAttrOfType<IntegerAttr>(field.name);
    if (!attr)
      return op->emitOpError("requires field '") << field.name << "'";
    if (auto msg = isa::checkField(field, attr.getValue().getSExtValue()))
      return op->emitOpError(*msg);
  }
  return success();
}

isa::Inst npuc::enc::toInst(Operation *op) {
  isa::Inst inst;
  inst.desc = getInstDesc(op);
  for (unsigned i = 0; i < inst.desc->numFields; ++i)
    inst.fields[i] = op->getAttrOfType<IntegerAttr>(inst.desc->fields[i].name).getInt();
  return inst;
}

Operation *npuc::enc::buildInst(OpBuilder &builder, Location loc, const isa::Inst &inst) {
  OperationState state(loc, "enc." + std::string(inst.desc->mnemonic));
  for (unsigned i = 0; i < inst.desc->numFields; ++i)
    state.addAttribute(inst.desc->fields[i].name, builder.getI64IntegerAttr(inst.fields[i]));
  return builder.create(state);
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

void ProgramOp::build(OpBuilder &builder, OperationState &state, StringRef target) {
  if (!target.empty())
    state.addAttribute(getTargetAttrName(state.name), builder.getStringAttr(target));
  state.addRegion()->emplaceBlock();
}

RegionKind ProgramOp::getRegionKind(unsigned) { return RegionKind::Graph; }

LogicalResult ProgramOp::verify() {
  if (auto name = getTarget(); name && !target::lookupTarget(*name))
    return emitOpError("unknown target '") << *name << "'; valid targets: "
                                           << target::targetNames();
  for (IntegerAttr size : {getArenaSizeAttr(), getStateSizeAttr()})
    if (size && (size.getInt() < 0 || size.getInt() > (int64_t(1) << 32)))
      return emitOpError("region size ") << size.getInt() << " is outside [0, 2^32]";
  return success();
}

LogicalResult ProgramOp::verifyRegions() {
  const target::TargetInfo *t = getTarget() ? target::lookupTarget(*getTarget()) : nullptr;
  for (Operation &op : getBody().front()) {
    const isa::InstDesc *desc = getInstDesc(&op);
    if (!desc)
      return op.emitOpError("is not an NPU instruction; enc.program holds only instructions");
    if (!t)
      continue;
    // What the encoding can name versus what this target has.
    if (auto msg = target::checkInstruction(toInst(&op), *t))
      return op.emitOpError(*msg);
  }
  return success();
}

#define GET_OP_CLASSES
#include "npuc/Dialect/Enc/IR/EncOps.cpp.inc"
#define GET_OP_CLASSES
#include "npuc/Dialect/Enc/IR/EncInstOps.cpp.inc"

//===----------------------------------------------------------------------===//
// TensorOp and ConstOp
//===----------------------------------------------------------------------===//

namespace npuc::enc {
std::optional<model::DType> storageDType(Type t) {
  if (t.isSignlessInteger(8))
    return model::DType::I8;
  if (t.isUnsignedInteger(8))
    return model::DType::U8;
  if (t.isSignlessInteger(16))
    return model::DType::I16;
  if (t.isSignlessInteger(32))
    return model::DType::I32;
  if (t.isF16())
    return model::DType::F16;
  if (t.isF32())
    return model::DType::F32;
  return std::nullopt;
}
} // namespace npuc::enc

LogicalResult TensorOp::verify() {
  StringRef role = getRole();
  if (role != "input" && role != "output" && role != "state" && role != "value")
    return emitOpError("role '") << role << "' is not input, output, state or value";
  bool value = role == "value";
  if (value != bool(getRegion()) || value != bool(getAfter()))
    return emitOpError(value ? "of role value needs its region and the instruction it follows"
                             : "has a region or an instruction to follow, which only values have");
  if (value && *getRegion() != "arena" && *getRegion() != "input" && *getRegion() != "output")
    return emitOpError("region '") << *getRegion() << "' is not arena, input or output";
  if (value && getAfterAttr().getInt() < -1)
    return emitOpError("follows instruction ") << getAfterAttr().getInt()
                                               << "; -1 means from the start";
  if (!storageDType(getElement()))
    return emitOpError("element type ") << getElement()
                                        << " is not a storage type (i8, ui8, i16, i32, f16, f32)";
  if (getShape().size() != getStrides().size() || getShape().size() > 8)
    return emitOpError("has ") << getShape().size() << " dimensions and " << getStrides().size()
                               << " strides; expected equal counts, at most 8";
  for (int64_t d : getShape())
    if (d < 1)
      return emitOpError("dimension ") << d << " must be >= 1";
  for (int64_t s : getStrides())
    if (s < 0)
      return emitOpError("stride ") << s << " must be >= 0";
  if (getOffsetAttr().getInt() < 0)
    return emitOpError("offset ") << getOffsetAttr().getInt() << " must be >= 0";
  size_t nq = getScales() ? getScales()->size() : 0;
  size_t nz = getZeroPoints() ? getZeroPoints()->size() : 0;
  if (nq != nz)
    return emitOpError("has ") << nq << " scales and " << nz << " zero points";
  if (getAxis()) {
    int64_t axis = *getAxis();
    if (axis < 0 || axis >= int64_t(getShape().size()) || int64_t(nq) != getShape()[axis])
      return emitOpError("per-axis quantization along axis ")
             << axis << " needs one scale per index of that axis";
  } else if (nq > 1) {
    return emitOpError("has ") << nq << " scales but no axis";
  }
  return success();
}

LogicalResult ConstOp::verify() {
  if (getOffsetAttr().getInt() < 0)
    return emitOpError("offset ") << getOffsetAttr().getInt() << " must be >= 0";
  auto type = cast<ShapedType>(getValue().getType());
  if (!storageDType(type.getElementType()) || !llvm::isa<DenseElementsAttr>(getValue()))
    return emitOpError("value must be dense elements of a storage type, got ") << type;
  return success();
}
