//===- EmitOps.td - Engine operations --------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_EMIT_IR_EMITOPS_TD
#define NPUC_DIALECT_EMIT_IR_EMITOPS_TD

include "npuc/Dialect/Emit/IR/EmitInterfaces.td"
include "npuc/Dialect/Emit/IR/EmitTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/RegionKindInterface.td"

class Emit_Op<string mnemonic, list<Trait> traits = []> : Op<Emit_Dialect, mnemonic, traits>;
// Every op but emit.program lives in a program, possibly inside tile loops and
// hardware loops.
class Emit_InProgramOp<string mnemonic, list<Trait> traits = []>
    : Emit_Op<mnemonic, !listconcat(traits, [ParentOneOf<["ProgramOp", "ForOp", "HwLoopOp"]>])>;

def Emit_ProgramOp : Emit_Op<"program", [NoTerminator, SingleBlock, IsolatedFromAbove]> {
  let summary = "The engine operations of one model, in program order";
  let arguments = (ins StrAttr:$target);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "`target` $target attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Emit_AllocOp : Emit_InProgramOp<"alloc"> {
  let summary = "A buffer; `offset` (bytes in its space) is set by memory planning";
  let description = [{
    A model input or output (space input/output) carries its tensor `name`;
    its offset in the region is fixed when it is created. Arena, lm and acc
    buffers are placed by emit-plan-memory, by liveness over every view of them.
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset, OptionalAttr<StrAttr>:$name);
  let results = (outs Emit_BufferType:$buffer);
  let assemblyFormat = "attr-dict `:` type($buffer)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The discardable attribute a tile in a multi-buffered loop may carry:
    /// how many slots it takes beyond the loop's `buffers`.
    static constexpr ::llvm::StringLiteral kExtraSlots = "emit.extra_slots";
    /// The discardable attribute a model input or output carries when the
    /// host binds another type than the buffer's (i1, i64, ui16, ui32 over
    /// i8 or i32 storage; docs/model-format.md, "Boundary types").
    static constexpr ::llvm::StringLiteral kBoundary = "emit.boundary";
  }];
}

def Emit_ConstantOp : Emit_InProgramOp<"constant"> {
  let summary = "Bytes of the CONST region (weights, biases, parameter tables)";
  let description = [{
    The value's elements, little endian, laid out by the result's strides
    (which must be the dense row-major strides); `offset` is set by planning.
  }];
  let arguments = (ins ElementsAttr:$value, OptionalAttr<I64Attr>:$offset);
  let results = (outs Emit_BufferType:$buffer);
  let assemblyFormat = "$value attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def Emit_ViewOp : Emit_InProgramOp<"view"> {
  let summary = "Another shape and strides over a buffer, `offset` bytes in";
  let description = [{
    A view allocates nothing: reshapes, im2col windows, tiles and broadcasts
    (stride 0) are views. Its storage stays alive while any view of it is used.
  }];
  let arguments = (ins Emit_BufferType:$source, I64Attr:$offset);
  let results = (outs Emit_BufferType:$result);
  let assemblyFormat = "$source `[` $offset `]` attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

def Emit_ForOp : Emit_InProgramOp<"for", [NoTerminator, SingleBlock]> {
  let summary = "A loop over tiles: iterations lower to upper of a delinearized space";
  let description = [{
    `emit.for (%t) basis [2, 4, 3] range [0, 24)` runs its body for t = 0..23;
    ops in the body see the iteration through emit.iter_view, whose offsets are
    affine in the coordinates of t in the mixed-radix `basis` (outermost first;
    t = 5 is (0, 1, 2) here). A kernel lowers to loops like this one instead of
    an unrolled list, so passes can transform iterations:
    `buffers` = N asks emit-multi-buffer to give every tile the body allocates
    N rotating slots; `pipeline` asks emit-pipeline to issue the loads of
    iteration t + 1 before the compute of iteration t; emit-lower-loops then
    turns the loop into engine code. The chooser (select-tiling) records its
    estimate in `npuc.tiling` on the kernel, not here.
  }];
  let arguments = (ins DenseI64ArrayAttr:$basis, I64Attr:$lower, I64Attr:$upper,
                   DefaultValuedAttr<I64Attr, "1">:$buffers, UnitAttr:$pipeline);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The iteration (the body's one argument, an index).
    ::mlir::Value getIteration() { return getBody().front().getArgument(0); }
    /// Coordinates of iteration `t` in the basis, outermost first.
    ::llvm::SmallVector<int64_t> coordinates(int64_t t);
    /// The discardable attribute emit-lower-loops leaves on every op it
    /// clones: [loop, iteration], for emit-hardware-loops to find iterations.
    static constexpr ::llvm::StringLiteral kIterationTag = "emit.iteration";
  }];
}

