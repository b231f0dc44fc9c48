//===- ISA.td - The NPU-v1 instruction set ---------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Every NPU-v1 instruction, declared once. docs/isa.md is generated from this
// file (npuc-tblgen -gen-isa-doc); read it for the operand scheme.
//
//===----------------------------------------------------------------------===//

include "npuc/Base/ISABase.td"

//===----------------------------------------------------------------------===//
// Enumerations
//===----------------------------------------------------------------------===//

def EngineEnum : ISAEnum<"Engine", ["SCALAR", "DMA_IN", "DMA_OUT", "MATRIX", "VECTOR"],
  "An engine of the NPU.">;
def RegionEnum : ISAEnum<"Region", ["CONST", "ARENA", "INPUT", "OUTPUT", "STATE"],
  "A region of global memory (GM); the runtime binds each region's base.">;
def DmaDstEnum : ISAEnum<"DmaDst", ["LM", "ACC", "LUT"],
  "Destination memory of DMA_IN.">;
def LocalEnum : ISAEnum<"Local", ["LM", "ACC"],
  "A local memory operand: the scratchpad LM or the accumulator memory ACC.">;
def ElemEnum : ISAEnum<"Elem", ["B1", "B2", "B4"],
  "Element size moved by a DMA: 1, 2 or 4 bytes.">;
def AluEnum : ISAEnum<"AluFunc",
  ["ADD", "SUB", "MUL", "AND", "OR", "XOR", "SHL", "SHR", "SRA", "MIN", "MAX"],
  "Scalar ALU function on 32-bit registers (wrapping; shifts use the low 5 bits).">;
def CmpEnum : ISAEnum<"CmpFunc", ["EQ", "NE", "LT", "LE", "GT", "GE", "LTU", "GEU"],
  "Comparison; LT/LE/GT/GE are signed, LTU/GEU unsigned.">;
def MmModeEnum : ISAEnum<"MmMode", ["I8I8", "U8I8", "I8U8", "U8U8", "F16", "F32"],
  "MATRIX operand types: A x B; integer modes accumulate int32, float modes fp32.">;
def DTypeEnum : ISAEnum<"DType", ["I8", "U8", "I16", "I32", "F16", "F32"],
  "Element type of a VECTOR operand.">;
def VBinEnum : ISAEnum<"VBinFunc",
  ["ADD", "SUB", "MUL", "DIV", "MAX", "MIN", "AND", "OR", "XOR", "SHL", "SRA"],
  "VECTOR binary function.">;
def VUnEnum : ISAEnum<"VUnFunc",
  ["COPY", "NEG", "ABS", "SIGN", "RELU", "FLOOR", "CEIL", "ROUND", "SQRT", "RSQRT",
   "RECIP", "EXP", "LOG", "TANH", "SIGMOID", "ERF", "SIN", "COS", "TAN", "ASIN", "ACOS",
   "ATAN", "ASINH", "ACOSH", "ATANH"],
  "VECTOR unary function; transcendental ones are float only (docs/numerics.md).">;
def PModeEnum : ISAEnum<"PMode", ["TENSOR", "COL", "ROW"],
  "Where requantization parameters come from: the V_RQ_CFG registers, or a table "
  "in LM with one entry per column or per row.">;
def ReduceEnum : ISAEnum<"ReduceFunc", ["SUM", "MAX", "MIN"], "VECTOR reduction.">;
def WindowEnum : ISAEnum<"WindowFunc", ["MAC", "MAX", "SUM"],
  "What V_DW computes over a window: multiply-accumulate with the taps, or the maximum or "
  "the sum of the image alone (pooling).">;
def ScatterEnum : ISAEnum<"ScatterFunc", ["NONE", "ADD", "MAX", "MIN"],
  "How DMA_OUT_SCATTER combines a row with the GM row it lands on: replace it, or the sum, "
  "maximum or minimum in the row's type (docs/numerics.md).">;
def AxisEnum : ISAEnum<"Axis", ["COLS", "ROWS"],
  "Reduction direction: COLS reduces each row to one value, ROWS each column.">;

//===----------------------------------------------------------------------===//
// SCALAR: control flow and registers (opcodes 0x01-0x1f)
//===----------------------------------------------------------------------===//

def NOP : Inst<0x01, SCALAR, "nop", [], "No operation.">;
def END : Inst<0x02, SCALAR, "end", [],
  "Stop fetching; the program ends when every engine queue has drained.">;
