//===- ModelFile.cpp - Write and validate npuc model files ----------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Every offset and length is checked before use, without overflow: no byte
// sequence makes the reader read out of bounds (unittests/Base/ModelFileTest).
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/ModelFile.h"
#include "npuc/Base/Hash.h"
#include "npuc/Base/ISA.h"
#include "npuc/Base/Target.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace npuc;
using namespace npuc::model;

const char *model::sectionName(uint32_t kind) {
  switch (SectionKind(kind)) {
  case SectionKind::Code: return "code";
  case SectionKind::Constants: return "constants";
  case SectionKind::Luts: return "luts";
  case SectionKind::Tensors: return "tensors";
  case SectionKind::Provenance: return "provenance";
  case SectionKind::Debug: return "debug";
  case SectionKind::Values: return "values";
  }
  return "unknown";
}

unsigned model::dtypeBytes(DType t) {
  static const unsigned bytes[] = {1, 1, 2, 4, 2, 4, 1, 8, 2, 4, 8};
  return bytes[unsigned(t)];
}

const char *model::dtypeName(DType t) {
  static const char *const names[] = {"int8",  "uint8", "int16", "int32",  "float16",
                                      "float32", "bool", "int64", "uint16", "uint32",
                                      "float64"};
  return names[unsigned(t)];
}

DType model::storageOf(DType host) {
  switch (host) {
  case DType::Bool: return DType::I8;
  case DType::I64:
  case DType::U16:
  case DType::U32: return DType::I32;
  case DType::F64: return DType::F32;
  default: return host;
  }
}

uint16_t model::formatMinor(const Model &m) {
  for (const TensorDesc &t : m.tensors)
    if (t.boundary == DType::F64 || std::find(t.shape.begin(), t.shape.end(), 0) != t.shape.end())
      return 3;
  return 2;
}

uint64_t TensorDesc::numElements() const {
  uint64_t n = 1;
  for (int64_t d : shape)
    n *= uint64_t(d);
  return n;
}

uint64_t TensorDesc::spanBytes() const {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end())
    return 0;  // an empty input or output addresses nothing
  uint64_t span = dtypeBytes(dtype);
  for (size_t i = 0; i < shape.size(); ++i)
    span += uint64_t(shape[i] - 1) * uint64_t(strides[i]);
  return span;
}

const std::string &model::debugNodes(const Model &m, uint64_t index) {
  static const std::string none;
  auto it = std::upper_bound(m.debug.begin(), m.debug.end(), index,
                             [](uint64_t i, const std::pair<uint32_t, std::string> &r) {
                               return i < r.first;
                             });
  return it == m.debug.begin() ? none : std::prev(it)->second;
}

std::string model::notAModelHint(const std::string &parseError) {
  return parseError.rfind("not an npuc model file", 0) == 0
             ? " (an ONNX model is compiled first: npuc model.onnx -o model.bin)"
             : "";
}

std::string model::joinedNodes(const std::string &nodes) {
  std::string s = nodes;
  for (size_t at = 0; (at = s.find('\n', at)) != std::string::npos; at += 2)
    s.replace(at, 1, ", ");
  return s;
}

