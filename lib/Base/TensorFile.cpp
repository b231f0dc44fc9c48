//===- TensorFile.cpp - .npy and ONNX TensorProto files -------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/TensorFile.h"
#include "npuc/Base/Numerics.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

using namespace npuc;
using model::DType;

uint64_t HostTensor::numElements() const {
  uint64_t n = 1;
  for (int64_t d : shape)
    n *= uint64_t(d);
  return n;
}

std::string HostTensor::describe() const {
  std::string s = std::string(model::dtypeName(dtype)) + "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

namespace {
bool checkedCount(const std::vector<int64_t> &shape, DType dtype, uint64_t &bytes,
                  std::string &error) {
  unsigned __int128 n = model::dtypeBytes(dtype);
  for (int64_t d : shape) {
    if (d < 0) {
      error = "negative dimension " + std::to_string(d);
      return false;
    }
    n *= uint64_t(d);
    if (n > (unsigned __int128)(uint64_t(1) << 40)) {
      error = "tensor larger than 1 TiB";
      return false;
    }
  }
  bytes = uint64_t(n);
  return true;
}

const struct {
  const char *descr;
  DType dtype;
} kNpyTypes[] = {{"|i1", DType::I8},   {"|u1", DType::U8},  {"<i2", DType::I16},
                 {"<i4", DType::I32},  {"<f2", DType::F16}, {"<f4", DType::F32},
                 {"|b1", DType::Bool}, {"<i8", DType::I64}, {"<u2", DType::U16},
                 {"<u4", DType::U32},  {"<f8", DType::F64}, {"i1", DType::I8},
                 {"u1", DType::U8},    {"b1", DType::Bool}};

/// The value of `key` in a numpy header dict, e.g. 'descr': '<f4'.
std::string headerValue(const std::string &h, const std::string &key) {
  size_t k = h.find("'" + key + "'");
  if (k == std::string::npos)
    return "";
  size_t colon = h.find(':', k);
  if (colon == std::string::npos)
    return "";
  size_t start = h.find_first_not_of(' ', colon + 1);
  if (start == std::string::npos)
    return "";
  char open = h[start];
  char close = open == '\'' ? '\'' : open == '(' ? ')' : ',';
  size_t end = h.find(close, start + 1);
  if (end == std::string::npos)
    return "";
  return open == '\'' || open == '(' ? h.substr(start + 1, end - start - 1)
                                     : h.substr(start, end - start);
}
} // namespace

bool npuc::parseNpy(const uint8_t *p, size_t n, HostTensor &t, std::string &error) {
  if (n < 10 || std::memcmp(p, "\x93NUMPY", 6) != 0) {
    error = "not a .npy file";
    return false;
  }
  uint8_t major = p[6];
  size_t headerLen, start;
  if (major == 1) {
    headerLen = p[8] | (p[9] << 8);
    start = 10;
  } else if (major == 2 || major == 3) {
    if (n < 12) {
      error = "truncated .npy header";
      return false;
    }
    headerLen = uint32_t(p[8] | (p[9] << 8) | (p[10] << 16) | (uint32_t(p[11]) << 24));
    start = 12;
  } else {
    error = ".npy format version " + std::to_string(major) + " is not supported";
    return false;
  }
  if (headerLen > n - start) {
    error = "truncated .npy header";
    return false;
  }
  std::string h(reinterpret_cast<const char *>(p + start), headerLen);
  std::string descr = headerValue(h, "descr"), order = headerValue(h, "fortran_order");
  bool found = false;
  for (const auto &e : kNpyTypes)
    if (descr == e.descr) {
      t.dtype = e.dtype;
      found = true;
    }
  if (!found) {
    error = ".npy element type '" + descr + "' is not supported (int8, uint8, int16, int32, "
            "float16, float32, bool, int64, uint16, uint32, float64, little endian)";
    return false;
  }
  if (order != "False") {
    error = ".npy file is not in C order";
    return false;
  }
  std::string shape = headerValue(h, "shape");
  t.shape.clear();
  size_t i = 0;
  while (i < shape.size()) {
    while (i < shape.size() && (shape[i] == ' ' || shape[i] == ','))
      ++i;
    if (i == shape.size())
      break;
    size_t j = i;
    while (j < shape.size() && shape[j] >= '0' && shape[j] <= '9')
      ++j;
    if (j == i || j - i > 15) {
      error = ".npy shape '(" + shape + ")' is malformed";
      return false;
    }
    t.shape.push_back(std::stoll(shape.substr(i, j - i)));
    i = j;
  }
  uint64_t bytes;
  if (!checkedCount(t.shape, t.dtype, bytes, error))
    return false;
  size_t dataStart = start + headerLen;
  if (n - dataStart != bytes) {
    error = ".npy data has " + std::to_string(n - dataStart) + " bytes, expected " +
            std::to_string(bytes) + " for " + t.describe();
    return false;
  }
  t.data.assign(p + dataStart, p + n);
  return true;
}

namespace {
struct Wire {
  const uint8_t *p;
  size_t n, pos = 0;
  bool varint(uint64_t &v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= n)
        return false;
      uint8_t b = p[pos++];
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80))
        return true;
    }
    return false;
  }
  bool bytes(const uint8_t *&data, size_t &len) {
    uint64_t l;
    if (!varint(l) || l > n - pos)
      return false;
    data = p + pos;
    len = size_t(l);
    pos += len;
    return true;
  }
};
} // namespace

