//===- TensorFile.h - .npy and ONNX TensorProto files -----------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Host tensors for npu-sim's inputs and outputs: numpy .npy (format 1.0-3.0,
// little endian, C order) and ONNX TensorProto .pb files, parsed from the wire
// format directly (no protobuf dependency in the base layer).
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_BASE_TENSORFILE_H
#define NPUC_BASE_TENSORFILE_H

#include "npuc/Base/ModelFile.h"

#include <functional>
#include <string>
#include <vector>

namespace npuc {

struct HostTensor {
  std::string name;  // from a TensorProto, else empty
  model::DType dtype = model::DType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;  // row-major, little endian

  uint64_t numElements() const;
  /// "int8[1,3,224,224]".
  std::string describe() const;
};

bool parseNpy(const uint8_t *p, size_t n, HostTensor &t, std::string &error);
bool parseTensorProto(const uint8_t *p, size_t n, HostTensor &t, std::string &error);
/// Reads a .npy or .pb file, recognizing the format by its content.
bool readTensorFile(const std::string &path, HostTensor &t, std::string &error);
std::vector<uint8_t> serializeNpy(const HostTensor &t);

/// A host tensor of `t`'s boundary type as `t`'s storage elements, in
/// logical order (docs/model-format.md, "Boundary types"): bool as 0/1
/// bytes, uint16 widened, int64 and uint32 narrowed to int32. False, with
/// the element, its value and the tensor's name in `error`, for a value
/// int32 cannot hold.
bool narrowToStorage(const model::TensorDesc &t, const HostTensor &in, std::vector<uint8_t> &out,
                     std::string &error);
/// The reverse, for an output: storage elements in logical order to the
/// boundary type; False when a value does not fit it (a negative uint32).
bool widenFromStorage(const model::TensorDesc &t, const std::vector<uint8_t> &in, HostTensor &out,
                      std::string &error);

/// Calls fn(byte offset) for each logical element of `t` in row-major order:
/// offset + sum(i_j * strides_j), whatever the physical layout (padded
/// pitches, transposing strides, channel blocks, broadcast zero strides).
void forEachElement(const model::TensorDesc &t, const std::function<void(uint64_t)> &fn);

/// The tensor `t` describes, read in logical order from its region's bytes.
/// False with `error` when it does not lie inside the region.
bool gatherTensor(const model::TensorDesc &t, const std::vector<uint8_t> &region, HostTensor &out,
                  std::string &error);

} // namespace npuc

#endif
