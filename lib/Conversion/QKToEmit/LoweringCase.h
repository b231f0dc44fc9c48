//===- LoweringCase.h - What a kernel lowering distinguishes ----*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// A lowering case is the key of npuc's evidence (docs/supported-ops.md,
// contracts D10 and D11): the op as convert-qk-to-emit receives it (a
// graph op after import and normalization, or a qk kernel), the element types
// of its operands and results (quantized or not, storage widths), and every
// property its lowering branches on or whose value changes the address plan
// in a way a test must have exercised (a stride other than 1, a dilation,
// broadcasting), e.g.
//
//   qk.conv2d(ui8,i8,i32->ui8){kind=depthwise,padded,strided,!dilated,...}
//
// Each op's selector (next to its lowering, in the kernel files) records the
// properties while it decides them: a flag is recorded both ways ("padded" or
// "!padded"), so a branch added to a lowering changes the key of every op that
// reaches it, and old evidence cannot vouch for the new code. The lowering
// then branches on the recorded values (is(), get()), not on conditions of its
// own. What a file wrote (attribute spellings, schema versions the importer
// normalizes) is not part of the key; tile sizes are not either (a schedule,
// not a different computation).
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_CONVERSION_QKTOEMIT_LOWERINGCASE_H
#define NPUC_LIB_CONVERSION_QKTOEMIT_LOWERINGCASE_H

#include "CaseProperties.h"
#include "npuc/Base/Target.h"
#include "npuc/Support/CaseSpace.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"

#include <deque>
#include <string>
#include <vector>

namespace npuc::emit::lowering {

namespace ct = support::casetypes;
namespace cond = support::cond;
using support::CaseSpace;
using support::never;
using support::refused;

/// The names of the ops `Ops` as a case space lists them: their ODS names,
/// so that an op renamed or removed stops npuc compiling, not matching.
template <typename... Ops>
std::vector<std::string> opNames() {
  return {Ops::getOperationName().str()...};
}

/// The discardable attribute select-lowering-cases writes on each op.
inline constexpr llvm::StringLiteral kCaseAttr = "npuc.case";

/// "f32", "ui8", "qui8" (per-tensor quantized, stored as ui8), "qi8/axis"
/// (quantized per axis); a tensor type renders as its element type.
std::string caseTypeName(mlir::Type type);

class LoweringCase {
public:
  explicit LoweringCase(mlir::Operation *op);

  /// Records a flag (CaseProperties.h); returns `value`.
  bool flag(const Flag &f, bool value) { return flag(f.name, value); }
  /// Records a choice; returns `value`.
  template <typename E, size_t N>
  E choose(const Choice<E, N> &ch, E value) {
    llvm::StringRef spelling = ch.spell(value);
    if (spelling.empty())
      undeclaredValue(ch.name);
    choose(ch.name, spelling);
    return value;
  }

  /// The value recorded for a flag or a choice. Asking for a property the
  /// selector did not record is a bug in the lowering (the key would not say
  /// what the code depends on) and stops the compiler with that message.
  bool is(const Flag &f) const { return is(f.name); }
  template <typename E, size_t N>
  E get(const Choice<E, N> &ch) const {
    // Recorded by choose() from a value of E, so its spelling parses back.
    return *ch.parse(get(ch.name));
  }

  /// The case as its parts (npuc/Support/CaseSpace.h); a variadic operand
  /// group names its distinct types once.
  support::CasePoint point() const;
  /// "op(operand types->result types){properties in the order recorded}".
  std::string key() const;

  mlir::Operation *op;

private:
  struct Property {
    std::string name, value;
    bool isFlag;
  };
  bool flag(llvm::StringRef name, bool value);
  void choose(llvm::StringRef name, llvm::StringRef value);
  bool is(llvm::StringRef name) const;
  llvm::StringRef get(llvm::StringRef name) const;
  const Property &lookup(llvm::StringRef name, bool wantFlag) const;
  /// Stops the compiler: the selector recorded a value its Choice does not
  /// declare (the key could not spell it).
  [[noreturn]] void undeclaredValue(llvm::StringRef name) const;
  std::deque<Property> props;
};

/// The module attribute naming the target (written by set-target).
inline constexpr llvm::StringLiteral kTargetAttr = "npuc.target";
/// The name of `module`'s target: its npuc.target, npu-v1 without one.
llvm::StringRef targetName(mlir::ModuleOp module);
/// The target of `module` (targetName); an error at the module when the
/// name is unknown.
const target::TargetInfo *passTarget(mlir::ModuleOp module);

/// The selector of an op: checks that the lowering handles it (a diagnostic at
/// the op otherwise) and records its properties.
using Selector = mlir::LogicalResult (*)(LoweringCase &, const target::TargetInfo &);

/// The selector convert-qk-to-emit uses for `op`, or null when the op has
/// no lowering (QKToEmit.cpp holds the table).
Selector selectorFor(mlir::Operation *op);


/// The rule of every space with a `bias` flag: it is whether the bias
/// operand (the third) is present.
support::CaseRule biasIsThirdOperand();

/// A selector's case space (npuc/Support/CaseSpace.h), declared next to it.
using SpaceOf = const support::CaseSpace &(*)();
/// The case space of `op`'s selector, or null when the op has no lowering.
const support::CaseSpace *spaceFor(mlir::Operation *op);


/// Selects `op`'s case: null selector -> "has no NPU lowering yet".
mlir::LogicalResult selectCase(LoweringCase &c, const target::TargetInfo &t);
/// An error at `op` when one of its tensors has no elements (nothing to
/// lower; no buffer type holds a zero extent) and it computes something.
mlir::LogicalResult checkNotEmpty(mlir::Operation *op);
/// Whether `op` has results and none has an element: it computes nothing,
/// has no case and no code (its empty results are never read: an op with
/// an empty operand and a result with elements is checkNotEmpty's error).
bool computesNothing(mlir::Operation *op);

} // namespace npuc::emit::lowering

#endif