def LI : Inst<0x03, SCALAR, "li",
  [Reg<"rd", 8, "destination register">, SImm<"imm", 32, 32, "value">],
  "rd = imm.">;
def ALU : Inst<0x04, SCALAR, "alu",
  [EnumField<"func", 8, 4, AluEnum>, Reg<"rd", 12>, Reg<"rs1", 16>, Reg<"rs2", 20>],
  "rd = func(rs1, rs2), 32-bit wrapping.">;
def ALUI : Inst<0x05, SCALAR, "alui",
  [EnumField<"func", 8, 4, AluEnum>, Reg<"rd", 12>, Reg<"rs1", 16>,
   SImm<"imm", 32, 32>],
  "rd = func(rs1, imm), 32-bit wrapping.">;
def CMP : Inst<0x06, SCALAR, "cmp",
  [EnumField<"func", 8, 4, CmpEnum>, Reg<"rd", 12>, Reg<"rs1", 16>, Reg<"rs2", 20>],
  "rd = func(rs1, rs2) ? 1 : 0.">;
def BR : Inst<0x07, SCALAR, "br",
  [EnumField<"cond", 8, 4, CmpEnum>, Reg<"rs1", 16>, Reg<"rs2", 20>,
   SImm<"offset", 32, 32, "target relative to this instruction">],
  "If cond(rs1, rs2), continue at this instruction + offset.">;
def JMP : Inst<0x08, SCALAR, "jmp",
  [SImm<"offset", 32, 32, "target relative to this instruction">],
  "Continue at this instruction + offset.">;
def LOOP : Inst<0x09, SCALAR, "loop",
  [Reg<"rc", 16, "register added to count">, UImm<"count", 32, 16, "iterations">,
   Extent<"body", 64, 16, "instructions in the body, which follows">],
  "Hardware loop: run the next `body` instructions count + rc times (0: skip). "
  "Loops nest up to 4 deep.">;

//===----------------------------------------------------------------------===//
// Synchronisation (opcodes 0x10-0x1f)
//===----------------------------------------------------------------------===//

def SET_FLAG : Inst<0x10, BY_FIELD, "set_flag",
  [EnumField<"eng", 8, 3, EngineEnum, "engine that executes it (the source)">,
   EnumField<"peer", 12, 3, EngineEnum, "engine the flag signals (destination)">,
   URange<"id", 16, 4, 0, 7, "flag index; the target may have fewer">],
  "On engine eng, set flag (eng -> peer, id) once every earlier instruction of eng has "
  "completed; eng goes on with its queue meanwhile (a deferred set, not a stall). "
  "Setting a flag that is already set is a fault.">;
def WAIT_FLAG : Inst<0x11, BY_FIELD, "wait_flag",
  [EnumField<"eng", 8, 3, EngineEnum, "engine that waits (the destination)">,
   EnumField<"peer", 12, 3, EngineEnum, "engine that sets the flag (source)">,
   URange<"id", 16, 4, 0, 7, "flag index; the target may have fewer">],
  "Block engine eng until flag (peer -> eng, id) is set, then clear it.">;
def BARRIER : Inst<0x12, SCALAR, "barrier",
  [URange<"mask", 8, 4, 1, 15, "bit 0 DMA_IN, 1 DMA_OUT, 2 MATRIX, 3 VECTOR">],
  "SCALAR stalls until the queues of the named engines have drained.">;

//===----------------------------------------------------------------------===//
// DMA (DMA_IN 0x20-0x2f, DMA_OUT 0x30-0x3f)
//
// A transfer is described by the engine's descriptor registers, set by the
// configuration instructions below (they run in the engine's queue, in order),
// plus the addresses in the starting instruction. Dimension 0 is innermost.
//===----------------------------------------------------------------------===//

multiclass DmaConfig<int base, Engine eng, string p> {
  def _SHAPE : Inst<base, eng, p # "_shape",
    [Extent<"n0", 8, 16>, Extent<"n1", 24, 16>, Extent<"n2", 40, 16>,
     Extent<"n3", 56, 16>],
    "Set the transfer's extents (dimension 0 innermost).">;
  def _SSTRIDE : Inst<!add(base, 1), eng, p # "_sstride",
    [SBytes<"s0", 8, 28>, SBytes<"s1", 36, 28>, SBytes<"s2", 64, 28>,
     SBytes<"s3", 92, 28>],
    "Set the source strides in bytes, per dimension.">;
  def _DSTRIDE : Inst<!add(base, 2), eng, p # "_dstride",
    [SBytes<"s0", 8, 28>, SBytes<"s1", 36, 28>, SBytes<"s2", 64, 28>,
     SBytes<"s3", 92, 28>],
    "Set the destination strides in bytes, per dimension.">;
}
defm DMA_IN : DmaConfig<0x20, DMA_IN, "dma_in">;
defm DMA_OUT : DmaConfig<0x30, DMA_OUT, "dma_out">;

