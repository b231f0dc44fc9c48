//===- CaseSpace.cpp - The declared space of lowering cases ---------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Support/CaseSpace.h"

#include <algorithm>
#include <sstream>

namespace npuc::support {

//===----------------------------------------------------------------------===//
// Points and keys
//===----------------------------------------------------------------------===//

namespace {
const CaseProp *findProp(const CasePoint &p, std::string_view name) {
  for (const CaseProp &q : p.props)
    if (q.name == name)
      return &q;
  return nullptr;
}

std::string joinTypes(const std::vector<std::string> &types) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i)
    s += (i ? "," : "") + types[i];
  return s;
}

std::vector<std::string> splitList(std::string_view s, char sep) {
  std::vector<std::string> out;
  if (s.empty())
    return out;
  size_t start = 0;
  for (;;) {
    size_t p = s.find(sep, start);
    out.emplace_back(s.substr(start, p == std::string_view::npos ? p : p - start));
    if (p == std::string_view::npos)
      return out;
    start = p + 1;
  }
}
} // namespace

bool CasePoint::has(std::string_view name) const { return findProp(*this, name) != nullptr; }

bool CasePoint::is(std::string_view name) const {
  const CaseProp *p = findProp(*this, name);
  return p && p->isFlag && p->value == "1";
}

std::string_view CasePoint::get(std::string_view name) const {
  const CaseProp *p = findProp(*this, name);
  return p && !p->isFlag ? std::string_view(p->value) : std::string_view();
}

std::string CasePoint::key() const {
  std::string s = op + "(";
  s += joinTypes(operands) + (variadic ? "..." : "");
  s += "->" + joinTypes(results) + "){";
  for (size_t i = 0; i < props.size(); ++i) {
    const CaseProp &p = props[i];
    s += i ? "," : "";
    s += p.isFlag ? (p.value == "1" ? p.name : "!" + p.name) : p.name + "=" + p.value;
  }
  return s + "}";
}

