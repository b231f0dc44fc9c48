// Runs a compiled model file on the bit-exact simulator of the installed
// runtime: run-model MODEL.bin OUTDIR INPUT.pb... prints "cycles: N" and
// writes OUTDIR/output_K.npy (f32 outputs), as npu-sim does.
#include "npuc/Base/ModelFile.h"
#include "npuc/Base/Target.h"
#include "npuc/Base/TensorFile.h"
#include "npuc/Sim/Simulator.h"

#include <cstring>
#include <iostream>

using namespace npuc;

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: run-model MODEL.bin OUTDIR INPUT...\n";
    return 2;
  }
  std::vector<uint8_t> bytes;
  std::string error;
  model::Model m;
  if (!model::readFile(argv[1], bytes, error) || !model::parse(bytes.data(), bytes.size(), m, error)) {
    std::cerr << "run-model: " << error << "\n";
    return 1;
  }
  const target::TargetInfo *target = target::lookupTarget(m.targetName);
  if (!target) {
    std::cerr << "run-model: unknown target " << m.targetName << "\n";
    return 1;
  }
  sim::Simulator simulator(m, *target);
  std::vector<const model::TensorDesc *> ins = m.tensorsWithRole(model::Role::Input);
  if (size_t(argc - 3) != ins.size()) {
    std::cerr << "run-model: the model has " << ins.size() << " inputs\n";
    return 2;
  }
  for (size_t k = 0; k < ins.size(); ++k) {
    HostTensor t;
    std::vector<uint8_t> stored;
    if (!readTensorFile(argv[k + 3], t, error) || !narrowToStorage(*ins[k], t, stored, error)) {
      std::cerr << "run-model: " << error << "\n";
      return 1;
    }
    unsigned size = model::dtypeBytes(ins[k]->dtype);
    const uint8_t *src = stored.data();
    forEachElement(*ins[k], [&](uint64_t off) {
      std::memcpy(simulator.region(isa::Region::INPUT).data() + off, src, size);
      src += size;
    });
  }
  std::string fault;
  if (!simulator.run(fault)) {
    std::cerr << "run-model: fault: " << fault << "\n";
    return 3;
  }
  std::cout << "cycles: " << simulator.stats().cycles << "\n";
  std::vector<const model::TensorDesc *> outs = m.tensorsWithRole(model::Role::Output);
  for (size_t k = 0; k < outs.size(); ++k) {
    HostTensor t;
    if (!gatherTensor(*outs[k], simulator.region(isa::Region::OUTPUT), t, error)) {
      std::cerr << "run-model: " << error << "\n";
      return 1;
    }
    std::string path = std::string(argv[2]) + "/output_" + std::to_string(k) + ".npy";
    if (!model::writeFileAtomically(path, serializeNpy(t), error)) {
      std::cerr << "run-model: " << error << "\n";
      return 1;
    }
  }
  return 0;
}