bool npuc::parseTensorProto(const uint8_t *p, size_t n, HostTensor &t, std::string &error) {
  Wire w{p, n};
  int64_t dataType = 0;
  const uint8_t *raw = nullptr;
  size_t rawLen = 0;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<double> doubles;
  t.shape.clear();
  auto bad = [&](const char *what) {
    error = std::string("malformed TensorProto: ") + what;
    return false;
  };
  while (w.pos < n) {
    uint64_t key;
    if (!w.varint(key))
      return bad("truncated field key");
    uint32_t field = uint32_t(key >> 3), type = uint32_t(key & 7);
    const uint8_t *data;
    size_t len;
    uint64_t v;
    if (type == 0) {
      if (!w.varint(v))
        return bad("truncated varint");
      if (field == 1)
        t.shape.push_back(int64_t(v));
      else if (field == 2)
        dataType = int64_t(v);
      else if (field == 5)
        ints.push_back(int64_t(int32_t(v)));
      else if (field == 7 || field == 11)  // int64_data, uint64_data
        ints.push_back(int64_t(v));
      else if (field == 14 && v != 0)
        return bad("external data is not supported by npu-sim inputs");
    } else if (type == 2) {
      if (!w.bytes(data, len))
        return bad("truncated length-delimited field");
      if (field == 1 || field == 5 || field == 7 || field == 11) {
        // packed dims / int32_data / int64_data / uint64_data
        Wire inner{data, len};
        while (inner.pos < len) {
          if (!inner.varint(v))
            return bad("truncated packed varint");
          if (field == 1)
            t.shape.push_back(int64_t(v));
          else
            ints.push_back(field == 5 ? int64_t(int32_t(v)) : int64_t(v));
        }
      } else if (field == 4) {  // packed float_data
        if (len % 4)
          return bad("float_data length is not a multiple of 4");
        for (size_t i = 0; i < len; i += 4) {
          float f;
          std::memcpy(&f, data + i, 4);
          floats.push_back(f);
        }
      } else if (field == 10) {  // packed double_data
        if (len % 8)
          return bad("double_data length is not a multiple of 8");
        doubles.insert(doubles.end(), len / 8, 0.0);
        std::memcpy(doubles.data() + doubles.size() - len / 8, data, len);
      } else if (field == 8) {
        t.name.assign(reinterpret_cast<const char *>(data), len);
      } else if (field == 9) {
        raw = data;
        rawLen = len;
      } else if (field == 13) {
        return bad("external data is not supported by npu-sim inputs");
      }
    } else if (type == 5) {
      if (n - w.pos < 4)
        return bad("truncated fixed32");
      if (field == 4) {
        float f;
        std::memcpy(&f, p + w.pos, 4);
        floats.push_back(f);
      }
      w.pos += 4;
    } else if (type == 1) {
      if (n - w.pos < 8)
        return bad("truncated fixed64");
      if (field == 10) {
        double d;
        std::memcpy(&d, p + w.pos, 8);
        doubles.push_back(d);
      }
      w.pos += 8;
    } else {
      return bad("unsupported wire type");
    }
  }
  // ONNX TensorProto.DataType -> storage type.
  switch (dataType) {
  case 1: t.dtype = DType::F32; break;
  case 2: t.dtype = DType::U8; break;
  case 3: t.dtype = DType::I8; break;
  case 5: t.dtype = DType::I16; break;
  case 6: t.dtype = DType::I32; break;
  case 10: t.dtype = DType::F16; break;
  case 9: t.dtype = DType::Bool; break;
  case 7: t.dtype = DType::I64; break;
  case 4: t.dtype = DType::U16; break;
  case 12: t.dtype = DType::U32; break;
  case 11: t.dtype = DType::F64; break;
  default:
    error = "TensorProto element type " + std::to_string(dataType) +
            " is not supported (float, uint8, int8, int16, int32, float16, bool, int64, "
            "uint16, uint32, double)";
    return false;
  }
  uint64_t bytes;
  if (!checkedCount(t.shape, t.dtype, bytes, error))
    return false;
  unsigned size = model::dtypeBytes(t.dtype);
  t.data.clear();
  if (raw) {
    t.data.assign(raw, raw + rawLen);
  } else if (t.dtype == DType::F32) {
    t.data.resize(floats.size() * 4);
    if (!floats.empty())
      std::memcpy(t.data.data(), floats.data(), t.data.size());
  } else if (t.dtype == DType::F64) {
    t.data.resize(doubles.size() * 8);
    if (!doubles.empty())
      std::memcpy(t.data.data(), doubles.data(), t.data.size());
  } else {
    for (int64_t v : ints)
      for (unsigned b = 0; b < size; ++b)
        t.data.push_back(uint8_t(uint64_t(v) >> (8 * b)));
  }
  if (t.data.size() != bytes) {
    error = "TensorProto holds " + std::to_string(t.data.size()) + " bytes of data, expected " +
            std::to_string(bytes) + " for " + t.describe();
    return false;
  }
  return true;
}

