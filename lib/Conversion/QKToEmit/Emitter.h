//===- Emitter.h - Building emit ops for one kernel at a time -------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Helpers shared by the kernel lowerings of convert-qk-to-emit: buffers,
// views and tiles with padded pitches, and the engine operations on them.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_CONVERSION_QKTOEMIT_EMITTER_H
#define NPUC_LIB_CONVERSION_QKTOEMIT_EMITTER_H

#include "npuc/Base/Target.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"

#include "mlir/IR/Builders.h"

namespace npuc::emit {

/// Dense row-major byte strides of `shape` with `elemBytes`-byte elements.
llvm::SmallVector<int64_t> denseStrides(llvm::ArrayRef<int64_t> shape, int64_t elemBytes);

inline int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t bytesOf(mlir::Type element);

/// A byte offset that may follow the enclosing tile loop: base + sum_d
/// coeffs[d] * coordinate d of the iteration (emit.for's basis). Kernels
/// compute offsets with it exactly as with integers.
struct Offset {
  int64_t base = 0;
  llvm::SmallVector<int64_t, 4> coeffs;  // empty: a constant
  Offset(int64_t base = 0) : base(base) {}
  Offset &operator+=(const Offset &o);
  Offset &operator*=(int64_t k);
  friend Offset operator+(Offset a, const Offset &b) { return a += b; }
  friend Offset operator*(Offset a, int64_t k) { return a *= k; }
  friend Offset operator*(int64_t k, Offset a) { return a *= k; }
};

class Emitter {
public:
  Emitter(mlir::OpBuilder &b, const target::TargetInfo &t) : b(b), t(t) {}

  mlir::OpBuilder &b;
  const target::TargetInfo &t;
  mlir::Location loc = b.getUnknownLoc();

  BufferType type(MemorySpace space, llvm::ArrayRef<int64_t> shape, mlir::Type element,
                  llvm::ArrayRef<int64_t> strides);
  /// A fresh buffer; lm/acc/arena ones are placed by emit-plan-memory.
  mlir::Value alloc(MemorySpace space, llvm::ArrayRef<int64_t> shape, mlir::Type element,
                    llvm::ArrayRef<int64_t> strides);
  /// A 2-D local tile whose row pitch is padded to `align` bytes (0: the
  /// target's VectorAlign, what VECTOR operands need).
  mlir::Value tile(MemorySpace space, int64_t rows, int64_t cols, mlir::Type element,
                   int64_t align = 0);
  /// `shape`/`strides` over `source`, `offset` bytes in.
  mlir::Value view(mlir::Value source, int64_t offset, llvm::ArrayRef<int64_t> shape,
                   llvm::ArrayRef<int64_t> strides);
  /// The same, at an offset that follows the current tile loop (emit.iter_view).
  mlir::Value view(mlir::Value source, const Offset &offset, llvm::ArrayRef<int64_t> shape,
                   llvm::ArrayRef<int64_t> strides);

  /// Opens a tile loop over iterations [0, prod(basis)) of `basis`; ops built
  /// until endLoop() form its body. `buffers` > 1 asks for rotating slots per
  /// tile and, with `pipeline`, loads of the next iteration ahead of this one.
  ForOp beginLoop(llvm::ArrayRef<int64_t> basis, int64_t buffers, bool pipeline);
  void endLoop();
  /// Coordinate `d` of the current loop's iteration, as an offset of 1 per step.
  Offset coordinate(unsigned d) const;
  /// The same bytes seen with another element type of the same size.
  mlir::Value retype(mlir::Value source, mlir::Type element);

  void dma(mlir::Value src, mlir::Value dst, llvm::ArrayRef<int64_t> padLo = {},
           llvm::ArrayRef<int64_t> padHi = {}, int64_t fill = 0);
  void matmul(mlir::Value a, mlir::Value bm, mlir::Value c, bool accumulate, int64_t azp,
              int64_t bzp);
  /// `count` products, operands advancing by the steps (bytes) each time.
  void matmulRepeat(mlir::Value a, mlir::Value bm, mlir::Value c, int64_t azp, int64_t bzp,
                    int64_t count, int64_t aStep, int64_t bStep, int64_t cStep);
  void vbin(VBinFunc func, mlir::Value a, mlir::Value bv, mlir::Value d);
  void vbini(VBinFunc func, mlir::Value a, mlir::Attribute imm, mlir::Value d);
  /// d (i8) = func(a, b) ? 1 : 0 (V_CMP).
  void vcmp(CmpFunc func, mlir::Value a, mlir::Value bv, mlir::Value d);
  /// d = m != 0 ? a : b (V_SEL); m has d's row pitch.
  void vsel(mlir::Value m, mlir::Value a, mlir::Value bv, mlir::Value d);
  void vun(VUnFunc func, mlir::Value a, mlir::Value d);
  /// Reduces each row (Axis::COLS) or each column (Axis::ROWS) of a into d.
  void reduce(ReduceFunc func, Axis axis, mlir::Value a, mlir::Value d);
  void cast(mlir::Value a, mlir::Value d);
  /// An integer a dequantized into f32 d, or an f32 a quantized into integer
  /// d, in one VECTOR pass (emit.cast with a scale).
  void quantCast(mlir::Value a, mlir::Value d, float scale, int64_t zp);
  /// Records that `buffer` now holds the ONNX tensor `name` (emit.value).
  void value(mlir::Value buffer, llvm::StringRef name, mlir::Type element);

private:
  ForOp loop;
  mlir::OpBuilder::InsertPoint afterLoop;
};

} // namespace npuc::emit

#endif
