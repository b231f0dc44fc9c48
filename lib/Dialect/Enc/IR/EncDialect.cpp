//===- EncDialect.cpp - The encoding dialect ------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Enc/IR/EncDialect.h"
#include "npuc/Dialect/Enc/IR/EncOps.h"

using namespace mlir;
using namespace npuc::enc;

#include "npuc/Dialect/Enc/IR/EncDialect.cpp.inc"

namespace {
struct InstTable {
  std::vector<EncDialect::InstInfo> infos;
  std::array<int, 256> byOpcode;
  llvm::DenseMap<void *, int> byName;
};
} // namespace

void EncDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "npuc/Dialect/Enc/IR/EncOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "npuc/Dialect/Enc/IR/EncInstOps.cpp.inc"
      >();
  auto table = std::make_shared<InstTable>();
  table->byOpcode.fill(-1);
  for (const isa::InstDesc &d : isa::instructions()) {
    InstInfo info{&d, OperationName("enc." + std::string(d.mnemonic), getContext()), {}, {}};
    for (unsigned i = 0; i < d.numFields; ++i) {
      info.fieldNames.push_back(StringAttr::get(getContext(), d.fields[i].name));
      info.sorted.push_back(i);
    }
    llvm::sort(info.sorted, [&](unsigned a, unsigned b) {
      return info.fieldNames[a].getValue() < info.fieldNames[b].getValue();
    });
    table->byOpcode[d.opcode] = int(table->infos.size());
    table->byName[info.name.getAsOpaquePointer()] = int(table->infos.size());
    table->infos.push_back(std::move(info));
  }
  instTable = table;
}

const EncDialect::InstInfo *EncDialect::instInfo(OperationName name) const {
  const auto &t = *static_cast<const InstTable *>(instTable.get());
  auto it = t.byName.find(name.getAsOpaquePointer());
  return it == t.byName.end() ? nullptr : &t.infos[size_t(it->second)];
}

const EncDialect::InstInfo *EncDialect::instInfo(uint8_t opcode) const {
  const auto &t = *static_cast<const InstTable *>(instTable.get());
  int i = t.byOpcode[opcode];
  return i < 0 ? nullptr : &t.infos[size_t(i)];
}
