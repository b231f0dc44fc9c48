//===- TensorData.cpp - ONNX tensors as attributes ------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The data of a TensorProto (initializers, Constant values, --bind-input
// files) as a DenseElementsAttr: raw data, typed fields, or external data
// confined to the model's directory; element types, sizes and byte counts
// checked before anything is allocated.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "npuc/Base/ModelFile.h"
#include "npuc/Base/TensorFile.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace mlir;
using namespace npuc;
using namespace npuc::onnx_import;
namespace fs = std::filesystem;

std::optional<Type> Importer::elementType(int32_t t) {
  switch (t) {
  case onnx::TensorProto::FLOAT: return b.getF32Type();
  case onnx::TensorProto::FLOAT16: return b.getF16Type();
  case onnx::TensorProto::DOUBLE:
    // NPU-v1 has no float64 arithmetic: float64 values are computed in
    // float32; graph inputs and outputs keep float64 at the boundary.
    if (!options.float64AsFloat32)
      return std::nullopt;
    if (float64At.empty())
      float64At.push_back("");
    return b.getF32Type();
  case onnx::TensorProto::BFLOAT16: return b.getBF16Type();
  case onnx::TensorProto::INT8: return b.getIntegerType(8);
  case onnx::TensorProto::INT16: return b.getIntegerType(16);
  case onnx::TensorProto::INT32: return b.getIntegerType(32);
  case onnx::TensorProto::INT64: return b.getIntegerType(64);
  case onnx::TensorProto::UINT8: return b.getIntegerType(8, false);
  case onnx::TensorProto::UINT16: return b.getIntegerType(16, false);
  case onnx::TensorProto::UINT32: return b.getIntegerType(32, false);
  case onnx::TensorProto::UINT64: return b.getIntegerType(64, false);
  case onnx::TensorProto::BOOL: return b.getI1Type();
  default: return std::nullopt;
  }
}

std::string Importer::float64Hint(int32_t t) const {
  return t == onnx::TensorProto::DOUBLE && !options.float64AsFloat32
             ? " (--float64=refuse; without it, float64 is computed in float32)"
             : "";
}

const char *npuc::onnx_import::typeName(int32_t t) {
  // The types ONNX added after the libonnx npuc builds with (1.12), as
  // onnx.proto numbers them: none has an NPU storage type.
  static const char *const newer[] = {"FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2",
                                      "FLOAT8E5M2FNUZ", "UINT4",          "INT4",
                                      "FLOAT4E2M1",     "FLOAT8E8M0",     "UINT2",
                                      "INT2"};
  if (onnx::TensorProto_DataType_IsValid(t))
    return onnx::TensorProto_DataType_Name(onnx::TensorProto_DataType(t)).c_str();
  if (t >= 17 && t < 17 + int32_t(std::size(newer)))
    return newer[t - 17];
  return "invalid";
}

