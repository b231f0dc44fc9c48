//===- Emitter.cpp - Building emit ops for one kernel at a time -----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

SmallVector<int64_t> npuc::emit::denseStrides(ArrayRef<int64_t> shape, int64_t elemBytes) {
  SmallVector<int64_t> strides(shape.size());
  int64_t s = elemBytes;
  for (int64_t i = int64_t(shape.size()) - 1; i >= 0; --i) {
    strides[size_t(i)] = s;
    s *= shape[size_t(i)];
  }
  return strides;
}

int64_t npuc::emit::bytesOf(Type element) { return (element.getIntOrFloatBitWidth() + 7) / 8; }

BufferType Emitter::type(MemorySpace space, ArrayRef<int64_t> shape, Type element,
                         ArrayRef<int64_t> strides) {
  return BufferType::get(b.getContext(), space, shape, element, strides);
}

Value Emitter::alloc(MemorySpace space, ArrayRef<int64_t> shape, Type element,
                     ArrayRef<int64_t> strides) {
  return AllocOp::create(b, loc, type(space, shape, element, strides), IntegerAttr(), StringAttr());
}

Value Emitter::tile(MemorySpace space, int64_t rows, int64_t cols, Type element, int64_t align) {
  int64_t e = bytesOf(element);
  int64_t pitch = roundUp(cols * e, align ? align : t.params.VectorAlign);
  return alloc(space, {rows, cols}, element, {pitch, e});
}

Value Emitter::view(Value source, int64_t offset, ArrayRef<int64_t> shape, ArrayRef<int64_t> strides) {
  auto src = llvm::cast<BufferType>(source.getType());
  if (offset == 0 && src.getShape() == shape && src.getStrides() == strides)
    return source;  // the whole buffer, as it is
  return ViewOp::create(b, loc, type(src.getSpace(), shape, src.getElementType(), strides), source,
                        b.getI64IntegerAttr(offset));
}

Offset &Offset::operator+=(const Offset &o) {
  base += o.base;
  if (coeffs.size() < o.coeffs.size())
    coeffs.resize(o.coeffs.size(), 0);
  for (size_t d = 0; d < o.coeffs.size(); ++d)
    coeffs[d] += o.coeffs[d];
  return *this;
}

Offset &Offset::operator*=(int64_t k) {
  base *= k;
  for (int64_t &c : coeffs)
    c *= k;
  return *this;
}

Value Emitter::view(Value source, const Offset &offset, ArrayRef<int64_t> shape,
                    ArrayRef<int64_t> strides) {
  // A coordinate over a basis entry of 1 is always 0.
  SmallVector<int64_t> coeffs(offset.coeffs.begin(), offset.coeffs.end());
  if (loop) {
    coeffs.resize(loop.getBasis().size(), 0);
    for (auto [c, n] : llvm::zip(coeffs, loop.getBasis()))
      if (n == 1)
        c = 0;
  }
  if (llvm::all_of(coeffs, [](int64_t c) { return c == 0; }))
    return view(source, offset.base, shape, strides);
  auto src = llvm::cast<BufferType>(source.getType());
  return IterViewOp::create(b, loc, type(src.getSpace(), shape, src.getElementType(), strides),
                            source, loop.getIteration(), b.getI64IntegerAttr(offset.base),
                            b.getDenseI64ArrayAttr(coeffs), b.getI64IntegerAttr(0),
                            b.getI64IntegerAttr(0), b.getI64IntegerAttr(1));
}

ForOp Emitter::beginLoop(ArrayRef<int64_t> basis, int64_t buffers, bool pipeline) {
  int64_t n = 1;
  for (int64_t x : basis)
    n *= x;
  loop = ForOp::create(b, loc, b.getDenseI64ArrayAttr(basis), b.getI64IntegerAttr(0),
                       b.getI64IntegerAttr(n), b.getI64IntegerAttr(buffers),
                       pipeline ? b.getUnitAttr() : UnitAttr());
  Block &body = loop.getBody().emplaceBlock();
  body.addArgument(b.getIndexType(), loc);
  afterLoop = b.saveInsertionPoint();
  b.setInsertionPointToStart(&body);
  return loop;
}

void Emitter::endLoop() {
  b.restoreInsertionPoint(afterLoop);
  loop = ForOp();
}

Offset Emitter::coordinate(unsigned d) const {
  Offset o;
  o.coeffs.assign(ForOp(loop).getBasis().size(), 0);
  o.coeffs[d] = 1;
  return o;
}

Value Emitter::retype(Value source, Type element) {
  auto src = llvm::cast<BufferType>(source.getType());
  if (src.getElementType() == element)
    return source;
  return ViewOp::create(b, loc, type(src.getSpace(), src.getShape(), element, src.getStrides()),
                        source, b.getI64IntegerAttr(0));
}

void Emitter::dma(Value src, Value dst, ArrayRef<int64_t> padLo, ArrayRef<int64_t> padHi,
                  int64_t fill) {
  bool padded = llvm::any_of(padLo, [](int64_t p) { return p != 0; }) ||
                llvm::any_of(padHi, [](int64_t p) { return p != 0; });
  DmaOp::create(b, loc, src, dst, padded ? b.getDenseI64ArrayAttr(padLo) : DenseI64ArrayAttr(),
                padded ? b.getDenseI64ArrayAttr(padHi) : DenseI64ArrayAttr(),
                padded ? b.getI64IntegerAttr(fill) : IntegerAttr());
}

void Emitter::matmul(Value a, Value bm, Value c, bool accumulate, int64_t azp, int64_t bzp) {
  MatmulOp::create(b, loc, a, bm, c, accumulate ? b.getUnitAttr() : UnitAttr(),
                   b.getI64IntegerAttr(azp), b.getI64IntegerAttr(bzp));
}

void Emitter::matmulRepeat(Value a, Value bm, Value c, int64_t azp, int64_t bzp, int64_t count,
                           int64_t aStep, int64_t bStep, int64_t cStep) {
  MatmulOp::create(b, loc, a, bm, c, UnitAttr(), b.getI64IntegerAttr(azp), b.getI64IntegerAttr(bzp),
                   b.getI64IntegerAttr(count), b.getI64IntegerAttr(aStep),
                   b.getI64IntegerAttr(bStep), b.getI64IntegerAttr(cStep));
}

void Emitter::vbin(VBinFunc func, Value a, Value bv, Value d) {
  VBinOp::create(b, loc, a, bv, d, func);
}

void Emitter::vcmp(CmpFunc func, Value a, Value bv, Value d) {
  VCmpOp::create(b, loc, a, bv, d, func);
}

void Emitter::vsel(Value m, Value a, Value bv, Value d) { VSelOp::create(b, loc, a, bv, m, d); }

void Emitter::vbini(VBinFunc func, Value a, Attribute imm, Value d) {
  VBinImmOp::create(b, loc, a, d, func, imm);
}

void Emitter::vun(VUnFunc func, Value a, Value d) { VUnOp::create(b, loc, a, d, func); }

void Emitter::reduce(ReduceFunc func, Axis axis, Value a, Value d) {
  ReduceOp::create(b, loc, a, d, func, axis);
}

void Emitter::cast(Value a, Value d) { CastOp::create(b, loc, a, d, FloatAttr(), 0); }

void Emitter::quantCast(Value a, Value d, float scale, int64_t zp) {
  CastOp::create(b, loc, a, d, b.getF32FloatAttr(scale), zp);
}

void Emitter::value(Value buffer, StringRef name, Type element) {
  ValueOp::create(b, loc, buffer, b.getStringAttr(name), TypeAttr::get(element));
}