def Emit_HwLoopOp : Emit_InProgramOp<"hw_loop", [NoTerminator, SingleBlock]> {
  let summary = "A hardware loop (LOOP): the body runs `count` times, its addresses stepping";
  let description = [{
    Made by emit-hardware-loops from straight-line code whose iterations
    repeat: the body is the first iteration's engine ops, signals, waits and
    barriers, with every buffer already placed. At iteration k (0-based) an
    engine op's i-th operand, a buffer, is at its placed address plus
    k * `emit.steps`[i] bytes; an op without `emit.steps` is the
    same in every iteration. In nested loops `emit.steps` holds one such list
    per enclosing loop, innermost first (outer levels left out: no step). Flags keep their physical ids in every iteration.
    convert-emit-to-enc holds one scalar register per distinct step (and
    sub-granule remainder) for the loop's scope and advances it by ALUI at the
    end of the body. A repeated matmul in the body borrows its own registers
    inside that scope (a nested LOOP).
  }];
  let arguments = (ins I64Attr:$count);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$count attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The discardable attribute an engine op in the body carries: its
    /// operands' byte steps per iteration (0 for a flag).
    static constexpr ::llvm::StringLiteral kSteps = "emit.steps";
    /// The steps of `op` (empty: none): one per operand for its innermost
    /// enclosing loop, then one per operand for the next one out, and so on
    /// (levels left out do not step).
    static ::llvm::ArrayRef<int64_t> stepsOf(::mlir::Operation *op);
    /// This loop and the loops nested in it, in preorder.
    ::llvm::SmallVector<::mlir::Operation *> nest();
    /// The address stream of operand `k` of `op`, an op of `nest` (none: the
    /// operand does not step, or its buffer is not placed).
    static std::optional<AddressStream> streamOf(::mlir::Operation *op, unsigned k,
                                                 ::llvm::ArrayRef<::mlir::Operation *> nest);
    /// The distinct address streams of the nest rooted here.
    std::set<AddressStream> streams();
    /// Scalar registers the nest needs: one per address stream, plus what
    /// its body borrows for a moment (3 for a repeated matmul, else 1 for a
    /// sub-granule address).
    int64_t registersNeeded();
  }];
}

def Emit_IterViewOp : Emit_InProgramOp<"iter_view"> {
  let summary = "A view whose offset depends on the enclosing tile loop's iteration";
  let description = [{
    At iteration t of the emit.for that defines `iteration`, with s = t + `shift`,
    the view is `source` seen at byte offset
      offset + sum_d coeffs[d] * coord_d(s) + slot_bytes * (s mod slots),
    coord(s) being s delinearized by the loop's basis. The coefficients walk a
    tile over a GM tensor; the slot term rotates multi-buffered tiles. Every
    iteration's view must lie in its source.
  }];
  let arguments = (ins Emit_BufferType:$source, Index:$iteration, I64Attr:$offset,
                   DenseI64ArrayAttr:$coeffs, DefaultValuedAttr<I64Attr, "0">:$shift,
                   DefaultValuedAttr<I64Attr, "0">:$slot_bytes,
                   DefaultValuedAttr<I64Attr, "1">:$slots);
  let results = (outs Emit_BufferType:$result);
  let assemblyFormat = "$source `[` $iteration `]` `offset` $offset `coeffs` $coeffs attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The loop whose iteration this view follows.
    ForOp getLoop();
    /// The byte offset at iteration `t` of that loop.
    int64_t offsetAt(int64_t t);
  }];
}