def DMA_IN_PAD : Inst<0x23, DMA_IN, "dma_in_pad",
  [UImm<"lo0", 8, 8>, UImm<"lo1", 16, 8>, UImm<"lo2", 24, 8>, UImm<"lo3", 32, 8>,
   UImm<"hi0", 40, 8>, UImm<"hi1", 48, 8>, UImm<"hi2", 56, 8>, UImm<"hi3", 64, 8>,
   Field<"fill", 96, 32, 0, 0, 4294967295, "fill bits (low elem bytes used)">],
  "Set padding: a padded DMA_IN writes a box of n_i + lo_i + hi_i elements per "
  "dimension and fills the elements outside the source with `fill`.">;
def DMA_IN_START : Inst<0x24, DMA_IN, "dma_in",
  [EnumField<"src_region", 8, 3, RegionEnum>, Reg<"src_reg", 12>,
   EnumField<"dst_space", 16, 2, DmaDstEnum>, EnumField<"elem", 18, 2, ElemEnum>,
   Flag<"pad", 20, "apply the DMA_IN_PAD descriptor">, Reg<"dst_reg", 24>,
   Granule<"dst_addr", 32>, Bytes32<"src_off", 64>],
  "Copy GM[src_region, src_off + r[src_reg]] to dst_space[dst_addr*32 + r[dst_reg]] "
  "using the descriptor registers.">;
def DMA_OUT_START : Inst<0x34, DMA_OUT, "dma_out",
  [EnumField<"src_space", 8, 1, LocalEnum>, Reg<"src_reg", 12>,
   EnumField<"dst_region", 16, 3, RegionEnum>, EnumField<"elem", 20, 2, ElemEnum>,
   Reg<"dst_reg", 24>, Granule<"src_addr", 32>, Bytes32<"dst_off", 64>],
  "Copy src_space[src_addr*32 + r[src_reg]] to GM[dst_region, dst_off + r[dst_reg]] "
  "using the descriptor registers.">;

// Indexed data movement (npu-v1.md section 5, the 2026-12 extension): a
// gather moves boxes of GM rows chosen by a list of int32 indices in LM. The
// descriptor registers give the box (n0 x n1 x n2, strides s0..s2 in GM and
// d0..d2 in LM) and the list's length n3; the index k of entry i selects the
// box at k * s3 in GM and lands at i * d3 in LM.
def DMA_IN_IDX : Inst<0x25, DMA_IN, "dma_in_idx",
  [Reg<"idx_reg", 8>, Granule<"idx_addr", 16, "the int32 index list in LM">,
   URange<"rows", 32, 32, 1, 2147483647, "rows of the source tensor: every index is in [0, rows)">],
  "Set the index list of the next dma_in_gather: n3 int32 indices at LM[idx_addr*32 + r[idx_reg]], "
  "each checked against `rows`; r[idx_reg] is the value the gather captures when it issues.">;
def DMA_IN_GATHER : Inst<0x26, DMA_IN, "dma_in_gather",
  [EnumField<"src_region", 8, 3, RegionEnum>, Reg<"src_reg", 12>,
   EnumField<"elem", 18, 2, ElemEnum>, Reg<"dst_reg", 24>,
   Granule<"dst_addr", 32>, Bytes32<"src_off", 64, "the source tensor's first row">],
  "For each entry i < n3 of the dma_in_idx list, in order: the index k is checked to lie in "
  "[0, rows) (else a fault that names the instruction, the source tensor and the index), then the "
  "box at GM[src_region, src_off + r[src_reg] + k * s3] is copied to LM[dst_addr*32 + r[dst_reg] + "
  "i * d3]. Each row is its own GM transfer: the bus time is n3 times the box's "
  "(timing::gatherBusBytes), one start latency.">;

