//===- Results.cpp - npuc-conformance: expectations, evidence, JSON ------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "npuc/Base/Json.h"
#include "npuc/Support/OpSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <fstream>
#include <tuple>
#include <iostream>

using namespace npuc;
using namespace npuc::conformance;

const char *npuc::conformance::className(Class c) {
  switch (c) {
  case Class::Pass: return "PASS";
  case Class::Fail: return "FAIL";
  case Class::Unsupported: return "UNSUPPORTED";
  case Class::Crash: return "CRASH";
  case Class::Fault: return "FAULT";
  }
  return "?";
}

bool npuc::conformance::parseClass(const std::string &s, Class &c) {
  for (Class k : kClasses)
    if (s == className(k)) {
      c = k;
      return true;
    }
  return false;
}

bool npuc::conformance::readExpectations(const std::string &path, std::map<std::string, Expectation> &out,
                      std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read '" + path + "'";
    return false;
  }
  std::string line;
  size_t lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    llvm::StringRef l = llvm::StringRef(line).trim();
    if (l.empty() || l.starts_with("#"))
      continue;
    auto [name, rest] = l.split(' ');
    auto [cls, reason] = rest.trim().split(' ');
    Expectation e{Class::Pass, reason.trim().str(), lineNo};
    if (!parseClass(cls.str(), e.cls) || e.cls == Class::Pass || reason.trim().empty()) {
      error = path + ":" + std::to_string(lineNo) +
              ": expected 'NAME[@TARGET] FAIL|UNSUPPORTED REASON' (every entry needs its reason)";
      return false;
    }
    if (e.cls == Class::Crash || e.cls == Class::Fault) {
      error = path + ":" + std::to_string(lineNo) + ": a " + className(e.cls) +
              " cannot be expected; it always fails the suite";
      return false;
    }
    if (!out.emplace(name.str(), e).second) {
      error = path + ":" + std::to_string(lineNo) + ": '" + name.str() + "' is listed twice";
      return false;
    }
  }
  return true;
}

bool npuc::conformance::readList(const std::string &path, std::vector<std::string> &out, std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read '" + path + "'";
    return false;
  }
  std::string line;
  for (size_t lineNo = 1; std::getline(in, line); ++lineNo) {
    llvm::StringRef l = llvm::StringRef(line).split('#').first.trim();
    std::string dir;
    while (!l.empty()) {
      size_t dollar = l.find('$');
      dir += l.take_front(dollar).str();
      if (dollar == llvm::StringRef::npos)
        break;
      l = l.drop_front(dollar + 1);
      size_t end = l.find_if_not([](char c) { return std::isalnum((unsigned char)c) || c == '_'; });
      std::string var = l.take_front(end).str();
      const char *value = std::getenv(var.c_str());
      if (var.empty() || !value) {
        error = path + ":" + std::to_string(lineNo) + ": $" + var + " is not set";
        return false;
      }
      dir += value;
      l = l.drop_front(var.size());
    }
    if (!dir.empty())
      out.push_back(dir);
  }
  return true;
}

size_t npuc::conformance::checkExpectations(const std::vector<Job> &work,
                                            std::map<std::string, Expectation> &expectations,
                                            const std::vector<std::string> &targetList,
                                            const std::set<std::string> &prefixes,
                                            const std::string &expectationsPath) {
  size_t unexpected = 0;
  auto complain = [&](const std::string &msg) {
    if (!unexpected++)
      std::cout << "unexpected results (" << expectationsPath << "):\n";
    std::cout << "  " << msg << "\n";
  };
  for (const Job &j : work) {
    const std::string &name = j.test->name;
    auto it = expectations.find(name + "@" + j.target);
    if (it == expectations.end())
      it = expectations.find(name);
    Expectation *e = it == expectations.end() ? nullptr : &it->second;
    if (e)
      e->seen = true;
    Class c = j.outcome.cls;
    std::string where = name + " on " + j.target + ": ";
    if (c == Class::Crash || c == Class::Fault)
      complain(where + className(c) + " (" + j.outcome.detail + ")");
    else if (c == Class::Pass && e)
      complain(where + "passes now; remove its entry (line " + std::to_string(e->line) +
               ", the list only shrinks), or qualify it with the targets where it still fails");
    else if (c != Class::Pass && !e)
      complain(where + className(c) + " is not expected; fix it, or list it with its reason (" +
               (j.outcome.code.empty() ? "" : j.outcome.code + ": ") + j.outcome.detail + ")");
    else if (c != Class::Pass && e->cls != c)
      complain(where + className(c) + ", expected " + className(e->cls) + " (" +
               j.outcome.detail + ")");
  }
  for (const auto &[name, e] : expectations) {
    std::string test = name.substr(0, name.find('@'));
    if (name.find('@') != std::string::npos &&
        !llvm::is_contained(targetList, name.substr(name.find('@') + 1)))
      continue;  // a target this run does not cover
    if (underFolders(test, prefixes) && !e.seen)
      complain(name + ": listed (line " + std::to_string(e.line) + ") but no such test ran");
  }
  return unexpected;
}