def Emit_DmaOp : Emit_InProgramOp<"dma", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>]> {
  let summary = "Copy between GM and a local memory (engine DMA_IN or DMA_OUT)";
  let description = [{
    GM to lm/acc/lut runs on DMA_IN, lm/acc to GM on DMA_OUT. With pads, the
    destination is the source grown by `pad_lo`/`pad_hi` per dimension, filled
    with `fill` outside the source (DMA_IN only).
  }];
  let arguments = (ins Emit_BufferType:$src, Emit_BufferType:$dst,
                   OptionalAttr<DenseI64ArrayAttr>:$pad_lo,
                   OptionalAttr<DenseI64ArrayAttr>:$pad_hi, OptionalAttr<I64Attr>:$fill);
  let assemblyFormat = "$src `->` $dst attr-dict `:` type($src) `->` type($dst)";
  let hasVerifier = 1;
}

def Emit_GatherOp : Emit_InProgramOp<"gather", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>]> {
  let summary = "Rows of a GM table chosen by an index list in lm (DMA_IN_GATHER)";
  let description = [{
    `table` is a GM buffer whose dimension 0 holds the rows an index selects
    (its extent is the bound every index is checked against at run time) and
    whose other dimensions, at most 3, are the box one index moves;
    `indices` is an lm buffer of n contiguous i32; `dst` an lm buffer
    [n, box...]: dst[i, ...] = table[indices[i], ...]. An index outside
    [0, rows) faults, naming the table (npu-v1.md section 5).
  }];
  let arguments = (ins Emit_BufferType:$table, Emit_BufferType:$indices, Emit_BufferType:$dst);
  let assemblyFormat = "$table `[` $indices `]` `->` $dst attr-dict `:` type($table) `,` type($indices) `->` type($dst)";
  let hasVerifier = 1;
}

def Emit_ScatterOp : Emit_InProgramOp<"scatter", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>]> {
  let summary = "Rows of lm combined into GM rows chosen by an index list in lm (DMA_OUT_SCATTER)";
  let description = [{
    `src` is an lm buffer [n, box...]; `indices` an lm buffer of n contiguous
    i32; `table` a GM buffer whose dimension 0 holds the rows an index
    selects (its extent bounds every index at run time) and whose other
    dimensions are the box: in list order, table[indices[i], ...] =
    func(table[indices[i], ...], src[i, ...]) (NONE: src itself). An index
    outside [0, rows) faults, naming the table (npu-v1.md section 5).
  }];
  let arguments = (ins Emit_BufferType:$src, Emit_BufferType:$indices, Emit_BufferType:$table,
                   Emit_ScatterFunc:$func);
  let assemblyFormat = "$func $src `->` $table `[` $indices `]` attr-dict `:` type($src) `,` type($indices) `->` type($table)";
  let hasVerifier = 1;
}

def Emit_MatmulOp : Emit_InProgramOp<"matmul", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>]> {
  let summary = "C (+)= (A - a_zp) x (B - b_zp) on the MATRIX engine";
  let description = [{
    With `count` > 1, `count` products: iteration i reads and writes the
    operands `a_step`, `b_step` and `c_step` bytes * i further on (a hardware
    loop over scalar registers once encoded).
  }];
  let arguments = (ins Emit_BufferType:$a, Emit_BufferType:$b, Emit_BufferType:$c,
                   UnitAttr:$accumulate, DefaultValuedAttr<I64Attr, "0">:$a_zp,
                   DefaultValuedAttr<I64Attr, "0">:$b_zp,
                   DefaultValuedAttr<I64Attr, "1">:$count,
                   DefaultValuedAttr<I64Attr, "0">:$a_step,
                   DefaultValuedAttr<I64Attr, "0">:$b_step,
                   DefaultValuedAttr<I64Attr, "0">:$c_step);
  let assemblyFormat = "$a `,` $b `->` $c attr-dict `:` type($a) `,` type($b) `->` type($c)";
  let hasVerifier = 1;
}