std::vector<const TensorDesc *> Model::tensorsWithRole(Role role) const {
  std::vector<const TensorDesc *> out;
  for (const TensorDesc &t : tensors)
    if (t.role == role)
      out.push_back(&t);
  return out;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

namespace {
struct Out {
  std::vector<uint8_t> bytes;
  template <typename T> void put(T v) {
    for (size_t i = 0; i < sizeof(T); ++i)
      bytes.push_back(uint8_t(uint64_t(v) >> (8 * i)));
  }
  void putF32(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    put<uint32_t>(u);
  }
  void putBytes(const void *p, size_t n) {
    const uint8_t *b = static_cast<const uint8_t *>(p);
    bytes.insert(bytes.end(), b, b + n);
  }
  void putString(const std::string &s) {
    put<uint32_t>(uint32_t(s.size()));
    putBytes(s.data(), s.size());
  }
  void padTo(size_t align) {
    while (bytes.size() % align)
      bytes.push_back(0);
  }
  template <typename T> void patch(size_t at, T v) {
    for (size_t i = 0; i < sizeof(T); ++i)
      bytes[at + i] = uint8_t(uint64_t(v) >> (8 * i));
  }
};

void putTensor(Out &o, const TensorDesc &t) {
  o.put<uint8_t>(uint8_t(t.role));
  o.put<uint8_t>(uint8_t(t.dtype));
  o.put<uint8_t>(uint8_t(t.shape.size()));
  o.put<uint8_t>(t.region);
  o.put<uint32_t>(uint32_t(t.name.size()));
  o.put<uint64_t>(t.offset);
  for (int64_t d : t.shape)
    o.put<int64_t>(d);
  for (int64_t s : t.strides)
    o.put<int64_t>(s);
  o.put<uint8_t>(uint8_t(t.quant));
  // Format 1.2: the boundary type where it differs from the storage type
  // (0 otherwise, as a 1.1 reader requires of this byte).
  o.put<uint8_t>(t.boundary ? uint8_t(*t.boundary) : 0);
  o.put<uint8_t>(0);
  o.put<uint8_t>(0);
  o.put<int32_t>(t.axis);
  o.put<uint32_t>(uint32_t(t.scales.size()));
  for (float s : t.scales)
    o.putF32(s);
  for (int32_t z : t.zeroPoints)
    o.put<int32_t>(z);
  o.putBytes(t.name.data(), t.name.size());
  o.padTo(8);
}

std::vector<uint8_t> tensorsSection(const Model &m) {
  Out o;
  o.put<uint64_t>(m.arenaSize);
  o.put<uint64_t>(m.inputSize);
  o.put<uint64_t>(m.outputSize);
  o.put<uint64_t>(m.stateSize);
  o.put<uint32_t>(uint32_t(m.tensors.size()));
  o.put<uint32_t>(0);
  for (const TensorDesc &t : m.tensors)
    putTensor(o, t);
  return o.bytes;
}

/// u32 count, u32 reserved; per value: u32 after, u32 reserved, a tensor
/// record of role 3, the node (a string), zero padding to 8 bytes.
std::vector<uint8_t> valuesSection(const Model &m) {
  Out o;
  o.put<uint32_t>(uint32_t(m.values.size()));
  o.put<uint32_t>(0);
  for (const ValueDesc &v : m.values) {
    o.put<uint32_t>(v.after);
    o.put<uint32_t>(0);
    putTensor(o, v.t);
    o.putString(v.node);
    o.padTo(8);
  }
  return o.bytes;
}
} // namespace

model::Pieces model::serializePieces(const Model &m) {
  // Code and constants (nearly all of a file) are written from the model as
  // they are, into a buffer sized once: no copy of them is ever held.
  struct Section {
    SectionKind kind;
    const uint8_t *data;
    size_t size;
  };
  std::vector<std::vector<uint8_t>> owned;
  std::vector<Section> sections;
  auto own = [&](SectionKind kind, std::vector<uint8_t> bytes) {
    owned.push_back(std::move(bytes));
    sections.push_back({kind, owned.back().data(), owned.back().size()});
  };
  sections.push_back({SectionKind::Code, m.code.data(), m.code.size()});
  sections.push_back({SectionKind::Constants, m.constants.data(), m.constants.size()});
  if (!m.luts.empty()) {
    Out o;
    o.put<uint32_t>(uint32_t(m.luts.size()));
    o.put<uint32_t>(0);
    for (const LutDesc &l : m.luts) {
      o.put<uint64_t>(l.offset);
      o.put<uint32_t>(l.entries);
      o.put<uint32_t>(0);
    }
    own(SectionKind::Luts, std::move(o.bytes));
  }
  own(SectionKind::Tensors, tensorsSection(m));
  if (!m.provenance.empty()) {
    Out o;
    o.put<uint32_t>(uint32_t(m.provenance.size()));
    for (const auto &[k, v] : m.provenance) {
      o.putString(k);
      o.putString(v);
    }
    own(SectionKind::Provenance, std::move(o.bytes));
  }
  if (!m.debug.empty()) {
    Out o;
    o.put<uint32_t>(uint32_t(m.debug.size()));
    for (const auto &[index, name] : m.debug) {
      o.put<uint32_t>(index);
      o.putString(name);
    }
    own(SectionKind::Debug, std::move(o.bytes));
  }
  if (!m.values.empty())
    own(SectionKind::Values, valuesSection(m));

  static const uint8_t zeros[kAlign] = {};
  Pieces pieces;
  Out f;
  f.putBytes("NPUMODEL", 8);
  f.put<uint16_t>(m.major);
  f.put<uint16_t>(formatMinor(m));
  f.put<uint32_t>(kHeaderSize);
  f.put<uint64_t>(0);  // file size, patched below
  f.put<uint64_t>(m.targetHash);
  char name[16] = {};
  std::memcpy(name, m.targetName.data(), std::min<size_t>(m.targetName.size(), 15));
  f.putBytes(name, 16);
  f.put<uint32_t>(uint32_t(sections.size()));
  f.put<uint32_t>(kHeaderSize);
  f.put<uint64_t>(0);  // checksum, patched below
  size_t table = f.bytes.size();
  f.bytes.resize(table + sections.size() * kEntrySize, 0);
  f.padTo(kAlign);
  size_t offset = f.bytes.size();
  std::vector<std::pair<const uint8_t *, size_t>> body;
  for (size_t i = 0; i < sections.size(); ++i) {
    const auto &[kind, data, size] = sections[i];
    size_t e = table + i * kEntrySize;
    f.patch<uint32_t>(e, uint32_t(kind));
    bool required = kind == SectionKind::Code || kind == SectionKind::Constants ||
                    kind == SectionKind::Tensors;
    f.patch<uint32_t>(e + 4, required ? 1u : 0u);
    f.patch<uint64_t>(e + 8, offset);
    f.patch<uint64_t>(e + 16, size);
    f.patch<uint32_t>(e + 24, kAlign);
    body.push_back({data, size});
    size_t pad = (kAlign - size % kAlign) % kAlign;
    if (pad)
      body.push_back({zeros, pad});
    offset += size + pad;
  }
  f.patch<uint64_t>(16, offset);
  auto view = [](const uint8_t *p, size_t n) {
    return std::string_view(reinterpret_cast<const char *>(p), n);
  };
  uint64_t checksum = fnv1a64(view(f.bytes.data() + kHeaderSize, f.bytes.size() - kHeaderSize));
  for (const auto &[data, size] : body)
    checksum = fnv1a64(view(data, size), checksum);
  f.patch<uint64_t>(56, checksum);
  pieces.owned = std::move(owned);
  pieces.owned.push_back(std::move(f.bytes));
  pieces.parts.push_back({pieces.owned.back().data(), pieces.owned.back().size()});
  pieces.parts.insert(pieces.parts.end(), body.begin(), body.end());
  return pieces;
}

std::vector<uint8_t> model::serialize(const Model &m) {
  Pieces pieces = serializePieces(m);
  size_t total = 0;
  for (const auto &part : pieces.parts)
    total += part.second;
  std::vector<uint8_t> bytes;
  bytes.reserve(total);
  for (const auto &[data, size] : pieces.parts)
    bytes.insert(bytes.end(), data, data + size);
  return bytes;
}

bool model::checkWritable(const std::string &path, std::string &error) {
  struct stat st;
  if (path.empty()) {
    error = "no file name to write";
    return false;
  }
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    error = "cannot write '" + path + "': it is a directory";
    return false;
  }
  size_t slash = path.find_last_of('/');
  std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (stat(dir.c_str(), &st) != 0) {
    error = "cannot write '" + path + "': directory '" + dir + "' does not exist";
    return false;
  }
  if (!S_ISDIR(st.st_mode)) {
    error = "cannot write '" + path + "': '" + dir + "' is not a directory";
    return false;
  }
  if (access(dir.c_str(), W_OK) != 0) {
    error = "cannot write '" + path + "': directory '" + dir + "' is not writable";
    return false;
  }
  return true;
}