namespace {
/// Reads external data confined to the model's directory.
bool readExternal(Importer &imp, const onnx::TensorProto &t, const onnx::NodeProto *node,
                  uint64_t bytes, std::vector<char> &out) {
  std::string location;
  uint64_t offset = 0, length = bytes;
  bool hasLength = false;
  for (const onnx::StringStringEntryProto &e : t.external_data()) {
    if (e.key() == "location")
      location = e.value();
    else if (e.key() == "offset" || e.key() == "length") {
      char *end = nullptr;
      unsigned long long v = std::strtoull(e.value().c_str(), &end, 10);
      if (e.value().empty() || *end || e.value()[0] == '-') {
        imp.report(code::ExternalData, node, 0,
                   "tensor '" + t.name() + "': external data " + e.key() + " '" + e.value() +
                       "' is not a non-negative integer");
        return false;
      }
      (e.key() == "offset" ? offset : length) = v;
      hasLength |= e.key() == "length";
    }
  }
  auto fail = [&](const std::string &why) {
    imp.report(code::ExternalData, node, 0, "tensor '" + t.name() + "': " + why);
    return false;
  };
  fs::path rel(location);
  if (location.empty())
    return fail("external data has no location");
  if (rel.is_absolute())
    return fail("external data location '" + location + "' is absolute; it must be relative "
                "to the model's directory");
  for (const fs::path &part : rel)
    if (part == "..")
      return fail("external data location '" + location + "' leaves the model's directory");
  std::error_code ec;
  fs::path base = fs::weakly_canonical(imp.dir, ec);
  fs::path file = fs::weakly_canonical(fs::path(imp.dir) / rel, ec);
  if (ec || !fs::exists(file))
    return fail("external data file '" + location + "' does not exist");
  if (!fs::is_regular_file(file, ec))
    return fail("external data location '" + location + "' is not a regular file");
  auto [mismatch, _] = std::mismatch(base.begin(), base.end(), file.begin(), file.end());
  if (mismatch != base.end())
    return fail("external data file '" + location + "' resolves outside the model's directory "
                "(through a symbolic link)");
  uint64_t size = fs::file_size(file, ec);
  if (ec || offset > size || length > size - offset)
    return fail("external data [" + std::to_string(offset) + ", +" + std::to_string(length) +
                ") exceeds '" + location + "' (" + std::to_string(size) + " bytes)");
  if (hasLength && length != bytes)
    return fail("external data length " + std::to_string(length) + " does not match the " +
                std::to_string(bytes) + " bytes of the tensor");
  std::ifstream in(file, std::ios::binary);
  out.resize(bytes);
  in.seekg(std::streamoff(offset));
  in.read(out.data(), std::streamsize(bytes));
  if (!in)
    return fail("cannot read external data from '" + location + "'");
  return true;
}
} // namespace

bool Importer::readBoundTensor(const std::string &file, onnx::TensorProto &t) {
  std::vector<uint8_t> data;
  std::string error;
  if (!model::readFile(file, data, error)) {
    report(code::BadInputShape, nullptr, 0, "--bind-input: " + error);
    return false;
  }
  std::string bytes(data.begin(), data.end());
  if (bytes.compare(0, 6, "\x93NUMPY") == 0) {
    HostTensor h;
    std::string error;
    if (!parseNpy(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(), h, error)) {
      report(code::BadInputShape, nullptr, 0, "--bind-input: '" + file + "': " + error);
      return false;
    }
    // model::DType order: storage types, then the boundary-only ones.
    static const int32_t onnxType[] = {3, 2, 5, 6, 10, 1, 9, 7, 4, 12, 11};
    static_assert(std::size(onnxType) == model::kNumHostDTypes, "one ONNX type per DType");
    t.set_data_type(onnxType[unsigned(h.dtype)]);
    for (int64_t d : h.shape)
      t.add_dims(d);
    t.set_raw_data(std::string(h.data.begin(), h.data.end()));
    return true;
  }
  if (!t.ParseFromString(bytes)) {
    report(code::BadInputShape, nullptr, 0, "--bind-input: '" + file + "' is neither a .npy file nor a TensorProto");
    return false;
  }
  return true;
}