def Emit_VBinOp : Emit_InProgramOp<"vbin", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>]> {
  let summary = "Elementwise binary op on the VECTOR engine";
  let description = [{
    `func` is a VBinFunc of the ISA (ADD, SUB, MUL, ...). Operands are 2-D
    [rows, cols] buffers in lm or acc; `b` may be [1, cols], [rows, 1] or
    [1, 1], broadcast by address (stride 0), never materialized.
  }];
  let arguments = (ins Emit_BufferType:$a, Emit_BufferType:$b, Emit_BufferType:$d,
                   Emit_VBinFunc:$func);
  let assemblyFormat = "$func $a `,` $b `->` $d attr-dict `:` type($a) `,` type($b) `->` type($d)";
  let hasVerifier = 1;
}

def Emit_VCmpOp : Emit_InProgramOp<"vcmp", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>]> {
  let summary = "d = func(a, b) ? 1 : 0 as i8 on the VECTOR engine (V_CMP)";
  let description = [{
    `func` is a CmpFunc of the ISA other than the unsigned LTU and GEU; `a`
    and `b` have one element type, `b` broadcasts like vbin's; `d` is i8 of
    `a`'s shape (a mask, or a bool tensor's 0/1 bytes).
  }];
  let arguments = (ins Emit_BufferType:$a, Emit_BufferType:$b, Emit_BufferType:$d,
                   Emit_CmpFunc:$func);
  let assemblyFormat = "$func $a `,` $b `->` $d attr-dict `:` type($a) `,` type($b) `->` type($d)";
  let hasVerifier = 1;
}

def Emit_VSelOp : Emit_InProgramOp<"vsel", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>]> {
  let summary = "d = m != 0 ? a : b elementwise on the VECTOR engine (V_SEL)";
  let description = [{
    `a` and `b` broadcast like vbin's `b` ([1, cols], [rows, 1], [1, 1]).
    The i8 mask `m` has `d`'s shape and is read with `d`'s row
    pitch (ISA.td), so its buffer has the same pitch in bytes as `d`'s.
  }];
  let arguments = (ins Emit_BufferType:$a, Emit_BufferType:$b, Emit_BufferType:$m,
                   Emit_BufferType:$d);
  let assemblyFormat = "$m `?` $a `:` $b `->` $d attr-dict `:` type($m) `,` type($a) `,` type($b) `->` type($d)";
  let hasVerifier = 1;
}

def Emit_VUnOp : Emit_InProgramOp<"vun", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>]> {
  let summary = "Elementwise unary op on the VECTOR engine (`func` is a VUnFunc)";
  let arguments = (ins Emit_BufferType:$a, Emit_BufferType:$d, Emit_VUnFunc:$func);
  let assemblyFormat = "$func $a `->` $d attr-dict `:` type($a) `->` type($d)";
  let hasVerifier = 1;
}

def Emit_VBinImmOp : Emit_InProgramOp<"vbini", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>]> {
  let summary = "d = func(a, imm) on the VECTOR engine; imm is an integer or an f32";
  let arguments = (ins Emit_BufferType:$a, Emit_BufferType:$d, Emit_VBinFunc:$func,
                   AnyAttr:$imm);
  let assemblyFormat = "$func $a `,` $imm `->` $d attr-dict `:` type($a) `->` type($d)";
  let hasVerifier = 1;
}

def Emit_CastOp : Emit_InProgramOp<"cast", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>]> {
  let summary = "Convert elements (round to nearest even, saturate) on the VECTOR engine";
  let description = [{
    With `scale` (and `zp`, default 0), one side is f32 and the other an
    integer type: an integer a dequantizes, d = (f32(a) - zp) * scale
    (V_DEQUANT), and an f32 a quantizes, d = saturate(round_half_even(a /
    scale) + zp) (V_QUANT), each in one pass with the f32 steps of the cast,
    subtraction and product (or division, rounding, sum and cast) it
    replaces.
  }];
  let arguments = (ins Emit_BufferType:$a, Emit_BufferType:$d, OptionalAttr<F32Attr>:$scale,
                   DefaultValuedAttr<I64Attr, "0">:$zp);
  let assemblyFormat = "$a `->` $d attr-dict `:` type($a) `->` type($d)";
  let hasVerifier = 1;
}

