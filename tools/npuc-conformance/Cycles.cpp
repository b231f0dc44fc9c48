//===- Cycles.cpp - npuc-conformance: the committed cycles table ----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Cycle counts are deterministic (one timing function for npu-sim's clock
// and the compiler's cost model), so a table of them per test and target
// pins the schedules: ctest runs the zoo against test/conformance/cycles.txt,
// and a model slower than its entry is a schedule regression, a faster one an
// improvement that updates the table (--write-cycles), written with the
// change that made it.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace npuc::conformance;

bool npuc::conformance::readCycles(const std::string &path,
                                   std::map<std::pair<std::string, std::string>, uint64_t> &out,
                                   std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read the cycles table '" + path + "'";
    return false;
  }
  std::string line;
  for (size_t n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream fields(line);
    std::string name, target, cycles, extra;
    fields >> name >> target >> cycles;
    // Decimal digits only: strtoull would take a sign (and wrap a negative).
    bool digits = !cycles.empty() && cycles.size() <= 19 &&
                  cycles.find_first_not_of("0123456789") == std::string::npos;
    uint64_t value = digits ? std::strtoull(cycles.c_str(), nullptr, 10) : 0;
    if (!value || (fields >> extra)) {
      error = path + ":" + std::to_string(n) + ": expected NAME TARGET CYCLES";
      return false;
    }
    if (!out.insert({{name, target}, value}).second) {
      error = path + ":" + std::to_string(n) + ": " + name + " on " + target + " is listed twice";
      return false;
    }
  }
  return true;
}

size_t npuc::conformance::checkCycles(
    const std::vector<Job> &work, const std::map<std::pair<std::string, std::string>, uint64_t> &table,
    const std::set<std::string> &prefixes, const std::string &path) {
  size_t problems = 0;
  // A row of a test under the run's folders that no longer exists is stale.
  std::set<std::string> ran;
  for (const Job &j : work)
    ran.insert(j.test->name);
  for (const auto &[key, cycles] : table) {
    if (underFolders(key.first, prefixes) && !ran.count(key.first)) {
      std::cout << "cycles: " << key.first << " on " << key.second << " is in " << path
                << " but no such test ran; remove its row\n";
      ++problems;
    }
  }
  for (const Job &j : work) {
    if (j.outcome.cls != Class::Pass || !j.outcome.cycles)
      continue;
    auto it = table.find({j.test->name, j.target});
    uint64_t got = j.outcome.cycles;
    if (it == table.end()) {
      std::cout << "cycles: " << j.test->name << " on " << j.target << " (" << got
                << " cycles) is not in " << path << "; add it with --write-cycles\n";
    } else if (got > it->second) {
      std::cout << "cycles: " << j.test->name << " on " << j.target << " takes " << got
                << " cycles, more than the " << it->second << " of " << path
                << ": a schedule regression\n";
    } else if (got < it->second) {
      std::cout << "cycles: " << j.test->name << " on " << j.target << " takes " << got
                << " cycles, fewer than the " << it->second << " of " << path
                << ": an improvement; update the table with --write-cycles\n";
    } else {
      continue;
    }
    ++problems;
  }
  return problems;
}

bool npuc::conformance::writeCycles(const std::string &path, const std::vector<Job> &work,
                                    const std::set<std::string> &prefixes, std::string &error) {
  // The run's passing tests replace their rows; the rows of tests it did not
  // reach (or that did not pass) stay, so a partial run loses nothing; a row
  // of a test under the run's folders that no longer exists goes.
  std::map<std::pair<std::string, std::string>, uint64_t> rows;
  if (std::ifstream(path) && !readCycles(path, rows, error))
    return false;
  std::set<std::string> ran;
  for (const Job &j : work)
    ran.insert(j.test->name);
  for (auto it = rows.begin(); it != rows.end();)
    it = underFolders(it->first.first, prefixes) && !ran.count(it->first.first) ? rows.erase(it)
                                                                                : std::next(it);
  for (const Job &j : work)
    if (j.outcome.cls == Class::Pass && j.outcome.cycles)
      rows[{j.test->name, j.target}] = j.outcome.cycles;
  std::ofstream out(path);
  out << "# Cycles per test and target (npu-sim, first data set), written by\n"
         "# `npuc-conformance --write-cycles`; ctest (conformance-models) fails on any change:\n"
         "# slower is a schedule regression, faster updates this table.\n";
  for (const auto &[key, cycles] : rows)
    out << key.first << " " << key.second << " " << cycles << "\n";
  out.close();
  if (!out) {
    error = "cannot write the cycles table '" + path + "'";
    return false;
  }
  return true;
}
