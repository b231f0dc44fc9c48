//===- Target.td - NPU targets, declared as data ---------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Every parameter a target has, declared once. npuc-tblgen -gen-target-defs
// turns these records into the C++ TargetInfo table; -gen-target-doc writes
// docs/target.md. The target hash covers every parameter and the instruction
// set (ISA.td), so a model file names exactly the machine it was built for.
//
//===----------------------------------------------------------------------===//

include "npuc/Base/ISA.td"

class Target<string name, string doc> {
  string Name = name;
  string Doc = doc;
  int LMBytes;              // local memory (LM)
  int ACCBytes;             // accumulator memory (ACC)
  int LUTTables = 4;        // LUT tables
  int LUTEntries = 512;     // 16-bit entries per LUT table
  int ScalarRegs;           // scalar registers, r0 reads as 0
  int FlagsPerPair;         // sync flags per ordered engine pair
  int QueueDepth = 16;      // entries per engine queue
  // Timing geometry (docs/target.md "Timing"; npu-v1.md section 9). The MATRIX
  // array is weight-stationary, side x side MACs: peak MAC/cycle is side^2.
  int MatrixSideInt8;
  int MatrixSideFp16;
  int MatrixSideFp32;
  int VectorBytesPerCycle;  // VECTOR lanes: bytes per cycle per operand stream
  int GMBytesPerCycle;      // both DMA engines together
  int GMBurstBytes;         // the least any contiguous GM run costs
  int DmaStartLatency;      // cycles per descriptor start
  int DmaInFlight;          // descriptors one DMA engine overlaps
  int ClockMHz = 1000;      // for time estimates only
  int VectorAlign = 32;     // byte alignment of VECTOR operands
  int MatrixAlign = 64;     // byte alignment of MATRIX operand tiles
  int DefaultGMBudget = 268435456;  // arena budget when --gm-budget is not given
}

def NPUv1 : Target<"npu-v1", "The reference NPU.">  {
  let LMBytes = 1048576;
  let ACCBytes = 262144;
  let ScalarRegs = 16;
  let FlagsPerPair = 8;
  let MatrixSideInt8 = 64;
  let MatrixSideFp16 = 32;
  let MatrixSideFp32 = 16;
  let VectorBytesPerCycle = 256;
  let GMBytesPerCycle = 64;
  let GMBurstBytes = 64;
  let DmaStartLatency = 200;
  let DmaInFlight = 4;
}

def NPUv1Tiny : Target<"npu-v1-tiny",
    "Stress variant: small memories, 8 registers, 2 flags per engine pair.">  {
  let LMBytes = 131072;
  let ACCBytes = 32768;
  let ScalarRegs = 8;
  let FlagsPerPair = 2;
  let MatrixSideInt8 = 32;
  let MatrixSideFp16 = 16;
  let MatrixSideFp32 = 8;
  let VectorBytesPerCycle = 64;
  let GMBytesPerCycle = 16;
  let GMBurstBytes = 32;
  let DmaStartLatency = 200;
  let DmaInFlight = 2;
}
