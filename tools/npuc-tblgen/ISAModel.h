//===- ISAModel.h - The instruction set as read from TableGen ---*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Reads and validates the records of ISABase.td/ISA.td/Target.td once, so that
// every backend of npuc-tblgen emits from the same checked model.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_TBLGEN_ISAMODEL_H
#define NPUC_TBLGEN_ISAMODEL_H

#include "llvm/TableGen/Record.h"
#include <cstdint>
#include <string>
#include <vector>

namespace npuc::tblgen {

struct ISAEnumDef {
  std::string name;
  std::vector<std::string> values;
  std::string doc;
};

struct ISAFieldDef {
  std::string name;
  unsigned lo = 0, width = 0;
  bool isSigned = false;
  int64_t min = 0, max = 0;
  std::string unit;      // "" when the value is a plain number
  std::string kind;      // int, reg, enum, hex
  int enumIndex = -1;    // into ISAModel::enums when kind == enum
  std::string doc;
};

struct ISAInstDef {
  std::string defName;   // C++ identifier (record name), e.g. DMA_IN_SHAPE
  std::string mnemonic;  // assembly / enc dialect name, e.g. dma_in_shape
  unsigned opcode = 0;
  std::string engine;    // engine name, or "" when chosen by the eng field
  std::vector<ISAFieldDef> fields;
  std::string summary;
};

struct TargetDef {
  std::string defName;
  std::string name;
  std::string doc;
  // (parameter name, value) in declaration order.
  std::vector<std::pair<std::string, int64_t>> params;
};

struct ISAModel {
  std::vector<ISAEnumDef> enums;
  std::vector<ISAInstDef> insts;     // sorted by opcode
  std::vector<TargetDef> targets;    // in declaration order
  int64_t granuleBytes = 0;          // bytes per unit of a granule field (U_GRANULE)

  /// Reads and validates every record; reports errors at the record's location.
  static ISAModel read(const llvm::RecordKeeper &records);

  /// A canonical text of the instruction set: every opcode, field and range.
  /// Hashed into the target hash, so it changes whenever the encoding does.
  std::string isaFingerprintText() const;
};

/// Writes the "generated, do not edit" banner in the comment style given.
void emitBanner(llvm::raw_ostream &os, llvm::StringRef what, llvm::StringRef commentPrefix);

} // namespace npuc::tblgen

#endif