// The scatter: boxes of LM rows land on GM rows chosen by a list of int32
// indices in LM, in list order (a repeated index sees the rows before it),
// combined with what is there by `func`. The DMA_OUT descriptor registers
// give the box (strides s0..s2 in LM, d0..d2 in GM) and the list's length
// n3; entry i's box is at i * s3 in LM and lands at k * d3 in GM.
def DMA_OUT_IDX : Inst<0x35, DMA_OUT, "dma_out_idx",
  [Reg<"idx_reg", 8>, Granule<"idx_addr", 16, "the int32 index list in LM">,
   URange<"rows", 32, 32, 1, 2147483647, "rows of the destination tensor: every index is in [0, rows)">,
   EnumField<"func", 64, 2, ScatterEnum>,
   EnumField<"dtype", 68, 4, DTypeEnum, "the element type `func` combines in">],
  "Set the index list and the combining function of the next dma_out_scatter: n3 int32 "
  "indices at LM[idx_addr*32 + r[idx_reg]], each checked against `rows`; r[idx_reg] is the value "
  "the scatter captures when it issues.">;
def DMA_OUT_SCATTER : Inst<0x36, DMA_OUT, "dma_out_scatter",
  [Reg<"src_reg", 12>, EnumField<"dst_region", 16, 3, RegionEnum>, EnumField<"elem", 20, 2, ElemEnum>,
   Reg<"dst_reg", 24>, Granule<"src_addr", 32>, Bytes32<"dst_off", 64, "the destination tensor's first row">],
  "For each entry i < n3 of the dma_out_idx list, in order: the index k is checked to lie in [0, rows) "
  "(else a fault that names the instruction, the destination tensor and the index), then the box at "
  "LM[src_addr*32 + r[src_reg] + i * s3] is combined by func into GM[dst_region, dst_off + r[dst_reg] + "
  "k * d3]: NONE writes it; ADD, MAX and MIN read the GM row and write func(GM, LM) in dtype. Each row "
  "is its own GM transfer (twice with a func that reads: timing::gatherBusBytes per pass).">;

//===----------------------------------------------------------------------===//
// MATRIX (0x40-0x4f)
//===----------------------------------------------------------------------===//

def MM_CFG : Inst<0x40, MATRIX, "mm_cfg",
  [UBytes<"lda", 8, 16, "row pitch of A in LM">, UBytes<"ldb", 24, 16, "row pitch of B in LM">,
   UBytes<"ldc", 40, 16, "row pitch of C in ACC">,
   SRange<"a_zp", 56, 10, -128, 255, "zero point subtracted from A">,
   SRange<"b_zp", 66, 10, -128, 255, "zero point subtracted from B">],
  "Set the MATRIX descriptor: operand pitches and zero points.">;
def MATMUL : Inst<0x41, MATRIX, "matmul",
  [EnumField<"mode", 8, 3, MmModeEnum>, Flag<"acc", 11, "add to C instead of overwriting it">,
   Reg<"a_reg", 12>, Reg<"b_reg", 16>, Reg<"c_reg", 20>,
   Granule<"a_addr", 24, "A[m][k] in LM">, Granule<"b_addr", 40, "B[k][n] in LM">,
   Granule<"c_addr", 56, "C[m][n] in ACC">,
   Extent<"m", 72, 12>, Extent<"n", 84, 12>, Extent<"k", 96, 12>],
  "C (+)= (A - a_zp) x (B - b_zp): int8/uint8 modes accumulate exactly in int32, "
  "float modes in fp32.">;

def MM_RQ_CFG : Inst<0x42, MATRIX, "mm_rq_cfg",
  [URange<"mult", 8, 32, 0, 2147483647, "Q31 multiplier M (pmode TENSOR)">,
   UImm<"ls", 40, 5, "left shift">, UImm<"rs", 45, 5, "rounding right shift">,
   SImm<"zp", 50, 16, "output zero point">, SImm<"lo", 66, 16, "clamp low">,
   SImm<"hi", 82, 16, "clamp high">,
   UBytes<"ldd", 98, 16, "row pitch of the LM destination">],
  "Set the output stage's per-tensor requantization and its destination pitch.">;