bool npuc::readTensorFile(const std::string &path, HostTensor &t, std::string &error) {
  std::vector<uint8_t> bytes;
  if (!model::readFile(path, bytes, error))
    return false;
  bool ok = bytes.size() >= 6 && std::memcmp(bytes.data(), "\x93NUMPY", 6) == 0
                ? parseNpy(bytes.data(), bytes.size(), t, error)
                : parseTensorProto(bytes.data(), bytes.size(), t, error);
  if (!ok)
    error = path + ": " + error;
  return ok;
}

std::vector<uint8_t> npuc::serializeNpy(const HostTensor &t) {
  static const char *const descr[] = {"|i1", "|u1", "<i2", "<i4", "<f2", "<f4",
                                      "|b1", "<i8", "<u2", "<u4", "<f8"};
  std::string h = "{'descr': '" + std::string(descr[unsigned(t.dtype)]) +
                  "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < t.shape.size(); ++i)
    h += std::to_string(t.shape[i]) + (t.shape.size() == 1 ? "," : i + 1 < t.shape.size() ? ", " : "");
  h += "), }";
  while ((10 + h.size() + 1) % 64)
    h += ' ';
  h += '\n';
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, uint8_t(h.size() & 0xff),
                              uint8_t(h.size() >> 8)};
  out.insert(out.end(), h.begin(), h.end());
  out.insert(out.end(), t.data.begin(), t.data.end());
  return out;
}

void npuc::forEachElement(const model::TensorDesc &t, const std::function<void(uint64_t)> &fn) {
  size_t rank = t.shape.size();
  std::vector<int64_t> idx(rank, 0);
  uint64_t n = t.numElements();
  for (uint64_t e = 0; e < n; ++e) {
    uint64_t off = t.offset;
    for (size_t d = 0; d < rank; ++d)
      off += uint64_t(idx[d]) * uint64_t(t.strides[d]);
    fn(off);
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < t.shape[d])
        break;
      idx[d] = 0;
    }
  }
}