bool parseCaseKey(std::string_view key, CasePoint &point, std::string &error) {
  size_t open = key.find('('), arrow = key.find("->"), close = key.find("){");
  if (open == std::string_view::npos || arrow == std::string_view::npos ||
      close == std::string_view::npos || !(open < arrow && arrow < close) || key.back() != '}') {
    error = "'" + std::string(key) + "' is not a lowering case (op(types->types){properties})";
    return false;
  }
  point = CasePoint();
  point.op = std::string(key.substr(0, open));
  std::string_view ins = key.substr(open + 1, arrow - open - 1);
  if (ins.size() > 3 && ins.substr(ins.size() - 3) == "...") {
    point.variadic = true;
    ins.remove_suffix(3);
  }
  point.operands = splitList(ins, ',');
  point.results = splitList(key.substr(arrow + 2, close - arrow - 2), ',');
  for (const std::string &p : splitList(key.substr(close + 2, key.size() - close - 3), ',')) {
    size_t eq = p.find('=');
    if (eq != std::string::npos)
      point.props.push_back({p.substr(0, eq), p.substr(eq + 1), false});
    else if (!p.empty() && p[0] == '!')
      point.props.push_back({p.substr(1), "0", true});
    else
      point.props.push_back({p, "1", true});
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Conditions
//===----------------------------------------------------------------------===//

namespace cond {
namespace {
std::string listText(const std::vector<std::string> &v) {
  if (v.size() == 1)
    return v[0];
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + v[i];
  return s + "}";
}
bool among(const std::vector<std::string> &v, std::string_view x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}
std::string joinText(const std::vector<CaseCond> &cs, const char *sep) {
  std::string s;
  for (size_t i = 0; i < cs.size(); ++i)
    s += (i ? sep : "") + (cs.size() > 1 && cs[i].compound ? "(" + cs[i].text + ")" : cs[i].text);
  return s;
}
} // namespace

CaseCond op(std::vector<std::string> names) {
  std::string text = "op " + listText(names);
  return {[names](const CasePoint &p) { return among(names, p.op); }, text};
}

CaseCond choice(std::string name, std::vector<std::string> values) {
  std::string text = name + " = " + listText(values);
  return {[name, values](const CasePoint &p) { return p.has(name) && among(values, p.get(name)); },
          text};
}

CaseCond flag(std::string name, bool value) {
  std::string text = value ? name : "!" + name;
  return {[name, value](const CasePoint &p) { return p.has(name) && p.is(name) == value; }, text};
}

CaseCond operand(size_t index, std::vector<std::string> types) {
  std::string text = "operand " + std::to_string(index) + " " + listText(types);
  return {[index, types](const CasePoint &p) {
            return index < p.operands.size() && among(types, p.operands[index]);
          },
          text};
}

CaseCond result(size_t index, std::vector<std::string> types) {
  std::string text = "result " + std::to_string(index) + " " + listText(types);
  return {[index, types](const CasePoint &p) {
            return index < p.results.size() && among(types, p.results[index]);
          },
          text};
}

CaseCond operandCount(size_t n) {
  return {[n](const CasePoint &p) { return p.operands.size() == n; },
          std::to_string(n) + " operands"};
}

CaseCond target(std::string name) {
  return {[name](const CasePoint &p) { return p.target == name; }, "on " + name};
}

CaseCond all(std::vector<CaseCond> conds) {
  std::string text = joinText(conds, " and ");
  return {[conds](const CasePoint &p) {
            return std::all_of(conds.begin(), conds.end(),
                               [&](const CaseCond &c) { return c.holds(p); });
          },
          text, conds.size() > 1};
}

CaseCond any(std::vector<CaseCond> conds) {
  std::string text = joinText(conds, " or ");
  return {[conds](const CasePoint &p) {
            return std::any_of(conds.begin(), conds.end(),
                               [&](const CaseCond &c) { return c.holds(p); });
          },
          text, conds.size() > 1};
}

CaseCond negate(CaseCond c) {
  std::string text = "not " + (c.compound ? "(" + c.text + ")" : c.text);
  auto f = c.holds;
  return {[f](const CasePoint &p) { return !f(p); }, text};
}

CaseCond custom(std::string text, std::function<bool(const CasePoint &)> holds) {
  return {std::move(holds), std::move(text)};
}
} // namespace cond

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//

TypeSignature::TypeSignature(std::string pattern_,
                             std::map<std::string, std::vector<std::string>> vars_,
                             std::vector<std::string> ops_)
    : pattern(std::move(pattern_)), ops(std::move(ops_)), vars(std::move(vars_)) {
  size_t arrow = pattern.find("->");
  std::string ins = pattern.substr(0, arrow);
  if (ins.size() > 3 && ins.compare(ins.size() - 3, 3, "...") == 0) {
    variadic = true;
    ins.resize(ins.size() - 3);
  }
  operands = splitList(ins, ',');
  results = splitList(arrow == std::string::npos ? "" : pattern.substr(arrow + 2), ',');
}

std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>>
TypeSignature::expand() const {
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> out;
  std::vector<std::string> names;
  for (const auto &[name, types] : vars)
    names.push_back(name);
  std::map<std::string, std::string> binding;
  std::function<void(size_t)> rec = [&](size_t i) {
    if (i == names.size()) {
      auto bind = [&](const std::vector<std::string> &slots) {
        std::vector<std::string> r;
        for (const std::string &s : slots)
          r.push_back(binding.count(s) ? binding[s] : s);
        return r;
      };
      out.push_back({bind(operands), bind(results)});
      return;
    }
    for (const std::string &t : vars.at(names[i])) {
      binding[names[i]] = t;
      rec(i + 1);
    }
  };
  rec(0);
  return out;
}

//===----------------------------------------------------------------------===//
// Enumeration and membership
//===----------------------------------------------------------------------===//

std::vector<CasePoint> CaseSpace::enumerate(std::string_view op, std::string_view target) const {
  std::vector<CasePoint> out;
  std::vector<std::string> seen;
  CasePoint p;
  p.op = std::string(op);
  p.target = std::string(target);
  std::function<void(size_t)> rec = [&](size_t i) {
    if (i == properties.size()) {
      for (const CaseRule &r : rules)
        if (r.where.holds(p))
          return;
      out.push_back(p);
      return;
    }
    const PropertySpec &spec = properties[i];
    if (spec.when.holds && !spec.when.holds(p)) {
      rec(i + 1);
      return;
    }
    std::vector<std::string> values = spec.isFlag() ? std::vector<std::string>{"1", "0"} : spec.values;
    for (const std::string &v : values) {
      p.props.push_back({spec.name, v, spec.isFlag()});
      rec(i + 1);
      p.props.pop_back();
    }
  };
  for (const TypeSignature &sig : signatures) {
    if (!sig.ops.empty() && std::find(sig.ops.begin(), sig.ops.end(), op) == sig.ops.end())
      continue;
    for (auto &[ins, outs] : sig.expand()) {
      p.operands = ins;
      p.results = outs;
      p.variadic = sig.variadic;
      p.props.clear();
      rec(0);
    }
  }
  // Two signatures may expand to the same types: keep each case once.
  std::sort(out.begin(), out.end(), [](const CasePoint &a, const CasePoint &b) { return a.key() < b.key(); });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const CasePoint &a, const CasePoint &b) { return a.key() == b.key(); }),
            out.end());
  return out;
}

