//===- Passes.h - Conversion passes -----------------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_CONVERSION_PASSES_H
#define NPUC_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace npuc {
namespace qk {
class QKDialect;
}
namespace graph {
class GraphDialect;
}
namespace emit {
class EmitDialect;
}
namespace enc {
class EncDialect;
}

#define GEN_PASS_DECL
#include "npuc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "npuc/Conversion/Passes.h.inc"
} // namespace npuc

#endif
