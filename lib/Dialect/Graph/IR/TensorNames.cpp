//===- TensorNames.cpp - ONNX tensor names in locations -------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The names are the metadata of a fused location, the child of the node's
// NameLoc: loc("conv0"(fused<["y"]>[file])), one string per result ("" for
// a result that names no ONNX tensor).
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/TensorNames.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

using namespace mlir;

namespace {
/// The names array of a node NameLoc's child, or null.
ArrayAttr namesOf(Location child) {
  auto f = dyn_cast<FusedLoc>(child);
  auto names = f ? dyn_cast_or_null<ArrayAttr>(f.getMetadata()) : ArrayAttr();
  if (!names || !llvm::all_of(names, [](Attribute a) { return isa<StringAttr>(a); }))
    return {};
  return names;
}

/// The child without the names (the importer's file location).
Location baseChild(NameLoc node) {
  if (namesOf(node.getChildLoc())) {
    auto f = cast<FusedLoc>(node.getChildLoc());
    return f.getLocations().empty() ? Location(UnknownLoc::get(node.getContext()))
                                    : f.getLocations().front();
  }
  return node.getChildLoc();
}
} // namespace

Location npuc::graph::withTensorNames(Location nodeLoc, ArrayRef<std::string> names) {
  auto node = dyn_cast<NameLoc>(nodeLoc);
  if (!node || names.empty())
    return nodeLoc;
  MLIRContext *ctx = nodeLoc.getContext();
  SmallVector<Attribute> attrs;
  for (const std::string &n : names)
    attrs.push_back(StringAttr::get(ctx, n));
  Location child = FusedLoc::get(ctx, {baseChild(node)}, ArrayAttr::get(ctx, attrs));
  return NameLoc::get(node.getName(), child);
}

Location npuc::graph::withoutTensorNames(Location loc) {
  if (auto n = dyn_cast<NameLoc>(loc))
    return NameLoc::get(n.getName(), baseChild(n));
  if (auto f = dyn_cast<FusedLoc>(loc)) {
    SmallVector<Location> parts;
    for (Location l : f.getLocations())
      parts.push_back(withoutTensorNames(l));
    return FusedLoc::get(loc.getContext(), parts, f.getMetadata());
  }
  return loc;
}

SmallVector<std::string> npuc::graph::tensorNames(Location loc) {
  SmallVector<std::string> out;
  if (auto n = dyn_cast<NameLoc>(loc)) {
    if (ArrayAttr names = namesOf(n.getChildLoc()))
      for (Attribute a : names)
        out.push_back(cast<StringAttr>(a).str());
  } else if (auto f = dyn_cast<FusedLoc>(loc)) {
    if (!f.getLocations().empty())
      return tensorNames(f.getLocations().back());
  }
  return out;
}

std::optional<std::string> npuc::graph::tensorName(Value v) {
  auto result = dyn_cast<OpResult>(v);
  if (!result)
    return std::nullopt;
  SmallVector<std::string> names = tensorNames(result.getOwner()->getLoc());
  if (result.getResultNumber() >= names.size() || names[result.getResultNumber()].empty())
    return std::nullopt;
  return names[result.getResultNumber()];
}