void npuc::conformance::writeExpectations(const std::string &path, const std::vector<Job> &work,
                                          size_t targets) {
  std::ofstream os(path);
  os << "# Known non-passing conformance tests (ctest conformance-*, npuc-conformance\n"
        "# --expectations): NAME[@TARGET] CLASS REASON, one per line. A listed test that\n"
        "# passes fails the suite until its line is removed (the list only shrinks); a\n"
        "# test that does not pass and is not listed, or not with this class, fails it;\n"
        "# CRASH and FAULT always fail it. Adding a line needs a written reason. The\n"
        "# UNSUPPORTED reasons are npuc's diagnostics (docs/diagnostics.md). Written by\n"
        "# `scripts/update-supported-ops.sh --write-expectations FILE`.\n";
  std::map<std::string, std::vector<const Job *>> byTest;
  for (const Job &j : work)
    byTest[j.test->name].push_back(&j);
  for (const auto &[name, js] : byTest) {
    bool same = std::all_of(js.begin(), js.end(), [&](const Job *j) {
      return j->outcome.cls == js[0]->outcome.cls && j->outcome.code == js[0]->outcome.code;
    });
    for (const Job *j : js) {
      const Outcome &o = j->outcome;
      if (o.cls == Class::Pass || o.cls == Class::Crash || o.cls == Class::Fault)
        continue;
      os << name << (same && js.size() == targets ? "" : "@" + j->target) << " "
         << className(o.cls) << " " << (o.code.empty() ? "" : o.code + ": ") << o.detail
         << "\n";
      if (same && js.size() == targets)
        break;
    }
  }
}

void npuc::conformance::writeEvidence(const std::string &path, const std::vector<Job> &work) {
  // Per (case, target): the best level, the tests behind it and the ONNX ops
  // whose nodes reached it; per (ONNX op, target) the same for its nodes that
  // had no case of their own (support::kNoCase rows).
  struct Slot {
    support::Level level = support::Level::Reached;
    std::set<std::string> tests, ops;
    bool set = false;
  };
  // (case or kNoCase, target, the ONNX op of a kNoCase row) -> slot
  std::map<std::tuple<std::string, std::string, std::string>, Slot> best;
  auto note = [&](const std::string &key, const std::string &target, const std::string &op,
                  support::Level level, const std::string &entry) {
    Slot &slot = best[{key, target, key == support::kNoCase ? op : ""}];
    if (!slot.set || level > slot.level) {
      slot.level = level;
      slot.tests.clear();
      slot.set = true;
    }
    if (level == slot.level)
      slot.tests.insert(entry);
    slot.ops.insert(op);
  };
  for (const Job &j : work) {
    const Outcome &o = j.outcome;
    support::Level level = o.matched    ? support::Level::Verified
                           : o.compiled ? support::Level::Lowered
                                        : support::Level::Reached;
    std::string entry = j.test->name;
    if (level == support::Level::Reached && !o.code.empty())
      entry += " [" + o.code + "]";
    else if (level == support::Level::Lowered)
      entry += " [" + std::string(className(o.cls)) + "]";
    for (const auto &[key, op] : o.cases)
      note(key, j.target, op, level, entry);
    for (const std::string &op : o.noCaseOps)
      note(support::kNoCase, j.target, op, level, entry);
  }
  std::vector<support::Evidence> evidence;
  auto list = [](const std::set<std::string> &items, size_t max) {
    std::string s;
    size_t n = 0;
    for (const std::string &t : items)
      if (n++ < max)
        s += (s.empty() ? "" : ",") + t;
    if (items.size() > max)
      s += ",+" + std::to_string(items.size() - max) + " more";
    return s;
  };
  for (const auto &[key, slot] : best)
    evidence.push_back({std::get<0>(key), std::get<1>(key), slot.level, list(slot.ops, 1000),
                        list(slot.tests, 5)});
  std::ofstream(path) << support::formatEvidence(evidence);
}

void npuc::conformance::writeJson(const std::string &path, const std::vector<Job> &work) {
  std::ofstream os(path);
  os << "{\"results\": [";
  for (size_t i = 0; i < work.size(); ++i) {
    const Job &j = work[i];
    const Outcome &o = j.outcome;
    os << (i ? ",\n  " : "\n  ") << "{\"test\": " << json::quote(j.test->name)
       << ", \"dir\": " << json::quote(j.test->dir) << ", \"target\": " << json::quote(j.target)
       << ", \"class\": \"" << className(o.cls) << "\", \"code\": " << json::quote(o.code)
       << ", \"detail\": " << json::quote(o.detail) << ", \"seconds\": " << numText(o.seconds)
       << ", \"bound_inputs\": [";
    for (size_t k = 0; k < o.bound.size(); ++k)
      os << (k ? ", " : "") << json::quote(o.bound[k]);
    os << "], \"gated\": " << (o.gated ? "true" : "false") << ", \"cases\": [";
    size_t k = 0;
    for (const auto &[key, op] : o.cases)
      os << (k++ ? ", " : "") << "{\"case\": " << json::quote(key) << ", \"onnx_op\": "
         << json::quote(op) << "}";
    os << "]}";
  }
  os << "]}\n";
}

bool npuc::conformance::underFolders(const std::string &name,
                                     const std::set<std::string> &prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](const std::string &p) { return name.rfind(p, 0) == 0; });
}