namespace {
model::Pieces onePiece(const std::vector<uint8_t> &bytes) {
  model::Pieces p;
  p.parts.push_back({bytes.data(), bytes.size()});
  return p;
}
} // namespace

bool model::writeFileOrStdout(const std::string &path, const std::vector<uint8_t> &bytes,
                              std::string &error) {
  return writeFileOrStdout(path, onePiece(bytes), error);
}

bool model::writeFileOrStdout(const std::string &path, const Pieces &pieces, std::string &error) {
  if (path != "-")
    return writeFileAtomically(path, pieces, error);
  for (const auto &[data, size] : pieces.parts)
    if (std::fwrite(data, 1, size, stdout) != size) {
      error = std::string("cannot write to standard output: ") + std::strerror(errno);
      return false;
    }
  if (std::fflush(stdout)) {
    error = std::string("cannot write to standard output: ") + std::strerror(errno);
    return false;
  }
  return true;
}

bool model::writeFileAtomically(const std::string &path, const std::vector<uint8_t> &bytes,
                                std::string &error) {
  return writeFileAtomically(path, onePiece(bytes), error);
}

bool model::writeFileAtomically(const std::string &path, const Pieces &pieces,
                                std::string &error) {
  if (!checkWritable(path, error))
    return false;
  size_t slash = path.find_last_of('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  std::string tmpl = (slash == std::string::npos ? std::string("./") : dir) + ".npuc-tmp-XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0) {
    error = "cannot create a temporary file in '" + dir + "': " + std::strerror(errno);
    return false;
  }
  auto fail = [&](const char *what) {
    error = std::string(what) + " '" + path + "': " + std::strerror(errno);
    close(fd);
    unlink(name.data());
    return false;
  };
  for (const auto &[data, size] : pieces.parts)
    for (size_t done = 0; done < size;) {
      ssize_t n = write(fd, data + done, size - done);
      if (n < 0) {
        if (errno == EINTR)
          continue;
        return fail("cannot write");
      }
      done += size_t(n);
    }
  if (fchmod(fd, 0644) != 0 || fsync(fd) != 0)
    return fail("cannot flush");
  if (close(fd) != 0) {
    error = "cannot close '" + path + "': " + std::strerror(errno);
    unlink(name.data());
    return false;
  }
  if (rename(name.data(), path.c_str()) != 0) {
    error = "cannot rename the temporary file to '" + path + "': " + std::strerror(errno);
    unlink(name.data());
    return false;
  }
  return true;
}

