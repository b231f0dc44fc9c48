//===- npuc-tblgen.cpp - The project's TableGen backends ------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Emitters.h"
#include "ISAModel.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"

using namespace llvm;
using namespace npuc::tblgen;

namespace {
enum Action {
  GenISATables, GenISAPrinter, GenISADoc, GenEncOps, GenISAEnumCases, GenEncMinMaxTest,
  GenEncRangeTest, GenTargetTables, GenTargetDoc
};
cl::opt<Action> action(
    cl::desc("Action to perform:"), cl::Required,
    cl::values(
        clEnumValN(GenISATables, "gen-isa-tables", "ISA enums and field tables"),
        clEnumValN(GenISAPrinter, "gen-isa-printer", "disassembler printer"),
        clEnumValN(GenISADoc, "gen-isa-doc", "docs/isa.md"),
        clEnumValN(GenEncOps, "gen-enc-ops", "ODS for the enc dialect's ops"),
        clEnumValN(GenISAEnumCases, "gen-isa-enum-cases", "ODS enum cases of the ISA's enums"),
        clEnumValN(GenEncMinMaxTest, "gen-enc-minmax-test", "lit input: fields at min/max"),
        clEnumValN(GenEncRangeTest, "gen-enc-range-test", "lit input: fields out of range"),
        clEnumValN(GenTargetTables, "gen-target-tables", "target parameter tables"),
        clEnumValN(GenTargetDoc, "gen-target-doc", "docs/target.md")));

bool run(raw_ostream &os, const RecordKeeper &records) {
  ISAModel model = ISAModel::read(records);
  switch (action) {
  case GenISATables: emitISATables(model, os); break;
  case GenISAPrinter: emitISAPrinter(model, os); break;
  case GenISADoc: emitISADoc(model, os); break;
  case GenEncOps: emitEncOps(model, os); break;
  case GenISAEnumCases: emitISAEnumCases(model, os); break;
  case GenEncMinMaxTest: emitEncMinMaxTest(model, os); break;
  case GenEncRangeTest: emitEncRangeTest(model, os); break;
  case GenTargetTables: emitTargetTables(model, os); break;
  case GenTargetDoc: emitTargetDoc(model, os); break;
  }
  return false;
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  cl::ParseCommandLineOptions(argc, argv);
  return TableGenMain(argv[0], TableGenMainFn(&run));
}