def Emit_RequantOp : Emit_InProgramOp<"requant", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>]> {
  let summary = "int32 -> narrow integer requantization on the VECTOR engine";
  let description = [{
    Per tensor (`mult`, `ls`, `rs`, `zp`, `lo`, `hi` hold one entry) or with
    `params`: an lm table of 16-byte entries, one per column, or one per row
    with `per_row` (docs/isa.md, V_REQUANT).
  }];
  let arguments = (ins Emit_BufferType:$a, Emit_BufferType:$d,
                   Optional<Emit_BufferType>:$params, UnitAttr:$per_row,
                   DefaultValuedAttr<I64Attr, "0">:$mult,
                   DefaultValuedAttr<I64Attr, "0">:$ls, DefaultValuedAttr<I64Attr, "0">:$rs,
                   DefaultValuedAttr<I64Attr, "0">:$zp, DefaultValuedAttr<I64Attr, "0">:$lo,
                   DefaultValuedAttr<I64Attr, "0">:$hi);
  let assemblyFormat = [{
    $a (`params` $params^ `:` type($params))? `->` $d attr-dict `:` type($a) `->` type($d)
  }];
  let hasVerifier = 1;
}

def Emit_DrainOp : Emit_InProgramOp<"drain", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>, AttrSizedOperandSegments]> {
  let summary = "The MATRIX output stage: int32 accumulators, plus a bias, requantized into lm";
  let description = [{
    MM_OUT (docs/isa.md): `a` (acc, i32) plus `bias` (lm, one i32 per column,
    or per row with `bias_per_row`), requantized per tensor (the attributes) or by
    `params` (an lm table of 16-byte entries, one per column or row) and cast
    to `d` (lm, i8, ui8 or i16), on the MATRIX engine while it runs its next
    pass: an int32 result need not cross VECTOR.
  }];
  let arguments = (ins Emit_BufferType:$a, Emit_BufferType:$d,
                   Optional<Emit_BufferType>:$bias, Optional<Emit_BufferType>:$params,
                   UnitAttr:$per_row, UnitAttr:$bias_per_row,
                   DefaultValuedAttr<I64Attr, "0">:$mult,
                   DefaultValuedAttr<I64Attr, "0">:$ls, DefaultValuedAttr<I64Attr, "0">:$rs,
                   DefaultValuedAttr<I64Attr, "0">:$zp, DefaultValuedAttr<I64Attr, "0">:$lo,
                   DefaultValuedAttr<I64Attr, "0">:$hi);
  let assemblyFormat = [{
    $a (`bias` $bias^ `:` type($bias))? (`params` $params^ `:` type($params))? `->` $d attr-dict
    `:` type($a) `->` type($d)
  }];
  let hasVerifier = 1;
}

