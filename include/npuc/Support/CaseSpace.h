//===- CaseSpace.h - The declared space of lowering cases -------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// A lowering case (lib/Conversion/QKToEmit/LoweringCase.h) is a point of
// a product: the op, the element types of its operands and results, and the
// properties its selector records. A CaseSpace declares that product for one
// selector, next to it: the type signatures it accepts (with type variables,
// "T,T->T" with T in {f32, f16, ...}), each property and its values (a flag
// both ways, or a choice among named values; a property may be recorded only
// where a condition on the types and earlier properties holds), and the
// combinations that cannot occur, each with its reason. From it the
// reachable cases of every op on every target are enumerated (`npuc
// --list-cases`, docs/supported-ops.md, the verification grid in
// test/grid), and a case a selector records is checked against it.
//
// Nothing here depends on MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_SUPPORT_CASESPACE_H
#define NPUC_SUPPORT_CASESPACE_H

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace npuc::support {

/// One property of a case as recorded: a flag ("1"/"0") or a choice.
struct CaseProp {
  std::string name, value;
  bool isFlag = false;
};

/// A lowering case as its parts.
struct CasePoint {
  std::string op;
  std::vector<std::string> operands, results;  // type names: "f32", "qui8", "qi8/axis"
  /// The operands are one variadic group (graph.concat): `operands` holds
  /// its distinct types in the order they first occur, and the key names
  /// them followed by "..." ("f32...", "qi8,qui8...").
  bool variadic = false;
  std::vector<CaseProp> props;
  std::string target;  // the target the case is selected for

  bool has(std::string_view name) const;
  /// A flag's value (false when not recorded).
  bool is(std::string_view name) const;
  /// A choice's value ("" when not recorded).
  std::string_view get(std::string_view name) const;
  /// "op(operand types->result types){properties in order}".
  std::string key() const;
};

/// Parses a key back into its parts (the inverse of CasePoint::key); false
/// with `error` when it is not one.
bool parseCaseKey(std::string_view key, CasePoint &point, std::string &error);

/// A condition on a (partial) case, with its text for the documentation.
struct CaseCond {
  std::function<bool(const CasePoint &)> holds;
  std::string text;
  bool compound = false;  // an and/or of others: parenthesized inside another
};

namespace cond {
CaseCond op(std::vector<std::string> names);
CaseCond choice(std::string name, std::vector<std::string> values);
CaseCond flag(std::string name, bool value = true);
/// Operand (or result) `index` has one of `types`; an index past the end is false.
CaseCond operand(size_t index, std::vector<std::string> types);
CaseCond result(size_t index, std::vector<std::string> types);
CaseCond operandCount(size_t n);
CaseCond target(std::string name);
CaseCond all(std::vector<CaseCond> conds);
CaseCond any(std::vector<CaseCond> conds);
CaseCond negate(CaseCond c);
/// Anything else: a predicate and its text.
CaseCond custom(std::string text, std::function<bool(const CasePoint &)> holds);
} // namespace cond

/// The element-type combinations of a selector: a pattern of operand and
/// result slots, each a type name or a variable bound to one of its types
/// (every slot naming a variable takes the same type). "T...->T": a
/// variadic operand group.
struct TypeSignature {
  TypeSignature(std::string pattern, std::map<std::string, std::vector<std::string>> vars = {},
                std::vector<std::string> ops = {});
  std::string pattern;
  /// The ops of the selector it applies to (empty: all of them).
  std::vector<std::string> ops;
  std::vector<std::string> operands, results;
  bool variadic = false;
  std::map<std::string, std::vector<std::string>> vars;
  /// Every binding of the variables, as concrete operand and result types.
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> expand() const;
};

/// A recorded property: a flag (values empty) or a choice among `values`,
/// recorded where `when` holds of the case before it (always, by default).
struct PropertySpec {
  std::string name;
  std::vector<std::string> values;
  CaseCond when;
  bool isFlag() const { return values.empty(); }
};

/// Combinations that do not reach the lowering: `never` cannot occur (the
/// importer and the graph passes do not build them, or the property is
/// implied by the types), `refused` are the selector's diagnostics (no NPU
/// lowering yet). Either way the reason says which and why.
struct CaseRule {
  enum class Kind { Never, Refused };
  Kind kind;
  CaseCond where;
  std::string reason;
};

/// A reachable case that cannot be verified yet, and why (an open
/// limitation, not a missing test).
struct CaseLimitation {
  CaseCond where;
  std::string reason;
};

inline PropertySpec flagProperty(std::string name, CaseCond when = {}) {
  return {std::move(name), {}, std::move(when)};
}
inline PropertySpec choiceProperty(std::string name, std::vector<std::string> values,
                                   CaseCond when = {}) {
  return {std::move(name), std::move(values), std::move(when)};
}
inline CaseRule never(CaseCond where, std::string reason) {
  return {CaseRule::Kind::Never, std::move(where), std::move(reason)};
}
inline CaseRule refused(CaseCond where, std::string reason) {
  return {CaseRule::Kind::Refused, std::move(where), std::move(reason)};
}

struct CaseSpace {
  std::vector<TypeSignature> signatures;
  std::vector<PropertySpec> properties;
  std::vector<CaseRule> rules;
  std::vector<CaseLimitation> limitations;

  /// Every reachable case of `op` on `target`, in a stable order.
  std::vector<CasePoint> enumerate(std::string_view op, std::string_view target) const;
  /// Whether `point` is a reachable case of this space; otherwise `why`
  /// names the first difference (an undeclared type or property, a value
  /// outside its domain, or the rule that excludes it).
  bool contains(const CasePoint &point, std::string &why) const;
  /// The reason a reachable case cannot be verified yet, or null.
  const CaseLimitation *limitation(const CasePoint &point) const;
  /// The declaration as Markdown (signatures, properties, rules).
  std::string describe() const;
};

/// The element type names of cases (LoweringCase.h caseTypeName), in the
/// groups the declarations use.
namespace casetypes {
using List = std::vector<std::string>;
inline const List kFloat = {"f32", "f16"};
/// Plain integers the NPU stores (int64 and uint32 as int32, bool as int8).
inline const List kInt = {"i8", "ui8", "i16", "ui16", "i32", "ui32", "i64"};
inline const List kBool = {"i1"};
/// Per-tensor and per-axis quantized types. 16-bit ones (QuantizeLinear-21)
/// are refused before any selector (LoweringCase.cpp): not in any space.
inline const List kQuant = {"qi8", "qui8"};
inline const List kQuantAxis = {"qi8/axis", "qui8/axis"};
/// Every plain type a model file holds.
List plain();
/// Plain types and per-tensor quantized ones: what data movement copies.
List movable();
List concat(std::initializer_list<List> lists);
} // namespace casetypes

} // namespace npuc::support

#endif
