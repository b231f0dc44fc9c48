//===- KernelPattern.h - One qk op's lowering, as a pattern ------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// convert-qk-to-emit lowers each qk op with the pattern of its class, one
// pattern per op (as CIRCT's HWToLLVM), registered by its family's populate
// function and defined in that family's file. A pattern states four facets
// of its op:
//
//   select  its selector (LoweringCase.h): whether the lowering handles the
//           op, and the op's lowering case;
//   space   the case space of the selector (npuc/Support/CaseSpace.h): what
//           the evidence gate and --list-cases enumerate;
//   plan    its loop nests and im2col products (IterationSpaces), stated from
//           its types, attributes and case: what select-tiling tiles and the
//           lowering walks (none for an op of neither);
//   lower   the engine operations, built with the building blocks of
//           KernelBuilder, which every pattern derives from.
//
// select, space and plan are static: select-lowering-cases,
// check-lowering-evidence, select-tiling and --list-cases read them from the
// registry (kernelPatterns()) and lower nothing. The driver instantiates a
// pattern per function, bound to that function's lowering state, when an op
// of its class is first lowered.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_CONVERSION_QKTOEMIT_KERNELPATTERN_H
#define NPUC_LIB_CONVERSION_QKTOEMIT_KERNELPATTERN_H

#include "KernelBuilder.h"

#include <memory>
#include <type_traits>
#include <vector>

namespace npuc::emit::lowering {

/// A pattern: KernelBuilder's building blocks and the lowering of its op.
class KernelPattern : public KernelBuilder {
public:
  explicit KernelPattern(const KernelBuilder &k) : KernelBuilder(k) {}
  virtual ~KernelPattern() = default;
  /// Lowers `c.op`: branches on what its selector recorded in `c` and walks
  /// the nests and products of its plan (`planned`, empty for an op of none).
  virtual LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) = 0;
};

/// The pattern of op class OpTy. A derived pattern names its facets:
/// `static constexpr Selector select`, `static constexpr SpaceOf space`,
/// `static constexpr PlanFn plan` (none by default) and `lower`.
template <typename OpTy>
class OpKernelPattern : public KernelPattern {
public:
  using Op = OpTy;
  using KernelPattern::KernelPattern;
  static constexpr PlanFn plan = nullptr;
};

/// A pattern's facets, as the registry holds them.
struct KernelPatternInfo {
  llvm::StringLiteral name;  // the op's ODS name (evidence, --list-cases)
  TypeID id;                 // the op's class (the dispatch)
  Selector select;
  SpaceOf space;
  PlanFn plan;
  /// The pattern, bound to one function's lowering state.
  std::unique_ptr<KernelPattern> (*make)(const KernelBuilder &);
};

/// The registry of patterns, in the order they were added.
class KernelPatterns {
public:
  template <typename... Ps>
  KernelPatterns &add() {
    (addOne<Ps>(), ...);
    return *this;
  }
  /// The pattern of `op`'s class, or null when no pattern lowers it.
  const KernelPatternInfo *lookup(Operation *op) const;
  ArrayRef<KernelPatternInfo> all() const { return rows; }

private:
  template <typename P>
  void addOne() {
    static_assert(std::is_base_of_v<KernelPattern, P>, "a pattern derives from KernelPattern");
    using Op = typename P::Op;
    addRow({Op::getOperationName(), TypeID::get<Op>(), P::select, P::space, P::plan,
            [](const KernelBuilder &k) -> std::unique_ptr<KernelPattern> {
              return std::make_unique<P>(k);
            }});
  }
  /// Appends `row`; a second pattern of one op class stops npuc.
  void addRow(KernelPatternInfo row);
  std::vector<KernelPatternInfo> rows;
  DenseMap<TypeID, size_t> index;
};

/// The families' registrations, each in its file.
void populateViewPatterns(KernelPatterns &patterns);     // QKToEmit.cpp
void populateQuantPatterns(KernelPatterns &patterns);    // QuantKernels.cpp
void populateBinaryPatterns(KernelPatterns &patterns);   // ElementwiseKernels.cpp
void populateMapPatterns(KernelPatterns &patterns);      // MapKernels.cpp
void populateReducePatterns(KernelPatterns &patterns);   // ReduceKernels.cpp
void populateChannelPatterns(KernelPatterns &patterns);  // ElementwiseKernels.cpp
void populateNormPatterns(KernelPatterns &patterns);     // NormKernels.cpp
void populatePowPatterns(KernelPatterns &patterns);      // PowKernels.cpp
void populateLogicPatterns(KernelPatterns &patterns);    // LogicKernels.cpp
void populateTensorPatterns(KernelPatterns &patterns);   // TensorKernels.cpp
void populateMatrixPatterns(KernelPatterns &patterns);   // MatrixKernels.cpp
void populateConvPatterns(KernelPatterns &patterns);     // ConvKernels.cpp
void populateIndexedPatterns(KernelPatterns &patterns);  // IndexedKernels.cpp

/// Every qk op's pattern, built once, in the order --list-cases lists them.
const KernelPatterns &kernelPatterns();

} // namespace npuc::emit::lowering

#endif