def MM_OUT : Inst<0x43, MATRIX, "mm_out",
  [EnumField<"otype", 8, 4, DTypeEnum>, EnumField<"pmode", 12, 2, PModeEnum>,
   Flag<"bias", 14, "add an int32 bias per column (per row with bias_row) first">,
   Reg<"a_reg", 16>, Reg<"d_reg", 20>, Reg<"p_reg", 24>, Reg<"b_reg", 28>,
   Granule<"a_addr", 32, "int32 accumulators in ACC, rows mm_cfg.ldc apart">,
   Granule<"d_addr", 48, "result in LM, rows mm_rq_cfg.ldd apart">,
   Granule<"p_addr", 64, "parameter table in LM (pmode COL or ROW)">,
   Granule<"b_addr", 80, "int32 bias in LM">,
   Extent<"m", 96, 12>, Extent<"n", 108, 12>,
   Flag<"bias_row", 120, "the bias is per row, whatever pmode">],
  "The output stage: d = clamp(zp + RoundingRightShift(SaturatingRoundingDoublingHighMul("
  "Saturate(a + bias) << ls, M), rs)) cast to otype, drained from ACC to LM at A elements "
  "per cycle while the array runs its next pass. The stage latches the accumulators when it "
  "issues, so a later matmul may overwrite them at once.">;

// Depthwise mode of the array (npu-v1.md section 9: "serve it by a depthwise
// mode of the array, by multiply-accumulate on VECTOR, or both"). The array
// holds one channel per column, the channel's taps down the column (K = taps),
// and streams one output pixel per cycle, each column fed from its own
// channel's window: ceil(taps / A) * ceil(channels / A) passes of
// max(pixels, A) cycles. Operands as V_DW's (channels are rows of each
// operand); the pitches within a channel and the zero points come from
// MM_CFG (lda: image rows, ldb: taps, ldc: results), the rest from MM_DW_CFG.
def MM_DW_CFG : Inst<0x44, MATRIX, "mm_dw_cfg",
  [URange<"kh", 8, 4, 1, 15, "window rows">, URange<"kw", 12, 4, 1, 15, "window columns">,
   URange<"sh", 16, 4, 1, 15, "row stride">, URange<"sw", 20, 4, 1, 15, "column stride">,
   URange<"dh", 24, 4, 1, 15, "row dilation">, URange<"dw", 28, 4, 1, 15, "column dilation">,
   Extent<"orows", 32, 12, "output rows per channel">,
   UBytes<"a_pitch", 44, 24, "pitch of the channels of the image">,
   UBytes<"e_pitch", 68, 16, "pitch of the bias rows (mm_dw bias)">,
   UImm<"pt", 84, 4, "padding rows above the image">, UImm<"pl", 88, 4, "padding columns left of it">,
   Extent<"ih", 92, 16, "image rows">, Extent<"iw", 108, 16, "image columns">],
  "Set the array's depthwise window: size, strides, dilations, the output rows, the image's "
  "channel pitch, the bias pitch, and the image's extent and padding: the feeder pads.">;
def MM_DW : Inst<0x45, MATRIX, "mm_dw",
  [EnumField<"mode", 8, 3, MmModeEnum>, Flag<"acc", 11, "add to d instead of overwriting it">,
   Reg<"a_reg", 12>, Reg<"b_reg", 16>, Reg<"d_reg", 20>,
   Granule<"a_addr", 24, "image in LM: channel r at a + r * mm_dw_cfg.a_pitch, rows mm_cfg.lda apart">,
   Granule<"b_addr", 40, "taps in LM: channel r's kh * kw at b + r * mm_cfg.ldb">,
   Granule<"d_addr", 56, "int32 (float modes: fp32) results in ACC: channel r's orows x cols at d + r * mm_cfg.ldc">,
   Reg<"e_reg", 72>, Granule<"e_addr", 76, "the per-channel fp32 bias (with bias)">,
   Flag<"bias", 92, "float modes: add channel r's fp32 bias, at e + r * mm_dw_cfg.e_pitch, to each sum">,
   Flag<"relu", 93, "float modes: then max(sum, 0) (NaN kept)">,
   Extent<"channels", 94, 12, "channels (columns of the array, A per pass)">,
   Extent<"cols", 106, 12, "output columns per output row">],
  "d[r][o][c] (+)= sum over i < kh, j < kw, in that order, of (a[r][y][x] - a_zp) "
  "x (b[r][i*kw + j] - b_zp), y = o*sh + i*dh - pt, x = c*sw + j*dw - pl, for channels r, output "
  "rows o < orows and columns c < cols: V_DW's multiply-accumulate (integer modes exactly in "
  "int32, float modes one IEEE product and sum per tap from 0 or d, then `bias` and `relu` as "
  "V_DW's), on the array. A tap outside the image (y not in [0, ih) or x not in [0, iw)) reads "
  "a_zp there (+0.0 in float modes), as an image padded with the zero point would, and no "
  "memory: the feeder pads. "
  "The image needs only its element alignment; the taps and d start on the vector granule. Takes 2A + ceil(kh * kw / A) * ceil(channels / A) * max(orows * cols, A) "
  "cycles (A the array side of the mode).">;

