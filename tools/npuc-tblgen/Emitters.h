//===- Emitters.h - npuc-tblgen backends ------------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_TBLGEN_EMITTERS_H
#define NPUC_TBLGEN_EMITTERS_H

namespace llvm {
class raw_ostream;
}

namespace npuc::tblgen {
struct ISAModel;
void emitISATables(const ISAModel &m, llvm::raw_ostream &os);
void emitISAPrinter(const ISAModel &m, llvm::raw_ostream &os);
void emitISADoc(const ISAModel &m, llvm::raw_ostream &os);
void emitEncOps(const ISAModel &m, llvm::raw_ostream &os);
void emitISAEnumCases(const ISAModel &m, llvm::raw_ostream &os);
void emitEncMinMaxTest(const ISAModel &m, llvm::raw_ostream &os);
void emitEncRangeTest(const ISAModel &m, llvm::raw_ostream &os);
void emitTargetTables(const ISAModel &m, llvm::raw_ostream &os);
void emitTargetDoc(const ISAModel &m, llvm::raw_ostream &os);
} // namespace npuc::tblgen

#endif