DenseElementsAttr Importer::tensorData(const onnx::TensorProto &t, const onnx::NodeProto *node) {
  std::optional<Type> element = elementType(t.data_type());
  if (!element || element->isBF16()) {
    report(code::UnsupportedType, node, 0,
           "tensor '" + t.name() + "' has unsupported element type " + typeName(t.data_type()) +
               float64Hint(t.data_type()));
    return {};
  }
  // float64 data is read as it is stored, then rounded to the float32 the
  // graph computes it in.
  bool isDouble = t.data_type() == onnx::TensorProto::DOUBLE;
  Type computed = *element;
  if (isDouble) {
    element = b.getF64Type();
    float64At.push_back("tensor '" + t.name() + "'");
  }
  SmallVector<int64_t> shape(t.dims().begin(), t.dims().end());
  auto count = graph::shapes::numElements(shape);
  if (!count) {
    report(code::Overflow, node, 0, "tensor '" + t.name() + "': " + llvm::toString(count.takeError()));
    return {};
  }
  // The limit applies to the extent (zero dimensions as 1), so that an empty
  // initializer's other dimensions cannot overflow products either.
  auto extent = graph::shapes::extent(shape);
  if (!extent) {
    report(code::Overflow, node, 0, "tensor '" + t.name() + "': " + llvm::toString(extent.takeError()));
    return {};
  }
  auto type = RankedTensorType::get(shape, *element);
  unsigned width = element->getIntOrFloatBitWidth();
  uint64_t bytes = element->isInteger(1) ? uint64_t(*count) : uint64_t(*count) * (width / 8);
  if (uint64_t(*extent) > (uint64_t(1) << 34) / std::max(1u, width / 8)) {
    report(code::Overflow, node, 0, "tensor '" + t.name() + "' spans more than 16 GiB");
    return {};
  }
  std::vector<char> raw;
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    if (!readExternal(*this, t, node, bytes, raw))
      return {};
  } else if (t.has_raw_data()) {
    if (t.raw_data().size() != bytes) {
      report(code::Read, node, 0,
             "tensor '" + t.name() + "' holds " + std::to_string(t.raw_data().size()) +
                 " bytes of raw data, expected " + std::to_string(bytes));
      return {};
    }
    raw.assign(t.raw_data().begin(), t.raw_data().end());
  } else {
    // Typed fields: the count is checked before the buffer is sized by the
    // dims (a hostile shape over a few values must not allocate gigabytes),
    // then the values widen into little-endian raw bytes.
    bool f32 = element->isF32(), f64 = element->isF64();
    bool i64 = element->isInteger(64) && !element->isUnsignedInteger();
    bool u64 = element->isUnsignedInteger(32) || element->isUnsignedInteger(64);
    int64_t have = f32   ? t.float_data_size()
                   : f64 ? t.double_data_size()
                   : i64 ? t.int64_data_size()
                   : u64 ? t.uint64_data_size()
                         : t.int32_data_size();
    if (uint64_t(have) != uint64_t(*count)) {
      report(code::Read, node, 0,
             "tensor '" + t.name() + "' holds " + std::to_string(have) + " values, expected " +
                 std::to_string(*count));
      return {};
    }
    raw.resize(bytes);
    unsigned n = element->isInteger(1) ? 1 : width / 8;
    for (int i = 0; i < have; ++i) {
      uint64_t v;
      if (f32) {
        uint32_t u;
        float f = t.float_data(i);
        std::memcpy(&u, &f, 4);
        v = u;
      } else if (f64) {
        double d = t.double_data(i);
        std::memcpy(&v, &d, 8);
      } else {
        v = i64 ? uint64_t(t.int64_data(i)) : u64 ? t.uint64_data(i) : uint64_t(uint32_t(t.int32_data(i)));
      }
      for (unsigned k = 0; k < n; ++k)
        raw[uint64_t(i) * n + k] = char(v >> (8 * k));
    }
  }
  if (element->isInteger(1)) {
    SmallVector<bool> bits;
    for (char c : raw)
      bits.push_back(c != 0);
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  if (isDouble) {
    std::vector<float> values(static_cast<size_t>(*count));
    for (size_t i = 0; i < values.size(); ++i) {
      double d;
      std::memcpy(&d, raw.data() + 8 * i, 8);
      if (std::isfinite(d) && std::fabs(d) > double(std::numeric_limits<float>::max())) {
        char text[32];
        std::snprintf(text, sizeof(text), "%.9g", d);
        report(code::UnsupportedType, node, 0,
               "float64 tensor '" + t.name() + "' holds " + text + " at element " +
                   std::to_string(i) + ", outside float32, the type float64 is computed in on the NPU");
        return {};
      }
      values[i] = float(d);
    }
    return DenseElementsAttr::get(RankedTensorType::get(shape, computed), ArrayRef<float>(values));
  }
  return DenseElementsAttr::getFromRawBuffer(type, ArrayRef<char>(raw));
}