//===----------------------------------------------------------------------===//
// VECTOR (0x50-0x6f)
//
// VECTOR instructions work on a rows x cols grid set by V_SHAPE. Operand a, b
// and d rows start pitch bytes apart; a pitch of 0 repeats one row, a bcast bit
// repeats column 0 across the row (a per-row scalar).
//===----------------------------------------------------------------------===//

def V_SHAPE : Inst<0x50, VECTOR, "v_shape",
  [Extent<"rows", 8, 16>, Extent<"cols", 24, 16>,
   SBytes<"a_pitch", 40, 24>, SBytes<"b_pitch", 64, 24>, SBytes<"d_pitch", 88, 24>,
   Flag<"a_bcast", 112>, Flag<"b_bcast", 113>],
  "Set the VECTOR grid and the operands' row pitches.">;
def V_BIN : Inst<0x51, VECTOR, "v_bin",
  [EnumField<"func", 8, 4, VBinEnum>, EnumField<"dtype", 12, 4, DTypeEnum>,
   EnumField<"a_space", 16, 1, LocalEnum>, EnumField<"b_space", 17, 1, LocalEnum>,
   EnumField<"d_space", 18, 1, LocalEnum>,
   Reg<"a_reg", 20>, Reg<"b_reg", 24>, Reg<"d_reg", 28>,
   Granule<"a_addr", 32>, Granule<"b_addr", 48>, Granule<"d_addr", 64>],
  "d = func(a, b) elementwise.">;
def V_BINI : Inst<0x52, VECTOR, "v_bini",
  [EnumField<"func", 8, 4, VBinEnum>, EnumField<"dtype", 12, 4, DTypeEnum>,
   EnumField<"a_space", 16, 1, LocalEnum>, EnumField<"d_space", 18, 1, LocalEnum>,
   Reg<"a_reg", 20>, Reg<"d_reg", 28>,
   Granule<"a_addr", 32>, Granule<"d_addr", 64>,
   Field<"imm", 96, 32, 0, 0, 4294967295, "scalar b: integer, or fp32 bits"> ],
  "d = func(a, imm) elementwise.">;
def V_UN : Inst<0x53, VECTOR, "v_un",
  [EnumField<"func", 8, 5, VUnEnum>, EnumField<"dtype", 16, 4, DTypeEnum>,
   EnumField<"a_space", 20, 1, LocalEnum>, EnumField<"d_space", 22, 1, LocalEnum>,
   Reg<"a_reg", 24>, Reg<"d_reg", 28>, Granule<"a_addr", 32>, Granule<"d_addr", 64>],
  "d = func(a) elementwise.">;
def V_RQ_CFG : Inst<0x54, VECTOR, "v_rq_cfg",
  [URange<"mult", 8, 32, 0, 2147483647, "Q31 multiplier M">,
   UImm<"ls", 40, 5, "left shift">, UImm<"rs", 45, 5, "rounding right shift">,
   SImm<"zp", 50, 16, "output zero point">, SImm<"lo", 66, 16, "clamp low">,
   SImm<"hi", 82, 16, "clamp high">],
  "Set the per-tensor requantization parameters.">;
def V_REQUANT : Inst<0x55, VECTOR, "v_requant",
  [EnumField<"otype", 8, 4, DTypeEnum>, EnumField<"pmode", 12, 2, PModeEnum>,
   EnumField<"a_space", 16, 1, LocalEnum>, EnumField<"d_space", 18, 1, LocalEnum>,
   Reg<"a_reg", 20>, Reg<"d_reg", 24>, Reg<"p_reg", 28>,
   Granule<"a_addr", 32, "int32 input">, Granule<"d_addr", 48>,
   Granule<"p_addr", 64, "parameter table in LM (pmode COL or ROW)">],
  "d = clamp(zp + RoundingRightShift(SaturatingRoundingDoublingHighMul(a << ls, M), rs)).">;
def V_LUT : Inst<0x56, VECTOR, "v_lut",
  [UImm<"table", 8, 2>, EnumField<"itype", 12, 4, DTypeEnum>,
   EnumField<"otype", 16, 4, DTypeEnum>,
   EnumField<"a_space", 20, 1, LocalEnum>, EnumField<"d_space", 21, 1, LocalEnum>,
   Reg<"a_reg", 24>, Reg<"d_reg", 28>, Granule<"a_addr", 32>, Granule<"d_addr", 48>],
  "d = LUT[table](a): 8-bit inputs index 256 entries, 16-bit inputs interpolate 512.">;
