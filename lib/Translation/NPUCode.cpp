//===- NPUCode.cpp - enc.program <-> instruction words --------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Translation/NPUCode.h"
#include "npuc/Dialect/Enc/IR/EncOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace npuc;
using namespace npuc::enc;

LogicalResult npuc::enc::encodeProgram(ProgramOp program, std::vector<isa::Word> &words) {
  for (Operation &op : program.getBody().front()) {
    isa::Word word;
    std::string error;
    if (!getInstDesc(&op))
      return op.emitOpError("is not an NPU instruction");
    if (!isa::encode(toInst(&op), word, &error))
      return op.emitOpError(error);
    words.push_back(word);
  }
  return success();
}

OwningOpRef<ProgramOp> npuc::enc::decodeProgram(ArrayRef<uint8_t> bytes, Location loc) {
  if (bytes.size() % isa::kWordBytes != 0) {
    emitError(loc) << "code size " << bytes.size() << " bytes is not a multiple of the "
                   << isa::kWordBytes << "-byte instruction word";
    return nullptr;
  }
  OpBuilder builder(loc.getContext());
  OwningOpRef<ProgramOp> program = ProgramOp::create(builder, loc);
  builder.setInsertionPointToEnd(&program->getBody().front());
  for (size_t i = 0; i < bytes.size() / isa::kWordBytes; ++i) {
    isa::Word word;
    std::copy_n(bytes.begin() + i * isa::kWordBytes, isa::kWordBytes, word.begin());
    isa::Inst inst;
    std::string error;
    if (!isa::decode(word, inst, &error)) {
      emitError(loc) << "instruction " << i << " (byte offset 0x"
                     << llvm::utohexstr(i * isa::kWordBytes) << "): " << error;
      return nullptr;
    }
    buildInst(builder, loc, inst);
  }
  return program;
}

void npuc::enc::registerNPUCodeTranslations() {
  TranslateFromMLIRRegistration exportCode(
      "export-npu-code", "encode the enc.program in a module as raw instruction words",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        SmallVector<ProgramOp> programs;
        op->walk([&](ProgramOp p) { programs.push_back(p); });
        if (programs.size() != 1)
          return op->emitError("expected exactly one enc.program, found ") << programs.size();
        std::vector<isa::Word> words;
        if (failed(encodeProgram(programs.front(), words)))
          return failure();
        for (const isa::Word &w : words)
          os.write(reinterpret_cast<const char *>(w.data()), w.size());
        return success();
      },
      [](DialectRegistry &registry) { registry.insert<EncDialect>(); });

  TranslateToMLIRRegistration importCode(
      "import-npu-code", "decode raw instruction words into an enc.program",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) -> OwningOpRef<Operation *> {
        context->loadDialect<EncDialect>();
        const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        Location loc = FileLineColLoc::get(context, buffer->getBufferIdentifier(), 0, 0);
        ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>(buffer->getBufferStart()),
                                buffer->getBufferSize());
        OwningOpRef<ProgramOp> program = decodeProgram(bytes, loc);
        if (!program)
          return nullptr;
        OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
        module->getBody()->push_back(program.release());
        return OwningOpRef<Operation *>(module.release());
      });
}
