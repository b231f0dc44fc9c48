//===- npu-model-fuzzer.cpp - libFuzzer target for the model reader -------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Built with clang++-22 -fsanitize=fuzzer,address,undefined (see CMakeLists).
// Every input must be either accepted or rejected with a message; the
// sanitizers turn any out-of-bounds read or undefined behaviour into a crash.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/ModelFile.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  npuc::model::Model m;
  std::string error;
  bool ok = npuc::model::parse(data, size, m, error);
  if (!ok && error.empty())
    std::abort();
  if (ok) {
    // An accepted file re-serializes to a file that is accepted again.
    std::vector<uint8_t> again = npuc::model::serialize(m);
    npuc::model::Model m2;
    if (!npuc::model::parse(again.data(), again.size(), m2, error))
      std::abort();
  }
  return 0;
}
