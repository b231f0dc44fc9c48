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
    for (unsigned i = 0; i < desc->numFields; ++i) {
      const isa::FieldDesc &f = desc->fields[i];
      int64_t v = op.getAttrOfType<IntegerAttr>(f.name).getInt();
      if (f.kind == isa::FieldKind::Reg && v >= t->params.ScalarRegs)
        return op.emitOpError("field '")
               << f.name << "' names r" << v << ", but " << t->name << " has "
               << t->params.ScalarRegs << " scalar registers (r0..r" << t->params.ScalarRegs - 1
               << ")";
      bool isSync = desc->opcode == uint8_t(isa::Opcode::SET_FLAG) ||
                    desc->opcode == uint8_t(isa::Opcode::WAIT_FLAG);
      if (isSync && std::string_view(f.name) == "id" && v >= t->params.FlagsPerPair)
        return op.emitOpError("field 'id' = ")
               << v << " names a sync flag " << t->name << " does not have (it has "
               << t->params.FlagsPerPair << " flags per engine pair: 0.."
               << t->params.FlagsPerPair - 1 << ")";
    }
  }
  return success();
}

#define GET_OP_CLASSES
#include "npuc/Dialect/Enc/IR/EncOps.cpp.inc"
#define GET_OP_CLASSES
#include "npuc/Dialect/Enc/IR/EncInstOps.cpp.inc"
