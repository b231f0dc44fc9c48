//===- EncOps.cpp - The encoding dialect's ops ----------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Enc/IR/EncOps.h"
#include "npuc/Base/ISA.h"
#include "npuc/Base/Target.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace npuc;
using namespace npuc::enc;

namespace {
const EncDialect::InstInfo *infoOf(Operation *op) {
  auto *dialect = llvm::dyn_cast_or_null<EncDialect>(op->getDialect());
  return dialect ? dialect->instInfo(op->getName()) : nullptr;
}

/// The fields' attributes in declaration order, read by position when the
/// op holds exactly its fields (the form buildInst makes), else by name
/// (null where one is missing or not an integer).
SmallVector<IntegerAttr, 8> fieldAttrs(Operation *op, const EncDialect::InstInfo &info) {
  SmallVector<IntegerAttr, 8> attrs(info.desc->numFields);
  ArrayRef<NamedAttribute> dict = op->getAttrDictionary().getValue();
  bool exact = dict.size() == info.sorted.size();
  for (size_t p = 0; exact && p < dict.size(); ++p)
    exact = dict[p].getName() == info.fieldNames[info.sorted[p]];
  if (exact) {
    for (size_t p = 0; p < dict.size(); ++p)
      attrs[info.sorted[p]] = llvm::dyn_cast<IntegerAttr>(dict[p].getValue());
    return attrs;
  }
  for (unsigned i = 0; i < info.desc->numFields; ++i)
    attrs[i] = llvm::dyn_cast_or_null<IntegerAttr>(op->getAttr(info.fieldNames[i]));
  return attrs;
}
} // namespace

const isa::InstDesc *npuc::enc::getInstDesc(Operation *op) {
  const EncDialect::InstInfo *info = infoOf(op);
  return info ? info->desc : nullptr;
}

LogicalResult npuc::enc::verifyInstructionFields(Operation *op) {
  const EncDialect::InstInfo *info = infoOf(op);
  if (!info)
    return op->emitOpError("is not an instruction of the NPU ISA");
  const isa::InstDesc *desc = info->desc;
  SmallVector<IntegerAttr, 8> attrs = fieldAttrs(op, *info);
  for (unsigned i = 0; i < desc->numFields; ++i) {
    const isa::FieldDesc &field = desc->fields[i];
    IntegerAttr attr = attrs[i];
    if (!attr)
      return op->emitOpError("requires field '") << field.name << "'";
    if (auto msg = isa::checkField(field, attr.getValue().getSExtValue()))
      return op->emitOpError(*msg);
  }
  return success();
}

isa::Inst npuc::enc::toInst(Operation *op) {
  isa::Inst inst;
  const EncDialect::InstInfo *info = infoOf(op);
  inst.desc = info->desc;
  SmallVector<IntegerAttr, 8> attrs = fieldAttrs(op, *info);
  for (unsigned i = 0; i < inst.desc->numFields; ++i)
    inst.fields[i] = attrs[i].getInt();
  return inst;
}

Operation *npuc::enc::buildInst(OpBuilder &builder, Location loc, const isa::Inst &inst) {
  MLIRContext *ctx = builder.getContext();
  const EncDialect::InstInfo *info =
      ctx->getOrLoadDialect<EncDialect>()->instInfo(inst.desc->opcode);
  // The dictionary in its sorted order, so that making it sorts nothing.
  SmallVector<NamedAttribute, 8> attrs;
  for (unsigned f : info->sorted)
    attrs.push_back(NamedAttribute(info->fieldNames[f], builder.getI64IntegerAttr(inst.fields[f])));
  Operation *op = Operation::create(loc, info->name, {}, {}, DictionaryAttr::getWithSorted(ctx, attrs),
                                    OpaqueProperties(nullptr), {}, 0);
  return builder.insert(op);
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
    if (size && (size.getInt() < 0 || uint64_t(size.getInt()) > isa::gmAddressBytes()))
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

std::optional<model::DType> boundaryDType(Type t) {
  if (t.isInteger(1))
    return model::DType::Bool;
  if (t.isSignlessInteger(64) || t.isSignedInteger(64))
    return model::DType::I64;
  if (t.isUnsignedInteger(16))
    return model::DType::U16;
  if (t.isUnsignedInteger(32))
    return model::DType::U32;
  if (t.isF64())
    return model::DType::F64;
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
  if (std::optional<Type> host = getBoundary()) {
    std::optional<model::DType> bt = boundaryDType(*host);
    if (role == "value" || role == "state" || !bt ||
        model::storageOf(*bt) != *storageDType(getElement()))
      return emitOpError("boundary type ")
             << *host << " does not suit an " << role << " stored as " << getElement()
             << " (i1 over i8; i64, ui16 or ui32 over i32; f64 over f32; inputs and outputs only)";
  }
  if (getShape().size() != getStrides().size() || getShape().size() > 8)
    return emitOpError("has ") << getShape().size() << " dimensions and " << getStrides().size()
                               << " strides; expected equal counts, at most 8";
  // A graph input or output may be empty (format 1.3); nothing else.
  bool boundary = role == "input" || role == "output";
  for (int64_t d : getShape())
    if (d < (boundary ? 0 : 1))
      return emitOpError("dimension ") << d << " must be >= " << (boundary ? 0 : 1);
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
