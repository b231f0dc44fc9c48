// check-lowering-evidence groups its refusals: ops of one unverified case
// are one error, at the first, naming the ONNX nodes (NameLocs) it stands at,
// each once; an op at a further node is a note there, an op at a node already
// named is not. (FileCheck, not -verify-diagnostics: the ops are located at
// their nodes, as the importer locates them, not at lines of this file.)
// RUN: not npuc-opt %s -convert-elementwise-to-qk -select-lowering-cases -check-lowering-evidence=evidence=%S/Inputs/evidence.tsv -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --implicit-check-not=note: --implicit-check-not=error:

// CHECK: error: loc("s1"): lowering case qk.map(f32->f32){fn=SIGMOID} is not verified on npu-v1: no test reached it on npu-v1; at 2 nodes: 's1', 's2'; --allow-unverified compiles it anyway
// CHECK-NEXT: note: loc("s2"): the same case
func.func @grouped(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %a = graph.sigmoid %x : (tensor<2x8xf32>) -> tensor<2x8xf32> loc("s1")
  %b = graph.sigmoid %a : (tensor<2x8xf32>) -> tensor<2x8xf32> loc("s2")
  %c = graph.sigmoid %b : (tensor<2x8xf32>) -> tensor<2x8xf32> loc("s1")
  return %c : tensor<2x8xf32>
}