def V_REDUCE : Inst<0x57, VECTOR, "v_reduce",
  [EnumField<"func", 8, 2, ReduceEnum>, EnumField<"axis", 10, 1, AxisEnum>,
   EnumField<"itype", 12, 4, DTypeEnum>,
   EnumField<"a_space", 16, 1, LocalEnum>, EnumField<"d_space", 18, 1, LocalEnum>,
   Reg<"a_reg", 20>, Reg<"d_reg", 24>, Granule<"a_addr", 32>, Granule<"d_addr", 48>,
   EnumField<"otype", 80, 4, DTypeEnum>],
  "Reduce a along axis with func; integer SUM accumulates in int32.">;
def V_CAST : Inst<0x58, VECTOR, "v_cast",
  [EnumField<"itype", 8, 4, DTypeEnum>, EnumField<"otype", 12, 4, DTypeEnum>,
   EnumField<"a_space", 16, 1, LocalEnum>, EnumField<"d_space", 18, 1, LocalEnum>,
   Reg<"a_reg", 20>, Reg<"d_reg", 24>, Granule<"a_addr", 32>, Granule<"d_addr", 48>],
  "d = convert(a): round to nearest even, saturate to the output type.">;
def V_CMP : Inst<0x59, VECTOR, "v_cmp",
  [EnumField<"func", 8, 4, CmpEnum>, EnumField<"dtype", 12, 4, DTypeEnum>,
   EnumField<"a_space", 16, 1, LocalEnum>, EnumField<"b_space", 17, 1, LocalEnum>,
   EnumField<"d_space", 18, 1, LocalEnum>,
   Reg<"a_reg", 20>, Reg<"b_reg", 24>, Reg<"d_reg", 28>,
   Granule<"a_addr", 32>, Granule<"b_addr", 48>, Granule<"d_addr", 64>],
  "d = func(a, b) ? 1 : 0, as int8 (LTU and GEU are not allowed here).">;
def V_SEL : Inst<0x5a, VECTOR, "v_sel",
  [EnumField<"dtype", 12, 4, DTypeEnum>,
   EnumField<"a_space", 16, 1, LocalEnum>, EnumField<"b_space", 17, 1, LocalEnum>,
   EnumField<"d_space", 18, 1, LocalEnum>, EnumField<"m_space", 19, 1, LocalEnum>,
   Reg<"a_reg", 20>, Reg<"b_reg", 24>, Reg<"d_reg", 28>, Reg<"m_reg", 32>,
   Granule<"a_addr", 48>, Granule<"b_addr", 64>, Granule<"d_addr", 80>,
   Granule<"m_addr", 96, "int8 mask, read with d's pitch">],
  "d = m != 0 ? a : b elementwise.">;

// Quantize and dequantize in one pass each: the same f32 steps as V_CAST and
// V_BINI in sequence, so the same values, at one pass's cost.
def V_DEQUANT : Inst<0x5d, VECTOR, "v_dequant",
  [EnumField<"itype", 8, 4, DTypeEnum>,
   EnumField<"a_space", 16, 1, LocalEnum>, EnumField<"d_space", 18, 1, LocalEnum>,
   Reg<"a_reg", 20>, Reg<"d_reg", 24>, Granule<"a_addr", 32>, Granule<"d_addr", 48>,
   Field<"scale", 64, 32, 0, 0, 4294967295, "fp32 bits of the scale">,
   SImm<"zp", 96, 16, "zero point">],
  "d = (fp32(a) - zp) * scale, fp32 d from integer a: the conversion and the subtraction "
  "are exact for 8- and 16-bit a, the product rounds to nearest even (ONNX "
  "DequantizeLinear).">;
def V_QUANT : Inst<0x5e, VECTOR, "v_quant",
  [EnumField<"otype", 12, 4, DTypeEnum>,
   EnumField<"a_space", 16, 1, LocalEnum>, EnumField<"d_space", 18, 1, LocalEnum>,
   Reg<"a_reg", 20>, Reg<"d_reg", 24>, Granule<"a_addr", 32>, Granule<"d_addr", 48>,
   Field<"scale", 64, 32, 0, 0, 4294967295, "fp32 bits of the scale">,
   SImm<"zp", 96, 16, "zero point">],
  "d = saturate(round_half_even(a / scale) + zp) to the integer otype, from fp32 a: the "
  "division and the sum round to nearest even in fp32 (the sum is exact for results in "
  "range), as ONNX QuantizeLinear; NaN gives 0, as V_CAST.">;