bool CaseSpace::contains(const CasePoint &point, std::string &why) const {
  bool typed = false;
  for (const TypeSignature &sig : signatures) {
    if (sig.variadic != point.variadic ||
        (!sig.ops.empty() && std::find(sig.ops.begin(), sig.ops.end(), point.op) == sig.ops.end()))
      continue;
    for (auto &[ins, outs] : sig.expand())
      if (ins == point.operands && outs == point.results) {
        typed = true;
        break;
      }
    if (typed)
      break;
  }
  if (!typed) {
    why = "its types (" + joinTypes(point.operands) + (point.variadic ? "..." : "") + "->" +
          joinTypes(point.results) + ") are not among the declared signatures";
    return false;
  }
  CasePoint partial = point;
  partial.props.clear();
  size_t next = 0;
  for (const PropertySpec &spec : properties) {
    if (spec.when.holds && !spec.when.holds(partial))
      continue;
    if (next >= point.props.size() || point.props[next].name != spec.name ||
        point.props[next].isFlag != spec.isFlag()) {
      why = "property '" + spec.name + "' is declared here, but the case records " +
            (next < point.props.size() ? "'" + point.props[next].name + "'" : "nothing more");
      return false;
    }
    const CaseProp &got = point.props[next];
    if (!spec.isFlag() &&
        std::find(spec.values.begin(), spec.values.end(), got.value) == spec.values.end()) {
      why = "property '" + spec.name + "' has the undeclared value '" + got.value + "'";
      return false;
    }
    partial.props.push_back(got);
    ++next;
  }
  if (next != point.props.size()) {
    why = "property '" + point.props[next].name + "' is not declared";
    return false;
  }
  for (const CaseRule &r : rules)
    if (r.where.holds(point)) {
      why = "it is declared " +
            std::string(r.kind == CaseRule::Kind::Never ? "impossible" : "refused") + " (" +
            r.where.text + ": " + r.reason + ")";
      return false;
    }
  return true;
}

const CaseLimitation *CaseSpace::limitation(const CasePoint &point) const {
  for (const CaseLimitation &l : limitations)
    if (l.where.holds(point))
      return &l;
  return nullptr;
}

std::string CaseSpace::describe() const {
  std::ostringstream os;
  os << "Element types:";
  for (const TypeSignature &sig : signatures) {
    os << " `" << sig.pattern << "`";
    if (!sig.ops.empty()) {
      os << " (";
      for (size_t i = 0; i < sig.ops.size(); ++i)
        os << (i ? ", " : "") << sig.ops[i];
      os << ")";
    }
    bool first = true;
    for (const auto &[name, types] : sig.vars) {
      os << (first ? " with " : ", ") << name << " in {";
      for (size_t i = 0; i < types.size(); ++i)
        os << (i ? ", " : "") << types[i];
      os << "}";
      first = false;
    }
    os << (&sig == &signatures.back() ? "." : ";");
  }
  os << "\n";
  if (!properties.empty()) {
    os << "Properties, in the order recorded:";
    for (const PropertySpec &p : properties) {
      os << " `" << p.name << "`";
      if (!p.isFlag()) {
        os << " =";
        for (size_t i = 0; i < p.values.size(); ++i)
          os << (i ? "|" : " ") << p.values[i];
      }
      if (p.when.holds)
        os << " (where " << p.when.text << ")";
      os << (&p == &properties.back() ? "." : ";");
    }
    os << "\n";
  }
  for (const CaseRule &r : rules)
    os << "- " << (r.kind == CaseRule::Kind::Never ? "Impossible" : "Refused") << " where "
       << r.where.text << ": " << r.reason << "\n";
  for (const CaseLimitation &l : limitations)
    os << "- Not yet verifiable where " << l.where.text << ": " << l.reason << "\n";
  return os.str();
}

namespace casetypes {
List concat(std::initializer_list<List> lists) {
  List out;
  for (const List &l : lists)
    out.insert(out.end(), l.begin(), l.end());
  return out;
}
List plain() { return concat({kFloat, kInt, kBool}); }
List movable() { return concat({kFloat, kInt, kBool, kQuant}); }
} // namespace casetypes

} // namespace npuc::support