bool model::readFile(const std::string &path, std::vector<uint8_t> &bytes, std::string &error) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    error = "'" + path + "' is a directory, not a file";
    return false;
  }
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  // Read in place, sized by the file (a file that grows or shrinks meanwhile
  // is still read to its end).
  bytes.clear();
  struct stat fst;
  if (fstat(fileno(f), &fst) == 0 && S_ISREG(fst.st_mode) && fst.st_size > 0)
    bytes.reserve(size_t(fst.st_size));
  size_t n = 0;
  do {
    size_t at = bytes.size();
    bytes.resize(at + std::max<size_t>(bytes.capacity() - at, 65536));
    n = std::fread(bytes.data() + at, 1, bytes.size() - at, f);
    bytes.resize(at + n);
  } while (n > 0);
  bool bad = std::ferror(f);
  std::fclose(f);
  if (bad)
    error = "cannot read '" + path + "': " + std::strerror(errno);
  return !bad;
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {

/// Bounds-checked little-endian reads from one section.
struct Cursor {
  const uint8_t *p;
  size_t size, pos = 0;
  std::string what;  // "section 3 (tensors)"
  std::string error;

  bool need(size_t n, const char *item) {
    if (size - pos >= n)
      return true;
    error = what + ": truncated " + item + " at offset " + hex0x(pos) + " (needs " +
            std::to_string(n) + " bytes, " + std::to_string(size - pos) + " left)";
    return false;
  }
  template <typename T> bool get(T &v, const char *item) {
    if (!need(sizeof(T), item))
      return false;
    uint64_t u = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
      u |= uint64_t(p[pos + i]) << (8 * i);
    pos += sizeof(T);
    v = T(u);
    return true;
  }
  bool getString(std::string &s, const char *item, uint32_t maxLen = 1 << 20) {
    uint32_t n;
    if (!get(n, item))
      return false;
    if (n > maxLen) {
      error = what + ": " + item + " length " + std::to_string(n) + " exceeds " +
              std::to_string(maxLen);
      return false;
    }
    if (!need(n, item))
      return false;
    s.assign(reinterpret_cast<const char *>(p + pos), n);
    pos += n;
    return true;
  }
  bool fail(const std::string &msg) {
    error = what + ": " + msg;
    return false;
  }
};

bool containsKind(const std::vector<uint32_t> &v, uint32_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

uint64_t le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}
uint32_t le32(const uint8_t *p) { return uint32_t(le64(p) & 0xffffffffu) ; }
uint16_t le16(const uint8_t *p) { return uint16_t(p[0] | (p[1] << 8)); }

/// A tensor record of the tensors section, or (`value`) of the values section.
bool parseTensor(Cursor &c, const Model &m, TensorDesc &t, size_t index, bool value = false) {
  std::string item = (value ? "value " : "tensor ") + std::to_string(index);
  uint8_t role, dtype, rank, region;
  uint32_t nameLen;
  if (!c.get(role, "tensor role") || !c.get(dtype, "tensor dtype") ||
      !c.get(rank, "tensor rank") || !c.get(region, "tensor region") ||
      !c.get(nameLen, "tensor name length") || !c.get(t.offset, "tensor offset"))
    return false;
  if (role > 3 || (role == 3) != value)
    return c.fail(item + ": role " + std::to_string(role) + " is not " +
                  (value ? "3 (a value)" : "0, 1 or 2"));
  if (dtype >= kNumDTypes)
    return c.fail(item + ": dtype " + std::to_string(dtype) + " is not in [0, 5]");
  if (rank > 8)
    return c.fail(item + ": rank " + std::to_string(rank) + " exceeds 8");
  if (nameLen > 4096)
    return c.fail(item + ": name length " + std::to_string(nameLen) + " exceeds 4096");
  t.role = Role(role);
  t.dtype = DType(dtype);
  t.region = region;
  static const uint8_t regionOf[] = {uint8_t(isa::Region::INPUT), uint8_t(isa::Region::OUTPUT),
                                     uint8_t(isa::Region::STATE)};
  if (value ? region != uint8_t(isa::Region::ARENA) && region != uint8_t(isa::Region::INPUT) &&
                  region != uint8_t(isa::Region::OUTPUT)
            : region != regionOf[role])
    return c.fail(item + ": region " + std::to_string(region) +
                  (value ? " is not ARENA, INPUT or OUTPUT" : " does not match its role"));
  t.shape.resize(rank);
  t.strides.resize(rank);
  for (auto &d : t.shape)
    if (!c.get(d, "tensor shape"))
      return false;
  for (auto &s : t.strides)
    if (!c.get(s, "tensor strides"))
      return false;
  uint8_t quant, r0, r1, r2;
  uint32_t count;
  if (!c.get(quant, "tensor quant") || !c.get(r0, "reserved") || !c.get(r1, "reserved") ||
      !c.get(r2, "reserved") || !c.get(t.axis, "tensor axis") || !c.get(count, "quant count"))
    return false;
  if (r1 || r2)
    return c.fail(item + ": reserved bytes are not zero");
  // The boundary type (format 1.2): 0, or a boundary-only type over its
  // storage type; never on a graph value.
  t.boundary.reset();
  if (r0) {
    if (r0 < kNumDTypes || r0 >= kNumHostDTypes || value || storageOf(DType(r0)) != t.dtype)
      return c.fail(item + ": boundary type " + std::to_string(r0) + " does not suit a " +
                    dtypeName(t.dtype) + (value ? " value" : " tensor") +
                    " (bool over int8; int64, uint16 or uint32 over int32; float64 over float32)");
    t.boundary = DType(r0);
  }
  if (quant > 2)
    return c.fail(item + ": quant kind " + std::to_string(quant) + " is not 0, 1 or 2");
  t.quant = Quant(quant);
  // Shape and strides: every addressed byte must lie in the region.
  uint64_t regionSize = region == uint8_t(isa::Region::ARENA)    ? m.arenaSize
                        : region == uint8_t(isa::Region::INPUT)  ? m.inputSize
                        : region == uint8_t(isa::Region::OUTPUT) ? m.outputSize
                                                                 : m.stateSize;
  unsigned __int128 span = dtypeBytes(t.dtype);
  // Graph inputs and outputs may be empty (format 1.3): no bytes.
  int64_t least = t.role == Role::Input || t.role == Role::Output ? 0 : 1;
  for (size_t i = 0; i < rank; ++i) {
    if (t.shape[i] < least || t.shape[i] > (int64_t(1) << 40))
      return c.fail(item + ": dimension " + std::to_string(i) + " = " +
                    std::to_string(t.shape[i]) + " is outside [" + std::to_string(least) + ", 2^40]");
    if (t.strides[i] < 0 || t.strides[i] > (int64_t(1) << 40))
      return c.fail(item + ": stride " + std::to_string(i) + " = " +
                    std::to_string(t.strides[i]) + " is outside [0, 2^40]");
    span += (unsigned __int128)(t.shape[i] - 1) * uint64_t(t.strides[i]);
  }
  if (std::find(t.shape.begin(), t.shape.end(), 0) != t.shape.end())
    span = 0;
  // At most 2^32 elements (a region is at most 4 GiB; broadcast strides of 0
  // must not make a tensor larger than any consumer can hold).
  unsigned __int128 elements = 1;
  for (int64_t d : t.shape)
    elements *= uint64_t(d);
  if (elements > ((unsigned __int128)1 << 32))
    return c.fail(item + ": more than 2^32 elements");
  if (span + t.offset > regionSize)
    return c.fail(item + ": offset " + hex0x(t.offset) + " + span exceeds the region size " +
                  hex0x(regionSize));
  uint64_t want = t.quant == Quant::None ? 0
                  : t.quant == Quant::PerTensor
                      ? 1
                      : (t.axis >= 0 && t.axis < rank ? uint64_t(t.shape[t.axis]) : 0);
  if ((t.quant == Quant::PerAxis && (t.axis < 0 || t.axis >= rank)) ||
      (t.quant != Quant::PerAxis && t.axis != -1))
    return c.fail(item + ": quantization axis " + std::to_string(t.axis) + " is invalid");
  if (count != want)
    return c.fail(item + ": " + std::to_string(count) + " quantization entries, expected " +
                  std::to_string(want));
  t.scales.resize(count);
  t.zeroPoints.resize(count);
  for (float &s : t.scales) {
    uint32_t u;
    if (!c.get(u, "scale"))
      return false;
    std::memcpy(&s, &u, 4);
    if (!(s > 0) || !std::isfinite(s))
      return c.fail(item + ": scale is not finite and positive");
  }
  static const int64_t lo[] = {-128, 0, -32768, INT32_MIN, 0, 0};
  static const int64_t hi[] = {127, 255, 32767, INT32_MAX, 0, 0};
  for (int32_t &z : t.zeroPoints) {
    if (!c.get(z, "zero point"))
      return false;
    bool isFloat = t.dtype == DType::F16 || t.dtype == DType::F32;
    if (isFloat ? z != 0 : (z < lo[unsigned(t.dtype)] || z > hi[unsigned(t.dtype)]))
      return c.fail(item + ": zero point " + std::to_string(z) + " is outside the range of " +
                    dtypeName(t.dtype));
  }
  if (!c.need(nameLen, "tensor name"))
    return false;
  t.name.assign(reinterpret_cast<const char *>(c.p + c.pos), nameLen);
  c.pos += nameLen;
  while (c.pos % 8) {
    uint8_t pad;
    if (!c.get(pad, "tensor padding"))
      return false;
    if (pad)
      return c.fail(item + ": padding after the name is not zero");
  }
  return true;
}

bool parseSection(const uint8_t *data, const SectionInfo &s, size_t index, Model &m,
                  std::string &error) {
  Cursor c{data + s.offset, size_t(s.size)};
  c.what = "section " + std::to_string(index) + " (" + sectionName(s.kind) + ")";
  auto done = [&](bool ok) {
    if (!ok)
      error = c.error;
    return ok;
  };
  switch (SectionKind(s.kind)) {
  case SectionKind::Code: {
    if (s.size % isa::kWordBytes)
      return done(c.fail("size " + hex0x(s.size) + " is not a multiple of 16"));
    for (size_t i = 0; i < s.size / isa::kWordBytes; ++i) {
      isa::Word w;
      std::memcpy(w.data(), c.p + i * isa::kWordBytes, isa::kWordBytes);
      isa::Inst inst;
      std::string why;
      std::optional<std::string> limit;
      if (!isa::decode(w, inst, &why) ||
          (limit = target::checkInstruction(inst, *target::lookupTarget(m.targetName))))
        return done(c.fail("instruction " + std::to_string(i) + " (offset " +
                           hex0x(i * isa::kWordBytes) + "): " + (limit ? *limit : why)));
      m.code.insert(m.code.end(), w.begin(), w.end());
    }
    return true;
  }
  case SectionKind::Constants:
    m.constants.assign(c.p, c.p + c.size);
    return true;
  case SectionKind::Luts: {
    uint32_t n, reserved;
    if (!c.get(n, "lut count") || !c.get(reserved, "reserved"))
      return done(false);
    if (reserved)
      return done(c.fail("reserved word is not zero"));
    if (n > 4096)
      return done(c.fail("lut count " + std::to_string(n) + " exceeds 4096"));
    for (uint32_t i = 0; i < n; ++i) {
      LutDesc l;
      uint32_t r;
      if (!c.get(l.offset, "lut offset") || !c.get(l.entries, "lut entries") ||
          !c.get(r, "reserved"))
        return done(false);
      if (r)
        return done(c.fail("lut " + std::to_string(i) + ": reserved word is not zero"));
      if (l.entries != 256 && l.entries != 512)
        return done(c.fail("lut " + std::to_string(i) + " has " + std::to_string(l.entries) +
                           " entries, expected 256 or 512"));
      if (l.offset > m.constants.size() || m.constants.size() - l.offset < 2ull * l.entries)
        return done(c.fail("lut " + std::to_string(i) + " at " + hex0x(l.offset) +
                           " exceeds the constants (" + hex0x(m.constants.size()) + " bytes)"));
      m.luts.push_back(l);
    }
    return true;
  }
  case SectionKind::Tensors: {
    uint32_t n, reserved;
    if (!c.get(m.arenaSize, "arena size") || !c.get(m.inputSize, "input size") ||
        !c.get(m.outputSize, "output size") || !c.get(m.stateSize, "state size") ||
        !c.get(n, "tensor count") || !c.get(reserved, "reserved"))
      return done(false);
    if (reserved)
      return done(c.fail("reserved word is not zero"));
    for (uint64_t size : {m.arenaSize, m.inputSize, m.outputSize, m.stateSize})
      if (size > isa::gmAddressBytes())
        return done(c.fail("region size " + hex0x(size) + " exceeds the 4 GiB address space"));
    if (n > 65536)
      return done(c.fail("tensor count " + std::to_string(n) + " exceeds 65536"));
    for (uint32_t i = 0; i < n; ++i) {
      TensorDesc t;
      if (!parseTensor(c, m, t, i))
        return done(false);
      m.tensors.push_back(std::move(t));
    }
    if (c.pos != c.size)
      return done(c.fail(std::to_string(c.size - c.pos) + " bytes follow the last tensor record"));
    return true;
  }
  case SectionKind::Provenance: {
    uint32_t n;
    if (!c.get(n, "entry count"))
      return done(false);
    for (uint32_t i = 0; i < n; ++i) {
      std::string k, v;
      if (!c.getString(k, "key") || !c.getString(v, "value"))
        return done(false);
      m.provenance.emplace_back(std::move(k), std::move(v));
    }
    return true;
  }
  case SectionKind::Values: {
    uint32_t n, reserved;
    if (!c.get(n, "value count") || !c.get(reserved, "reserved"))
      return done(false);
    if (reserved)
      return done(c.fail("reserved word is not zero"));
    if (n > (1u << 20))
      return done(c.fail("value count " + std::to_string(n) + " exceeds 2^20"));
    uint32_t instructions = uint32_t(m.code.size() / isa::kWordBytes);
    for (uint32_t i = 0; i < n; ++i) {
      ValueDesc v;
      uint32_t r;
      if (!c.get(v.after, "instruction index") || !c.get(r, "reserved"))
        return done(false);
      if (r)
        return done(c.fail("value " + std::to_string(i) + ": reserved word is not zero"));
      if (v.after != ValueDesc::kFromStart && v.after >= instructions)
        return done(c.fail("value " + std::to_string(i) + ": instruction " +
                           std::to_string(v.after) + " is past the code (" +
                           std::to_string(instructions) + " instructions)"));
      if (!parseTensor(c, m, v.t, i, /*value=*/true) || !c.getString(v.node, "node name", 4096))
        return done(false);
      while (c.pos % 8) {
        uint8_t pad;
        if (!c.get(pad, "value padding"))
          return done(false);
        if (pad)
          return done(c.fail("value " + std::to_string(i) + ": padding is not zero"));
      }
      m.values.push_back(std::move(v));
    }
    if (c.pos != c.size)
      return done(c.fail(std::to_string(c.size - c.pos) + " bytes follow the last value record"));
    return true;
  }
  case SectionKind::Debug: {
    uint32_t n;
    if (!c.get(n, "entry count"))
      return done(false);
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t index;
      std::string name;
      if (!c.get(index, "instruction index") || !c.getString(name, "name"))
        return done(false);
      m.debug.emplace_back(index, std::move(name));
    }
    return true;
  }
  }
  return true;  // unknown optional kinds were filtered out by the caller
}
} // namespace

