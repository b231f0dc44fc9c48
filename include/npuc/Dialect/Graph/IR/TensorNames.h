//===- TensorNames.h - ONNX tensor names in locations -----------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The importer locates every op at its ONNX node, NameLoc(node, ...). The op
// that computes a node's output also carries the output's ONNX tensor name
// in the child of that NameLoc (the metadata of a fused location, one string
// per result):
//
//   loc("conv0"(fused<["y"]>[...]))   the result is the ONNX tensor "y"
//
// Rewrites keep the names by the usual rule for locations: an op fused from
// several ops is located at all of them, in dataflow order, and computes the
// output of the last (a QDQ-fused convolution computes its QuantizeLinear's
// output, a convolution with its BatchNormalization folded in the
// BatchNormalization's). Ops a rewrite adds beside the one that computes the
// output (storage views of the operands) take the node's location without
// the names. Diagnostics and debug records read only the node names.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_TENSORNAMES_H
#define NPUC_DIALECT_GRAPH_IR_TENSORNAMES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/STLExtras.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <string>

namespace npuc::graph {

/// The function argument and result attribute holding a graph input's or
/// output's ONNX name.
inline constexpr llvm::StringLiteral kBoundaryNameAttr = "graph.name";

/// The function argument and result attribute holding the type a graph
/// input or output has at the model file's boundary when the program
/// computes it as another (f64, computed as f32: docs/numerics.md).
inline constexpr llvm::StringLiteral kBoundaryTypeAttr = "graph.host_type";

/// `nodeLoc` (a NameLoc of the node) naming the results of its op `names`.
mlir::Location withTensorNames(mlir::Location nodeLoc, llvm::ArrayRef<std::string> names);

/// `loc` without tensor names: every NameLoc child that names tensors goes.
mlir::Location withoutTensorNames(mlir::Location loc);

/// The ONNX tensor names `loc` gives an op's results (the last fused node's),
/// empty when it names none.
llvm::SmallVector<std::string> tensorNames(mlir::Location loc);

/// The ONNX tensor name of an op result, when its op's location gives one.
std::optional<std::string> tensorName(mlir::Value v);

/// Every ONNX node `loc` names (an op fused from several nodes names them
/// all), in order, each once; the names of tensors are not nodes. Header
/// only, so that tools reading locations (the model writer, the driver) need
/// nothing but MLIR.
inline llvm::SmallVector<std::string> nodeNames(mlir::Location loc) {
  llvm::SmallVector<std::string> out;
  auto visit = [&](auto &&self, mlir::Location l) -> void {
    if (auto n = llvm::dyn_cast<mlir::NameLoc>(l)) {
      std::string name = n.getName().str();
      if (!llvm::is_contained(out, name))
        out.push_back(name);
    } else if (auto f = llvm::dyn_cast<mlir::FusedLoc>(l)) {
      for (mlir::Location part : f.getLocations())
        self(self, part);
    } else if (auto c = llvm::dyn_cast<mlir::CallSiteLoc>(l)) {
      self(self, c.getCallee());
    }
  };
  visit(visit, loc);
  return out;
}

} // namespace npuc::graph

#endif
