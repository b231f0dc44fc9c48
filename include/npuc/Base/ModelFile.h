//===- ModelFile.h - The npuc model file (docs/model-format.md) -*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Writer primitives and the one reader/validator that every consumer uses.
// Base layer: no MLIR, no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_BASE_MODELFILE_H
#define NPUC_BASE_MODELFILE_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace npuc::model {

inline constexpr uint16_t kMajor = 1;
inline constexpr uint16_t kMinor = 3;  // the newest this reader knows
inline constexpr uint32_t kHeaderSize = 64;
inline constexpr uint32_t kEntrySize = 32;
inline constexpr uint32_t kAlign = 64;
inline constexpr uint32_t kMaxSections = 64;

enum class SectionKind : uint32_t {
  Code = 1, Constants = 2, Luts = 3, Tensors = 4, Provenance = 5, Debug = 6, Values = 7
};
/// "code", "constants", ...; "unknown" for other kinds.
const char *sectionName(uint32_t kind);

/// Element types. The first six are storage types, what a region holds;
/// Bool, I64, U16 and U32 exist only at the boundary (format 1.2): a host
/// tensor of such a type is stored as I8 0/1 (Bool) or I32 (the others),
/// converted on binding (narrowToStorage, TensorFile.h); F64 (format 1.3)
/// likewise, stored as F32.
enum class DType : uint8_t { I8, U8, I16, I32, F16, F32, Bool, I64, U16, U32, F64 };
inline constexpr unsigned kNumDTypes = 6;       // storage types
inline constexpr unsigned kNumHostDTypes = 11;  // and the boundary-only ones
unsigned dtypeBytes(DType t);
/// numpy-style names: int8, uint8, int16, int32, float16, float32, bool,
/// int64, uint16, uint32, float64.
const char *dtypeName(DType t);
/// The storage type a boundary type is held in (itself for a storage type).
DType storageOf(DType host);

enum class Role : uint8_t { Input, Output, State, Value };
enum class Quant : uint8_t { None, PerTensor, PerAxis };

struct TensorDesc {
  Role role = Role::Input;
  DType dtype = DType::F32;  // the storage type, in the region
  /// The type the host binds when it is not `dtype` (format 1.2): Bool over
  /// I8, I64, U16 or U32 over I32; F64 over F32 (format 1.3).
  std::optional<DType> boundary;
  DType hostType() const { return boundary.value_or(dtype); }
  uint8_t region = 2;  // isa::Region
  std::string name;
  uint64_t offset = 0;
  std::vector<int64_t> shape, strides;  // strides in bytes
  Quant quant = Quant::None;
  int32_t axis = -1;
  std::vector<float> scales;
  std::vector<int32_t> zeroPoints;

  uint64_t numElements() const;
  /// One past the last byte addressed, relative to `offset`.
  uint64_t spanBytes() const;
};

/// A graph value the program materializes (the values section, format 1.1):
/// its layout in a GM region (`t.role` Value, `t.region` ARENA, INPUT or
/// OUTPUT), the ONNX node that produced it, and the instruction after whose
/// execution it is complete (kFromStart: a graph input, there from the start).
struct ValueDesc {
  static constexpr uint32_t kFromStart = 0xffffffffu;
  TensorDesc t;
  std::string node;
  uint32_t after = kFromStart;
};

struct LutDesc {
  uint64_t offset = 0;  // in the constants
  uint32_t entries = 0;
};

struct SectionInfo {
  uint32_t kind = 0, flags = 0;
  uint64_t offset = 0, size = 0;
  uint32_t alignment = 0;
};

struct Model {
  /// As read; the writer writes kMajor and formatMinor().
  uint16_t major = kMajor, minor = kMinor;
  std::string targetName;
  uint64_t targetHash = 0;
  std::vector<uint8_t> code;  // whole 16-byte words
  std::vector<uint8_t> constants;
  std::vector<LutDesc> luts;
  uint64_t arenaSize = 0, inputSize = 0, outputSize = 0, stateSize = 0;
  std::vector<TensorDesc> tensors;
  std::vector<std::pair<std::string, std::string>> provenance;
  std::vector<std::pair<uint32_t, std::string>> debug;
  std::vector<ValueDesc> values;

  // Set by the reader.
  std::vector<SectionInfo> sections;
  std::vector<uint32_t> skippedKinds;  // unknown optional sections

  std::vector<const TensorDesc *> tensorsWithRole(Role role) const;
};

/// The ONNX node(s) instruction `index` comes from, by the debug records (the
/// last record at or before it): one name, or several, one per line, for an
/// op fused from several nodes; empty when none.
const std::string &debugNodes(const Model &m, uint64_t index);

/// "a, b" for the lines of `nodes` (debugNodes), for display.
std::string joinedNodes(const std::string &nodes);

/// The minor version `m` needs, the lowest whose features it uses: 3 with
/// a float64 boundary tensor or an empty input or output, else 2 (so that the files of earlier formats'
/// features keep their bytes).
uint16_t formatMinor(const Model &m);

/// The file's bytes; the same model always gives the same bytes.
std::vector<uint8_t> serialize(const Model &m);

/// A file as consecutive pieces: header, tables and small sections in
/// `owned`, code and constants by reference into the model (which must
/// outlive it), so a large file is written without a second copy of them.
struct Pieces {
  std::vector<std::vector<uint8_t>> owned;
  std::vector<std::pair<const uint8_t *, size_t>> parts;
};
/// The pieces of serialize(m): their concatenation is its bytes.
Pieces serializePieces(const Model &m);

/// Writes `bytes` to a temporary file in the destination's directory, flushes
/// it and renames it over `path`: a reader never sees a partial file, and on
/// failure nothing is left behind.
bool writeFileAtomically(const std::string &path, const std::vector<uint8_t> &bytes,
                         std::string &error);
bool writeFileAtomically(const std::string &path, const Pieces &pieces, std::string &error);
/// Whether a file can be written at `path`, checked before work is spent:
/// not a directory, in a directory that exists and is writable. False with a
/// precise `error` ("cannot write 'd/x.bin': directory 'd' does not exist").
bool checkWritable(const std::string &path, std::string &error);
/// writeFileAtomically, or standard output when `path` is "-".
bool writeFileOrStdout(const std::string &path, const std::vector<uint8_t> &bytes,
                       std::string &error);
bool writeFileOrStdout(const std::string &path, const Pieces &pieces, std::string &error);
/// Reads a whole regular file; a directory or an unreadable path is an error
/// naming it.
bool readFile(const std::string &path, std::vector<uint8_t> &bytes, std::string &error);

/// For a parse error that says the file is not a model file at all (bad
/// magic): a hint that an ONNX model is compiled first; else "".
std::string notAModelHint(const std::string &parseError);

/// Validates and decodes a model file. On failure returns false with a precise
/// `error`; `out` then holds everything read before the failure.
bool parse(const uint8_t *data, size_t size, Model &out, std::string &error);

} // namespace npuc::model

#endif
