//===- ConstantEval.h - Exact evaluation of graph ops on constants -*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// What the ops' folders (GraphFolds.cpp) compute when every operand is a
// constant: the value the op would compute at run time, exactly. Float ops
// in the element type's own precision (f32 arithmetic for f32, IEEE round to
// nearest, as VECTOR computes it), int32 exact then saturated (VECTOR's rule;
// ONNX leaves overflow open), other integers wrapped to their width as ONNX's
// integers and the NPU's narrow ones are, Cast by ONNX's rules. This is not
// algebra (contract N11): no identity is assumed, quantized values are not
// read, and only data movement and exactly rounded arithmetic evaluate;
// transcendental functions (Exp, Tanh, ...) and f16 do not.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_DIALECT_GRAPH_IR_CONSTANTEVAL_H
#define NPUC_LIB_DIALECT_GRAPH_IR_CONSTANTEVAL_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <vector>

namespace npuc::graph::eval {

/// A constant's elements, row-major: floats as their exact values in `f` (an
/// f32 element is a float widened to double), integers and booleans in `i`.
struct Folded {
  llvm::SmallVector<int64_t> shape;
  mlir::Type element;
  std::vector<double> f;
  std::vector<int64_t> i;
  bool isFloat() const { return llvm::isa<mlir::FloatType>(element); }
  size_t size() const { return isFloat() ? f.size() : i.size(); }
};

/// One element: a float's exact value or an integer's, never an integer
/// through a double (int64 values past 2^53 would lose bits, and 2^63 has no
/// int64 at all).
struct Num {
  bool isFloat;
  double f = 0;
  int64_t i = 0;
  static Num real(double v) { return {true, v, 0}; }
  static Num integer(int64_t v) { return {false, 0, v}; }
  bool nonzero() const { return isFloat ? f != 0 : i != 0; }
};

/// `op`'s operands as constants, from its folder's operand attributes; none
/// unless every operand is a constant of f32, f64 or an integer type (a
/// quantized one is not read) of at most kMaxFoldedElements elements.
std::optional<llvm::SmallVector<Folded, 3>> operands(mlir::Operation *op,
                                                      llvm::ArrayRef<mlir::Attribute> attrs);

using ElementFn = llvm::function_ref<std::optional<Num>(llvm::ArrayRef<Num>)>;
using IndexFn = llvm::function_ref<std::optional<Num>(uint64_t, llvm::ArrayRef<int64_t>)>;
using SourceFn = llvm::function_ref<std::optional<uint64_t>(llvm::ArrayRef<int64_t>)>;

/// `op`'s result, element `idx` (flat index `e`) being get(e, idx); null when
/// an element has no exact value or the result is too large.
mlir::OpFoldResult build(mlir::Operation *op, IndexFn get);
/// Elementwise with broadcasting: `fn` sees the operands' elements.
mlir::OpFoldResult elementwise(mlir::Operation *op, llvm::ArrayRef<Folded> in, ElementFn fn);
/// Data movement: result element `idx` is `x`'s element source(idx).
mlir::OpFoldResult gatherElements(mlir::Operation *op, const Folded &x, SourceFn source);

/// The element at `flat` of `t`.
Num at(const Folded &t, uint64_t flat);
/// The flat index into an operand of `shape` for result index `idx` under
/// multidirectional broadcasting.
uint64_t broadcastIndex(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> idx);
/// The row-major flat index of `idx` in `shape`.
uint64_t flatIndex(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> idx);

/// Add ('+'), Sub, Mul, Div of two elements of `element` (the result type).
std::optional<Num> arith(char kind, Num a, Num b, mlir::Type element);
/// a < b and a == b for two elements of one type (NaN compares false).
bool less(Num a, Num b);
bool equal(Num a, Num b);
/// Cast by ONNX's rules.
std::optional<Num> castTo(Num v, mlir::Type to);

} // namespace npuc::graph::eval

#endif
