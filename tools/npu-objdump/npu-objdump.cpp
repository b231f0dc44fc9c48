//===- npu-objdump.cpp - Print a model file -------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Prints the header, sections, tensors and the disassembly of a model file.
// On an invalid file it prints everything it could read, marks each word that
// does not decode, names the first problem and exits 1. Base layer only.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Hash.h"
#include "npuc/Base/ISA.h"
#include "npuc/Base/CommandLine.h"
#include "npuc/Version.h"
#include "npuc/Base/Json.h"
#include "npuc/Base/ModelFile.h"
#include "npuc/Base/Target.h"

#include <CLI/CLI.hpp>

#include <cstring>
#include <iostream>
#include <map>
#include <sstream>

using namespace npuc;

namespace {
struct Line {
  size_t index;
  std::string text;  // disassembly, or empty when invalid
  std::string error;
};

/// The words of the code section, straight from the file (so that a file whose
/// code does not fully validate is still shown whole).
std::vector<Line> disassemble(const model::Model &m, const std::vector<uint8_t> &file) {
  const uint8_t *code = nullptr;
  size_t size = 0;
  for (const model::SectionInfo &s : m.sections)
    if (s.kind == uint32_t(model::SectionKind::Code) && s.offset <= file.size() &&
        s.size <= file.size() - s.offset) {
      code = file.data() + s.offset;
      size = size_t(s.size);
    }
  std::vector<Line> lines;
  for (size_t i = 0; i + isa::kWordBytes <= size; i += isa::kWordBytes) {
    isa::Word w;
    std::memcpy(w.data(), code + i, isa::kWordBytes);
    isa::Inst inst;
    Line line{i / isa::kWordBytes, "", ""};
    if (isa::decode(w, inst, &line.error)) {
      line.text = isa::print(inst);
      if (const target::TargetInfo *t = target::lookupTarget(m.targetName))
        if (auto limit = target::checkInstruction(inst, *t))
          line.error = std::string(inst.desc->mnemonic) + ": " + *limit;
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string shapeText(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}


const char *roleName(model::Role r) {
  return r == model::Role::Input ? "input" : r == model::Role::Output ? "output" : "state";
}

/// The node names of a debug record as a JSON array.
std::string nodesJson(const std::string &nodes) {
  std::string out = "[";
  size_t start = 0;
  for (;;) {
    size_t nl = nodes.find('\n', start);
    out += (start ? ", " : "") + json::quote(nodes.substr(start, nl == std::string::npos ? nl : nl - start));
    if (nl == std::string::npos)
      return out + "]";
    start = nl + 1;
  }
}

void printText(const model::Model &m, const std::vector<Line> &code) {
  std::cout << "format " << m.major << "." << m.minor << ", target " << m.targetName << " (hash "
            << hex0x(m.targetHash) << ")\n";
  std::cout << "regions: arena " << m.arenaSize << ", input " << m.inputSize << ", output "
            << m.outputSize << ", state " << m.stateSize << ", const " << m.constants.size()
            << " bytes\n\nsections:\n";
  for (size_t i = 0; i < m.sections.size(); ++i) {
    const model::SectionInfo &s = m.sections[i];
    std::cout << "  " << i << " " << model::sectionName(s.kind) << " (kind " << s.kind << ")"
              << (s.flags & 1 ? " required" : " optional") << " offset " << hex0x(s.offset)
              << " size " << hex0x(s.size) << "\n";
  }
  // One tensor descriptor: name, type, layout and quantization.
  auto describeTensor = [](const model::TensorDesc &t) {
    std::cout << "'" << t.name << "' " << model::dtypeName(t.hostType()) << shapeText(t.shape);
    if (t.boundary)
      std::cout << " stored as " << model::dtypeName(t.dtype);
    std::cout << " strides " << shapeText(t.strides) << " offset " << hex0x(t.offset);
    if (t.quant != model::Quant::None) {
      std::cout << " quant";
      if (t.quant == model::Quant::PerAxis)
        std::cout << " axis " << t.axis;
      for (size_t i = 0; i < t.scales.size(); ++i)
        std::cout << " " << t.scales[i] << ":" << t.zeroPoints[i];
    }
  };
  if (!m.tensors.empty())
    std::cout << "\ntensors:\n";
  for (const model::TensorDesc &t : m.tensors) {
    std::cout << "  " << roleName(t.role) << " ";
    describeTensor(t);
    std::cout << "\n";
  }
  if (!m.values.empty())
    std::cout << "\nvalues (" << m.values.size() << "; npu-sim --dump-tensors):\n";
  for (const model::ValueDesc &v : m.values) {
    std::cout << "  " << isa::lookupEnum("Region")->values[v.t.region] << " ";
    describeTensor(v.t);
    std::cout << (v.after == model::ValueDesc::kFromStart ? std::string(" from the start")
                                                          : " after " + std::to_string(v.after))
              << (v.node.empty() ? "" : "    ; " + v.node) << "\n";
  }
  for (const auto &[k, v] : m.provenance)
    std::cout << (&k == &m.provenance.front().first ? "\nprovenance:\n" : "") << "  " << k
              << ": " << v << "\n";
  std::cout << "\ncode (" << code.size() << " instructions):\n";
  for (const Line &l : code) {
    std::cout << "  " << l.index << ": ";
    if (l.text.empty())
      std::cout << "<invalid: " << l.error << ">";
    else if (!l.error.empty())
      std::cout << l.text << "    <invalid on " << m.targetName << ": " << l.error << ">";
    else
      std::cout << l.text;
    if (const std::string &node = model::debugNodes(m, l.index); !node.empty())
      std::cout << "    ; " << model::joinedNodes(node);
    std::cout << "\n";
  }
}

void printJson(const model::Model &m, const std::vector<Line> &code, const std::string &error) {
  std::ostream &o = std::cout;
  o << "{\"format\": {\"major\": " << m.major << ", \"minor\": " << m.minor << "},\n"
    << " \"target\": {\"name\": " << json::quote(m.targetName) << ", \"hash\": \""
    << hex0x(m.targetHash) << "\"},\n"
    << " \"regions\": {\"arena\": " << m.arenaSize << ", \"input\": " << m.inputSize
    << ", \"output\": " << m.outputSize << ", \"state\": " << m.stateSize
    << ", \"const\": " << m.constants.size() << "},\n \"sections\": [";
  for (size_t i = 0; i < m.sections.size(); ++i) {
    const model::SectionInfo &s = m.sections[i];
    o << (i ? ", " : "") << "{\"kind\": " << s.kind << ", \"name\": \""
      << model::sectionName(s.kind) << "\", \"required\": " << ((s.flags & 1) ? "true" : "false")
      << ", \"offset\": " << s.offset << ", \"size\": " << s.size << "}";
  }
  o << "],\n \"tensors\": [";
  for (size_t i = 0; i < m.tensors.size(); ++i) {
    const model::TensorDesc &t = m.tensors[i];
    o << (i ? ",\n  " : "\n  ") << "{\"role\": \"" << roleName(t.role)
      << "\", \"name\": " << json::quote(t.name) << ", \"dtype\": \"" << model::dtypeName(t.hostType())
      << "\", \"storage\": \"" << model::dtypeName(t.dtype)
      << "\", \"shape\": " << shapeText(t.shape) << ", \"strides\": " << shapeText(t.strides)
      << ", \"offset\": " << t.offset << "}";
  }
  o << "],\n \"code\": [";
  for (size_t i = 0; i < code.size(); ++i) {
    const Line &l = code[i];
    o << (i ? ",\n  " : "\n  ") << "{\"index\": " << l.index;
    if (!l.text.empty())
      o << ", \"text\": " << json::quote(l.text);
    if (!l.error.empty())
      o << ", \"error\": " << json::quote(l.error);
    if (const std::string &node = model::debugNodes(m, l.index); !node.empty())
      o << ", \"nodes\": " << nodesJson(node);
    o << "}";
  }
  o << "],\n \"error\": " << (error.empty() ? "null" : json::quote(error)) << "}\n";
}
} // namespace

int main(int argc, char **argv) {
  CLI::App app{"npu-objdump: print an npuc model file"};
  app.set_version_flag("--version", "npu-objdump from " + versionString());
  std::string path;
  bool asJson = false;
  app.add_option("model", path, "model file")->required();
  app.add_flag("--json", asJson, "machine-readable output");
  cli::exitCodes(app, "0 printed; 1 the file cannot be read or is not a valid model file "
                      "(everything readable is still printed); 2 usage errors.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return cli::parseError(app, e, "npu-objdump");
  }
  std::vector<uint8_t> bytes;
  std::string error;
  if (!model::readFile(path, bytes, error)) {
    std::cerr << "npu-objdump: error: " << error << "\n";
    return 1;
  }
  model::Model m;
  bool ok = model::parse(bytes.data(), bytes.size(), m, error);
  // A damaged model is shown as far as it parses; a file that is not a model
  // file at all (another format) is not shown.
  if (!ok && !model::notAModelHint(error).empty()) {
    std::cerr << "npu-objdump: error: " << path << ": " << error << model::notAModelHint(error)
              << "\n";
    return 1;
  }
  std::vector<Line> code = disassemble(m, bytes);
  if (asJson)
    printJson(m, code, ok ? "" : error);
  else
    printText(m, code);
  if (!ok) {
    std::cerr << "npu-objdump: error: " << path << ": " << error << model::notAModelHint(error)
              << "\n";
    return 1;
  }
  return 0;
}