// Depthwise convolution on VECTOR (npu-v1.md section 9): the weight-stationary
// array would hold one channel per column and use taps/A of itself, so a
// depthwise window is multiply-accumulated on VECTOR instead, lanes / element
// bytes MACs per cycle. The grid's rows are channels, its columns one output
// row's pixels; V_DW_CFG gives the window and the output rows per channel.
def V_DW_CFG : Inst<0x5b, VECTOR, "v_dw_cfg",
  [URange<"kh", 8, 4, 1, 15, "window rows">, URange<"kw", 12, 4, 1, 15, "window columns">,
   URange<"sh", 16, 4, 1, 15, "row stride">, URange<"sw", 20, 4, 1, 15, "column stride">,
   URange<"dh", 24, 4, 1, 15, "row dilation">, URange<"dw", 28, 4, 1, 15, "column dilation">,
   UBytes<"lda", 32, 16, "pitch of the image rows of one channel">,
   Extent<"orows", 48, 12, "output rows per channel">,
   SRange<"a_zp", 60, 10, -128, 255, "zero point subtracted from the image">,
   SRange<"b_zp", 70, 10, -128, 255, "zero point subtracted from the taps">,
   UBytes<"e_pitch", 80, 16, "pitch of the bias rows (v_dw bias)">,
   UImm<"pt", 96, 4, "padding rows above the image (func MAC)">,
   UImm<"pl", 100, 4, "padding columns left of it (func MAC)">,
   UImm<"ih", 104, 12, "image rows (0: every row the window reaches)">,
   UImm<"iw", 116, 12, "image columns (0: every column the window reaches)">],
  "Set the depthwise window: size, strides, dilations, the image row pitch, the output rows, "
  "the zero points, the bias pitch, and the image's extent and padding.">;
def V_DW : Inst<0x5c, VECTOR, "v_dw",
  [EnumField<"mode", 8, 3, MmModeEnum>, Flag<"acc", 11, "combine with d instead of overwriting it">,
   EnumField<"d_space", 12, 1, LocalEnum>, EnumField<"func", 13, 2, WindowEnum>,
   Reg<"a_reg", 16>, Reg<"b_reg", 20>, Reg<"d_reg", 24>,
   Granule<"a_addr", 32, "image in LM: channel r at a + r * v_shape.a_pitch, rows lda apart">,
   Granule<"b_addr", 48, "taps in LM: channel r's kh * kw at b + r * v_shape.b_pitch">,
   Granule<"d_addr", 64, "int32 (float modes: fp32) results: channel r's orows x cols at d + r * v_shape.d_pitch">,
   Flag<"bias", 15, "float modes: add channel r's fp32 bias, at e + r * v_dw_cfg.e_pitch, to each sum">,
   Flag<"relu", 28, "float modes: then max(sum, 0) (NaN kept)">,
   Reg<"e_reg", 96>, Granule<"e_addr", 80, "the per-channel fp32 bias (with bias)">],
  "d[r][o][c] (+)= sum over i < kh, j < kw, in that order, of (a[r][y][x] - a_zp) "
  "x (b[r][i*kw + j] - b_zp), y = o*sh + i*dh - pt, x = c*sw + j*dw - pl, for rows r and columns c "
  "of the grid and output rows o < orows: integer modes exactly in int32, float modes one IEEE "
  "product and sum per tap from 0 (or d). A tap outside the image (y not in [0, ih) or x not in "
  "[0, iw)) reads a_zp there (+0.0 in float modes) and no memory: the feeder pads. "
  "With func MAX or SUM the taps and zero points are not read: d is the maximum (NaN if any "
  "tap is NaN) or the sum of the window's image elements, from the first tap in the same order "
  "(or from d with acc), integers exactly in int32; they take no padding (pt = pl = 0, and the "
  "window must stay inside the image). "
  "In float modes with func MAC, `bias` adds the channel's bias to each finished sum (one IEEE "
  "sum) and `relu` then keeps max(sum, 0): the VECTOR passes a convolution's epilogue would "
  "run, done as the sums are written. "
  "The image needs only its element alignment (the window reads it at any tap); the taps and "
  "d start on the vector granule. Takes 4 + ceil(MACs * element bytes / lanes) cycles.">;