bool model::parse(const uint8_t *data, size_t size, Model &m, std::string &error) {
  m = Model();
  if (size < kHeaderSize) {
    error = "file is " + std::to_string(size) + " bytes, shorter than the 64-byte header";
    return false;
  }
  if (std::memcmp(data, "NPUMODEL", 8) != 0) {
    error = "not an npuc model file (bad magic)";
    return false;
  }
  m.major = le16(data + 8);
  m.minor = le16(data + 10);
  if (m.major != kMajor) {
    error = "unsupported format version " + std::to_string(m.major) + "." +
            std::to_string(m.minor) + " (this reader supports major version " +
            std::to_string(kMajor) + ")";
    return false;
  }
  if (le32(data + 12) != kHeaderSize) {
    error = "header size " + std::to_string(le32(data + 12)) + " is not 64";
    return false;
  }
  uint64_t fileSize = le64(data + 16);
  if (fileSize != size) {
    error = "header says the file has " + hex0x(fileSize) + " bytes, but it has " + hex0x(size);
    return false;
  }
  if (size % kAlign) {
    error = "file size " + hex0x(size) + " is not a multiple of 64";
    return false;
  }
  m.targetHash = le64(data + 24);
  const char *name = reinterpret_cast<const char *>(data + 32);
  size_t nameLen = strnlen(name, 16);
  if (nameLen == 16) {
    error = "target name is not NUL-terminated";
    return false;
  }
  m.targetName.assign(name, nameLen);
  for (size_t i = nameLen; i < 16; ++i)
    if (name[i]) {
      error = "target name padding is not zero";
      return false;
    }
  const target::TargetInfo *t = target::lookupTarget(m.targetName);
  if (!t) {
    error = "unknown target '" + m.targetName + "' (known: " + target::targetNames() + ")";
    return false;
  }
  if (t->hash() != m.targetHash) {
    error = "target '" + m.targetName + "' hash " + hex0x(m.targetHash) +
            " does not match this build's description of it (" + hex0x(t->hash()) +
            "): the file was built for another revision of the target or ISA";
    return false;
  }
  uint32_t count = le32(data + 48), tableOffset = le32(data + 52);
  if (count > kMaxSections) {
    error = "section count " + std::to_string(count) + " exceeds " + std::to_string(kMaxSections);
    return false;
  }
  if (tableOffset != kHeaderSize) {
    error = "section table offset " + hex0x(tableOffset) + " is not 0x40";
    return false;
  }
  uint64_t tableEnd = kHeaderSize + uint64_t(count) * kEntrySize;
  if (tableEnd > size) {
    error = "section table (" + std::to_string(count) + " entries) exceeds file size " + hex0x(size);
    return false;
  }
  uint64_t cursor = tableEnd;  // end of what has been laid out so far
  std::vector<bool> seen(8, false);
  std::vector<uint32_t> kinds;
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t *e = data + kHeaderSize + i * kEntrySize;
    SectionInfo s{le32(e), le32(e + 4), le64(e + 8), le64(e + 16), le32(e + 24)};
    std::string what = "section " + std::to_string(i) + " (" + sectionName(s.kind) + ")";
    if (s.flags & ~1u || le32(e + 28) != 0) {
      error = what + ": reserved flags or bytes are set";
      return false;
    }
    if (s.alignment != kAlign || s.offset % kAlign) {
      error = what + ": offset " + hex0x(s.offset) + " or alignment " +
              std::to_string(s.alignment) + " violates the 64-byte alignment";
      return false;
    }
    if (s.offset > size || s.size > size - s.offset) {
      error = what + ": offset " + hex0x(s.offset) + " + size " + hex0x(s.size) +
              " exceeds file size " + hex0x(size);
      return false;
    }
    if (s.offset < cursor) {
      error = what + ": offset " + hex0x(s.offset) + " overlaps the previous section or table (ends at " +
              hex0x(cursor) + ")";
      return false;
    }
    for (uint64_t b = cursor; b < s.offset; ++b)
      if (data[b]) {
        error = "padding byte at " + hex0x(b) + " before " + what + " is not zero";
        return false;
      }
    cursor = s.offset + s.size;
    bool known = s.kind >= 1 && s.kind <= 7;
    if (containsKind(kinds, s.kind)) {
      error = what + ": a second section of this kind";
      return false;
    }
    if (!known && (s.flags & 1)) {
      error = what + ": unknown required section kind " + std::to_string(s.kind) +
              " (written by a newer npuc?)";
      return false;
    }
    if (known)
      seen[s.kind] = true;
    kinds.push_back(s.kind);
    m.sections.push_back(s);
  }
  for (uint64_t b = cursor; b < size; ++b)
    if (data[b]) {
      error = "padding byte at " + hex0x(b) + " after the last section is not zero";
      return false;
    }
  std::string_view payload(reinterpret_cast<const char *>(data) + kHeaderSize, size - kHeaderSize);
  if (fnv1a64(payload) != le64(data + 56)) {
    error = "checksum mismatch: header says " + hex0x(le64(data + 56)) + ", payload has " +
            hex0x(fnv1a64(payload));
    return false;
  }
  for (SectionKind required : {SectionKind::Code, SectionKind::Constants, SectionKind::Tensors})
    if (!seen[uint32_t(required)]) {
      error = std::string("missing required section '") + sectionName(uint32_t(required)) + "'";
      return false;
    }
  // Constants before luts; tensors carry the region sizes.
  for (uint32_t kind : {1u, 2u, 4u, 3u, 5u, 6u, 7u})
    for (size_t i = 0; i < m.sections.size(); ++i)
      if (m.sections[i].kind == kind && !parseSection(data, m.sections[i], i, m, error))
        return false;
  for (const SectionInfo &s : m.sections)
    if (s.kind < 1 || s.kind > 7)
      m.skippedKinds.push_back(s.kind);
  return true;
}