def Emit_DepthwiseOp : Emit_InProgramOp<"depthwise", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>, AttrSizedOperandSegments]> {
  let summary = "Depthwise windows on VECTOR (V_DW) or the array (MM_DW)";
  let description = [{
    V_DW (docs/isa.md): per channel r of `a` (lm, [channels, image rows,
    image columns]), `b` (lm, [channels, kh * kw] taps) and `d` (acc or lm,
    [channels, output rows, output columns], i32 or f32, output rows and
    columns contiguous),
    d[r][o][c] (+)= sum over i < kh, j < kw of
      (a[r][o*sh + i*dh][c*sw + j*dw] - a_zp) * (b[r][i*kw + j] - b_zp).
    The window is `kernel` = [kh, kw], `strides` = [sh, sw], `dilations` =
    [dh, dw]; the image must hold every row and column the window reaches.
    With `func` MAX or SUM (pooling) there are no taps and no zero
    points: d is the maximum or the sum of the window's image elements.
    An f32 multiply-accumulate may add `bias` (lm, [channels, 1] f32) to each
    finished sum and then, with `relu`, keep max(sum, 0): what the epilogue's
    VECTOR passes would compute, in the same IEEE steps.
    With `matrix`, the MATRIX array's depthwise mode computes the same sums
    (MM_DW: a multiply-accumulate into acc, one channel per column of the
    array); without it, VECTOR's V_DW. Both feeders pad a
    multiply-accumulate: with `pads` = [top, left], the image's row 0 is
    window row `top` and its column 0 window column `left`, and a tap
    outside the image (above, left, below or right of it) reads the zero
    point (a_zp, or +0.0), so the image needs no padding in LM.
  }];
  let arguments = (ins Emit_BufferType:$a, Optional<Emit_BufferType>:$b, Emit_BufferType:$d,
                   Optional<Emit_BufferType>:$bias,
                   DenseI64ArrayAttr:$kernel, DenseI64ArrayAttr:$strides,
                   DenseI64ArrayAttr:$dilations, UnitAttr:$accumulate,
                   DefaultValuedAttr<I64Attr, "0">:$a_zp, DefaultValuedAttr<I64Attr, "0">:$b_zp,
                   DefaultValuedAttr<Emit_WindowFunc, "::npuc::emit::WindowFunc::MAC">:$func, UnitAttr:$relu,
                   UnitAttr:$matrix, OptionalAttr<DenseI64ArrayAttr>:$pads);
  let assemblyFormat = [{
    $func $a (`,` $b^)? (`bias` $bias^)? `->` $d attr-dict `:` type($a) (`,` type($b)^)?
    (`bias` type($bias)^)? `->` type($d)
  }];
  let hasVerifier = 1;
}

def Emit_ReduceOp : Emit_InProgramOp<"reduce", [DeclareOpInterfaceMethods<Emit_EngineOpInterface>]> {
  let summary = "Reduce each row (`cols`) or each column (`rows`) on the VECTOR engine";
  let description = [{
    `func` is a ReduceFunc (SUM, MAX, MIN); d is [rows, 1] for `cols` and
    [1, cols] for `rows`. Integer SUM accumulates in int32 (d is i32).
  }];
  let arguments = (ins Emit_BufferType:$a, Emit_BufferType:$d, Emit_ReduceFunc:$func, Emit_Axis:$axis);
  let assemblyFormat = "$func $axis $a `->` $d attr-dict `:` type($a) `->` type($d)";
  let hasVerifier = 1;
}

def Emit_FlagOp : Emit_InProgramOp<"flag"> {
  let summary = "A virtual sync flag; allocation maps it to a physical flag id";
  let arguments = (ins OptionalAttr<I64Attr>:$id);
  let results = (outs Emit_FlagType:$flag);
  let assemblyFormat = "attr-dict `:` type($flag)";
  let hasVerifier = 1;
}

def Emit_SignalOp : Emit_InProgramOp<"signal"> {
  let summary = "SET_FLAG on the flag's source engine, after its earlier work completes";
  let arguments = (ins Emit_FlagType:$flag);
  let assemblyFormat = "$flag attr-dict `:` type($flag)";
}

def Emit_WaitOp : Emit_InProgramOp<"wait"> {
  let summary = "WAIT_FLAG on the flag's destination engine";
  let arguments = (ins Emit_FlagType:$flag);
  let assemblyFormat = "$flag attr-dict `:` type($flag)";
}

def Emit_BarrierOp : Emit_InProgramOp<"barrier"> {
  let summary = "SCALAR stalls until the named engines have drained";
  let arguments = (ins TypedArrayAttrBase<Emit_EngineAttr, "engines">:$engines);
  let assemblyFormat = "$engines attr-dict";
  let hasVerifier = 1;
}

def Emit_ValueOp : Emit_InProgramOp<"value"> {
  let summary = "A graph value complete in `buffer` at this point of the program";
  let description = [{
    Observation only (contract L4): names the ONNX tensor `name` that the
    ops before it in program order have computed into `buffer` (a GM buffer,
    any layout its strides give), with its graph element type `element`
    (quantization included). No engine runs it and it reads nothing;
    convert-emit-to-enc records it in the model file's values section, and
    `npu-sim --dump-tensors` writes the value in logical order.
  }];
  let arguments = (ins Emit_BufferType:$buffer, StrAttr:$name, TypeAttr:$element);
  let assemblyFormat = "$buffer $name `as` $element attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

#endif