bool npuc::gatherTensor(const model::TensorDesc &t, const std::vector<uint8_t> &region,
                        HostTensor &out, std::string &error) {
  if (t.offset + t.spanBytes() > region.size()) {
    error = "'" + t.name + "' spans [" + std::to_string(t.offset) + ", " +
            std::to_string(t.offset + t.spanBytes()) + ") of a " + std::to_string(region.size()) +
            "-byte region";
    return false;
  }
  out.name = t.name;
  out.dtype = t.dtype;
  out.shape = t.shape;
  out.data.clear();
  unsigned size = model::dtypeBytes(t.dtype);
  out.data.reserve(t.numElements() * size);
  forEachElement(t, [&](uint64_t off) {
    out.data.insert(out.data.end(), region.begin() + long(off), region.begin() + long(off + size));
  });
  return true;
}

bool npuc::narrowToStorage(const model::TensorDesc &t, const HostTensor &in,
                           std::vector<uint8_t> &out, std::string &error) {
  DType host = t.hostType(), st = t.dtype;
  unsigned hb = model::dtypeBytes(host), sb = model::dtypeBytes(st);
  uint64_t n = in.numElements();
  out.assign(n * sb, 0);
  if (host == st) {
    out = in.data;
    return true;
  }
  if (host == DType::F64) {
    // float64 is computed in float32: rounded to nearest; a finite value
    // float32 cannot hold is refused, not made infinite.
    for (uint64_t i = 0; i < n; ++i) {
      double d;
      std::memcpy(&d, in.data.data() + i * 8, 8);
      if (std::isfinite(d) && std::fabs(d) > double(std::numeric_limits<float>::max())) {
        char text[32];
        std::snprintf(text, sizeof(text), "%.9g", d);
        error = "element " + std::to_string(i) + " = " + text + " of float64 tensor '" + t.name +
                "' is outside float32, the type it is computed in on the NPU";
        return false;
      }
      float f = float(d);
      std::memcpy(out.data() + i * 4, &f, 4);
    }
    return true;
  }
  for (uint64_t i = 0; i < n; ++i) {
    int64_t v = 0;
    const uint8_t *p = in.data.data() + i * hb;
    for (unsigned b = 0; b < hb; ++b)
      v |= int64_t(uint64_t(p[b]) << (8 * b));
    if (host == DType::I64 || host == DType::U32) {
      // int64 and uint32 ids, indices and counts are narrowed to int32.
      if (host == DType::U32)
        v = int64_t(uint32_t(v));
      if (v < INT32_MIN || v > INT32_MAX) {
        error = "element " + std::to_string(i) + " = " + std::to_string(v) + " of " +
                model::dtypeName(host) + " tensor '" + t.name +
                "' is outside int32, the type it is narrowed to on the NPU";
        return false;
      }
    } else if (host == DType::Bool) {
      v = v != 0;
    } else if (host == DType::U16) {
      v = int64_t(uint16_t(v));
    }
    for (unsigned b = 0; b < sb; ++b)
      out[i * sb + b] = uint8_t(uint64_t(v) >> (8 * b));
  }
  return true;
}

bool npuc::widenFromStorage(const model::TensorDesc &t, const std::vector<uint8_t> &in,
                            HostTensor &out, std::string &error) {
  DType host = t.hostType(), st = t.dtype;
  out.dtype = host;
  if (host == st) {
    out.data = in;
    return true;
  }
  unsigned hb = model::dtypeBytes(host), sb = model::dtypeBytes(st);
  uint64_t n = in.size() / sb;
  out.data.assign(n * hb, 0);
  if (host == DType::F64) {  // float32 widens exactly
    for (uint64_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, in.data() + i * 4, 4);
      double d = f;
      std::memcpy(out.data.data() + i * 8, &d, 8);
    }
    return true;
  }
  for (uint64_t i = 0; i < n; ++i) {
    const uint8_t *p = in.data() + i * sb;
    int64_t v = sb == 1 ? int64_t(int8_t(p[0]))
                        : int64_t(int32_t(uint32_t(p[0]) | uint32_t(p[1]) << 8 |
                                          uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24));
    int64_t lo = host == DType::I64 ? INT64_MIN : 0;
    int64_t hi = host == DType::Bool ? 1 : host == DType::U16 ? 65535 : INT64_MAX;
    if (v < lo || v > hi) {
      error = "element " + std::to_string(i) + " = " + std::to_string(v) + " of output '" +
              t.name + "' does not fit its type " + model::dtypeName(host);
      return false;
    }
    for (unsigned b = 0; b < hb; ++b)
      out.data[i * hb + b] = uint8_t(uint64_t(v) >> (8 * b));
  }
  return true;
}
