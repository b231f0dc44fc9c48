// One case per diagnostic of the emit type parser and verifiers
// (EmitDialect.cpp) and of the emit op verifiers (EmitOps.cpp).
// RUN: npuc-opt %s -split-input-file -verify-diagnostics

emit.program target "npu-v1" {
  // expected-error @+1 {{unknown memory space 'sram' (expected const, arena, input, output, state, lm, acc or lut)}}
  %0 = emit.alloc : !emit.buffer<sram, 4xi8, strides = [1]>
}

// -----
emit.program target "npu-v1" {
  // expected-error @+1 {{buffer has rank 2 but 1 strides}}
  %0 = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [1]>
}

// -----
emit.program target "npu-v1" {
  // expected-error @+1 {{buffer dimension 0 must be >= 1}}
  %0 = emit.alloc : !emit.buffer<lm, 4x0xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  // expected-error @+1 {{buffer stride -32 must be >= 0 (0 broadcasts)}}
  %0 = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [-32, 1]>
}

// -----
emit.program target "npu-v1" {
  // expected-error @+1 {{buffer element type 'i64' is not a storage type (i8, i16, i32, ui8, f16, f32)}}
  %0 = emit.alloc : !emit.buffer<arena, 4xi64, strides = [8]>
}

// -----
emit.program target "npu-v1" {
  // expected-error @+1 {{acc holds i32 or f32 accumulators, not 'i8'}}
  %0 = emit.alloc : !emit.buffer<acc, 4xi8, strides = [1]>
}

// -----
emit.program target "npu-v1" {
  // expected-error @+1 {{lut holds 16-bit entries, not 'f16'}}
  %0 = emit.alloc : !emit.buffer<lut, 512xf16, strides = [2]>
}

// -----
emit.program target "npu-v1" {
  // expected-error @+1 {{a flag connects two different engines, got vector -> vector}}
  %0 = emit.flag : !emit.flag<vector -> vector>
}

// -----
// expected-error @+1 {{'emit.program' op unknown target 'npu-v2'; valid targets: npu-v1, npu-v1-tiny}}
emit.program target "npu-v2" {
}

// -----
// The program checks capacity: npu-v1-tiny has 131072 bytes of LM.
emit.program target "npu-v1-tiny" {
  // expected-error @+1 {{'emit.alloc' op buffer at offset 131040 spanning 64 bytes exceeds the lm capacity of npu-v1-tiny (131072 bytes)}}
  %0 = emit.alloc {offset = 131040} : !emit.buffer<lm, 2x32xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  // expected-error @+1 {{'emit.alloc' op offset -64 is negative}}
  %0 = emit.alloc {offset = -64} : !emit.buffer<arena, 4xi8, strides = [1]>
}

// -----
emit.program target "npu-v1" {
  // expected-error @+1 {{'emit.alloc' op acc offset 48 is not a multiple of the 32-byte granule}}
  %0 = emit.alloc {offset = 48} : !emit.buffer<acc, 4xi32, strides = [4]>
}

// -----
// The alloc checks encodability (lut has no capacity check in the program).
emit.program target "npu-v1" {
  // expected-error @+1 {{'emit.alloc' op buffer at offset 2096160 spanning 1024 bytes exceeds the encodable local address range (2097152 bytes)}}
  %0 = emit.alloc {offset = 2096160} : !emit.buffer<lut, 512xi16, strides = [2]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4xi8, strides = [1]>
  %b = emit.alloc : !emit.buffer<lut, 4xi16, strides = [2]>
  // expected-error @+1 {{'emit.dma' op cannot move lm -> lut: DMA_IN copies GM to lm/acc/lut, DMA_OUT lm/acc to GM}}
  emit.dma %a -> %b : !emit.buffer<lm, 4xi8, strides = [1]> -> !emit.buffer<lut, 4xi16, strides = [2]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<input, 4xi8, strides = [1]>
  %b = emit.alloc : !emit.buffer<lm, 4xui8, strides = [1]>
  // expected-error @+1 {{'emit.dma' op element types differ: 'i8' -> 'ui8'}}
  emit.dma %a -> %b : !emit.buffer<input, 4xi8, strides = [1]> -> !emit.buffer<lm, 4xui8, strides = [1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<input, 1x1x1x2x4xi8, strides = [8, 8, 8, 4, 1]>
  %b = emit.alloc : !emit.buffer<lm, 1x1x1x2x4xi8, strides = [64, 64, 64, 32, 1]>
  // expected-error @+1 {{'emit.dma' op needs equal ranks of at most 4, got 5 -> 5}}
  emit.dma %a -> %b : !emit.buffer<input, 1x1x1x2x4xi8, strides = [8, 8, 8, 4, 1]> -> !emit.buffer<lm, 1x1x1x2x4xi8, strides = [64, 64, 64, 32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<acc, 4xi32, strides = [4]>
  %b = emit.alloc : !emit.buffer<output, 4xi32, strides = [4]>
  // expected-error @+1 {{'emit.dma' op padding is a DMA_IN feature}}
  emit.dma %a -> %b {fill = 0} : !emit.buffer<acc, 4xi32, strides = [4]> -> !emit.buffer<output, 4xi32, strides = [4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<input, 2x4xi8, strides = [4, 1]>
  %b = emit.alloc : !emit.buffer<lm, 3x4xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.dma' op pad_lo and pad_hi need 2 entries each}}
  emit.dma %a -> %b {pad_lo = array<i64: 1, 0>} : !emit.buffer<input, 2x4xi8, strides = [4, 1]> -> !emit.buffer<lm, 3x4xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<input, 2x4xi8, strides = [4, 1]>
  %b = emit.alloc : !emit.buffer<lm, 2x260xi8, strides = [288, 1]>
  // expected-error @+1 {{'emit.dma' op pads of dimension 1 (0, 256) are outside [0, 255]}}
  emit.dma %a -> %b {pad_lo = array<i64: 0, 0>, pad_hi = array<i64: 0, 256>} : !emit.buffer<input, 2x4xi8, strides = [4, 1]> -> !emit.buffer<lm, 2x260xi8, strides = [288, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<input, 2x4xi8, strides = [4, 1]>
  %b = emit.alloc : !emit.buffer<lm, 3x4xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.dma' op destination shape 3x4 is not the source shape 2x4 plus its pads}}
  emit.dma %a -> %b {pad_lo = array<i64: 0, 0>, pad_hi = array<i64: 0, 0>} : !emit.buffer<input, 2x4xi8, strides = [4, 1]> -> !emit.buffer<lm, 3x4xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  %c = emit.alloc : !emit.buffer<lm, 4x4xi32, strides = [32, 4]>
  // expected-error @+1 {{'emit.matmul' op expects a and b in lm and c in acc}}
  emit.matmul %a, %a -> %c : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>, !emit.buffer<lm, 4x4xi8, strides = [32, 1]> -> !emit.buffer<lm, 4x4xi32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 16xi8, strides = [1]>
  %c = emit.alloc : !emit.buffer<acc, 4x4xi32, strides = [32, 4]>
  // expected-error @+1 {{'emit.matmul' op expects 2-D a, b and c}}
  emit.matmul %a, %a -> %c : !emit.buffer<lm, 16xi8, strides = [1]>, !emit.buffer<lm, 16xi8, strides = [1]> -> !emit.buffer<acc, 4x4xi32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x8xi8, strides = [32, 1]>
  %b = emit.alloc : !emit.buffer<lm, 8x2xi8, strides = [32, 1]>
  %c = emit.alloc : !emit.buffer<acc, 4x3xi32, strides = [32, 4]>
  // expected-error @+1 {{'emit.matmul' op shapes 4x8 x 8x2 -> 4x3 do not form a matrix product}}
  emit.matmul %a, %b -> %c : !emit.buffer<lm, 4x8xi8, strides = [32, 1]>, !emit.buffer<lm, 8x2xi8, strides = [32, 1]> -> !emit.buffer<acc, 4x3xi32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4096xi8, strides = [4096, 1]>
  %b = emit.alloc : !emit.buffer<lm, 4096x2xi8, strides = [32, 1]>
  %c = emit.alloc : !emit.buffer<acc, 4x2xi32, strides = [32, 4]>
  // expected-error @+1 {{'emit.matmul' op extent 4096 exceeds the MATRIX extent field (at most 4095): tile it}}
  emit.matmul %a, %b -> %c : !emit.buffer<lm, 4x4096xi8, strides = [4096, 1]>, !emit.buffer<lm, 4096x2xi8, strides = [32, 1]> -> !emit.buffer<acc, 4x2xi32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xf16, strides = [32, 2]>
  %b = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
  %c = emit.alloc : !emit.buffer<acc, 4x4xf32, strides = [32, 4]>
  // expected-error @+1 {{'emit.matmul' op no MATRIX mode computes 'f16' x 'f32' -> 'f32'}}
  emit.matmul %a, %b -> %c : !emit.buffer<lm, 4x4xf16, strides = [32, 2]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]> -> !emit.buffer<acc, 4x4xf32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xf16, strides = [32, 2]>
  %c = emit.alloc : !emit.buffer<acc, 4x4xf32, strides = [32, 4]>
  // expected-error @+1 {{'emit.matmul' op zero point 1 is outside [-128, 255] (and must be 0 in float modes)}}
  emit.matmul %a, %a -> %c {b_zp = 1} : !emit.buffer<lm, 4x4xf16, strides = [32, 2]>, !emit.buffer<lm, 4x4xf16, strides = [32, 2]> -> !emit.buffer<acc, 4x4xf32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  // expected-error @+1 {{custom op 'emit.vbin' invalid func attribute specification: "add"}}
  emit.vbin "add" %a, %a -> %a : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>, !emit.buffer<lm, 4x4xi8, strides = [32, 1]> -> !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  %g = emit.alloc : !emit.buffer<arena, 4x4xi8, strides = [4, 1]>
  // expected-error @+1 {{'emit.vbin' op expects 2-D operands in lm or acc}}
  emit.vbin MUL %a, %a -> %g : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>, !emit.buffer<lm, 4x4xi8, strides = [32, 1]> -> !emit.buffer<arena, 4x4xi8, strides = [4, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  %d = emit.alloc : !emit.buffer<lm, 4x8xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vbin' op a is 4x4 but d is 4x8}}
  emit.vbin SUB %a, %a -> %d : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>, !emit.buffer<lm, 4x4xi8, strides = [32, 1]> -> !emit.buffer<lm, 4x8xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  %b = emit.alloc : !emit.buffer<lm, 2x4xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vbin' op b of shape 2x4 does not broadcast to 4x4}}
  emit.vbin MAX %a, %b -> %a : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>, !emit.buffer<lm, 2x4xi8, strides = [32, 1]> -> !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<acc, 4x4xi32, strides = [32, 4]>
  %b = emit.alloc : !emit.buffer<acc, 1x1xf32, strides = [0, 0]>
  // expected-error @+1 {{'emit.vbin' op expects equal element types}}
  emit.vbin ADD %a, %b -> %a : !emit.buffer<acc, 4x4xi32, strides = [32, 4]>, !emit.buffer<acc, 1x1xf32, strides = [0, 0]> -> !emit.buffer<acc, 4x4xi32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
  %m = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  // expected-error @+1 {{custom op 'emit.vcmp' expected string or keyword containing one of the following enum values for attribute 'func' [EQ, NE, LT, LE, GT, GE, LTU, GEU]}}
  emit.vcmp LTE %a, %a -> %m : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  %m = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vcmp' op v_cmp has no unsigned comparison LTU}}
  emit.vcmp LTU %a, %a -> %m : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>, !emit.buffer<lm, 4x4xi8, strides = [32, 1]> -> !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  %m = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vcmp' op v_cmp has no unsigned comparison GEU}}
  emit.vcmp GEU %a, %a -> %m : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>, !emit.buffer<lm, 4x4xi8, strides = [32, 1]> -> !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 4x4xi32, strides = [32, 4]>
  // expected-error @+1 {{'emit.vcmp' op d is 'i32'; v_cmp writes i8}}
  emit.vcmp EQ %a, %a -> %d : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x4xi32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 4x4xui8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vcmp' op d is 'ui8'; v_cmp writes i8}}
  emit.vcmp NE %a, %a -> %d : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x4xui8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
  %b = emit.alloc : !emit.buffer<lm, 2x4xf32, strides = [32, 4]>
  %m = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vcmp' op b of shape 2x4 does not broadcast to 4x4}}
  emit.vcmp GT %a, %b -> %m : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>, !emit.buffer<lm, 2x4xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
  %m = emit.alloc : !emit.buffer<lm, 4x8xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vcmp' op a is 4x4 but d is 4x8}}
  emit.vcmp LE %a, %a -> %m : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x8xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
  %b = emit.alloc : !emit.buffer<lm, 1x1xf16, strides = [32, 2]>
  %m = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vcmp' op expects a and b of one element type}}
  emit.vcmp GE %a, %b -> %m : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>, !emit.buffer<lm, 1x1xf16, strides = [32, 2]> -> !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [64, 4]>
  %m = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vsel' op mask row pitch 32 differs from d's 64; v_sel reads the mask with d's pitch}}
  emit.vsel %m ? %a : %a -> %a : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>, !emit.buffer<lm, 4x4xf32, strides = [64, 4]>, !emit.buffer<lm, 4x4xf32, strides = [64, 4]> -> !emit.buffer<lm, 4x4xf32, strides = [64, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
  %m = emit.alloc : !emit.buffer<lm, 4x4xui8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vsel' op mask is 'ui8'; v_sel reads an i8 mask}}
  emit.vsel %m ? %a : %a -> %a : !emit.buffer<lm, 4x4xui8, strides = [32, 1]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
  %m = emit.alloc : !emit.buffer<lm, 4x8xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vsel' op mask is 4x8 but d is 4x4}}
  emit.vsel %m ? %a : %a -> %a : !emit.buffer<lm, 4x8xi8, strides = [32, 1]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
  %b = emit.alloc : !emit.buffer<lm, 4x4xi32, strides = [32, 4]>
  %m = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vsel' op expects equal element types for a, b and d}}
  emit.vsel %m ? %a : %b -> %a : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]>, !emit.buffer<lm, 4x4xi32, strides = [32, 4]> -> !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 4x4xi32, strides = [32, 4]>
  %m = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vsel' op expects equal element types for a, b and d}}
  emit.vsel %m ? %a : %a -> %d : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x4xi32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x1xf32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
  %m = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vsel' op a of shape 2x1 does not broadcast to 4x4}}
  emit.vsel %m ? %a : %d -> %d : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>, !emit.buffer<lm, 2x1xf32, strides = [32, 4]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %b = emit.alloc : !emit.buffer<lm, 2x4xf32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
  %m = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.vsel' op b of shape 2x4 does not broadcast to 4x4}}
  emit.vsel %m ? %d : %b -> %d : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>, !emit.buffer<lm, 4x4xf32, strides = [32, 4]>, !emit.buffer<lm, 2x4xf32, strides = [32, 4]> -> !emit.buffer<lm, 4x4xf32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
  %g = emit.alloc : !emit.buffer<arena, 4x4xi8, strides = [4, 1]>
  // expected-error @+1 {{'emit.vsel' op expects 2-D operands in lm or acc}}
  emit.vsel %g ? %a : %a -> %a : !emit.buffer<arena, 4x4xi8, strides = [4, 1]>, !emit.buffer<lm, 4x4xi8, strides = [32, 1]>, !emit.buffer<lm, 4x4xi8, strides = [32, 1]> -> !emit.buffer<lm, 4x4xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %f = emit.flag : !emit.flag<dma_in -> matrix>
  // expected-error @+1 {{'emit.wait' op waits on a flag that no earlier emit.signal sets (deadlock)}}
  emit.wait %f : !emit.flag<dma_in -> matrix>
  emit.signal %f : !emit.flag<dma_in -> matrix>
}

// -----
emit.program target "npu-v1" {
  // expected-error @+1 {{'emit.barrier' op names no engine}}
  emit.barrier []
}

// -----
emit.program target "npu-v1" {
  // expected-error @+1 {{'emit.barrier' op cannot wait for the scalar engine itself}}
  emit.barrier [#emit<engine matrix>, #emit<engine scalar>]
}

// -----
emit.program target "npu-v1" {
  // expected-error @+1 {{'emit.barrier' op names dma_out twice}}
  emit.barrier [#emit<engine dma_out>, #emit<engine vector>, #emit<engine dma_out>]
}

// -----

// Capacity is checked for allocs nested in tile loops too.
emit.program target "npu-v1-tiny" {
  emit.for %t basis [2] range [0, 2) {
    // expected-error @+1 {{buffer at offset 1048576 spanning 64 bytes exceeds the lm capacity of npu-v1-tiny (131072 bytes)}}
    %0 = emit.alloc {offset = 1048576} : !emit.buffer<lm, 2x32xi8, strides = [32, 1]>
  }
}

// -----

// The LUT memory holds 4 tables of 512 16-bit entries.
emit.program target "npu-v1-tiny" {
  // expected-error @+1 {{buffer at offset 4096 spanning 1024 bytes exceeds the lut capacity of npu-v1-tiny (4096 bytes)}}
  %0 = emit.alloc {offset = 4096} : !emit.buffer<lut, 512xi16, strides = [2]>
}

// -----

// offset + span must not overflow into a small number.
emit.program target "npu-v1-tiny" {
  // expected-error @+1 {{buffer at offset 9223372036854775776 spanning 64 bytes exceeds the encodable local address range (2097152 bytes)}}
  %0 = emit.alloc {offset = 9223372036854775776} : !emit.buffer<lm, 2x32xi8, strides = [32, 1]>
}

// -----

// A wait with no signal anywhere before it, even inside a tile loop, deadlocks.
emit.program target "npu-v1" {
  %f = emit.flag : !emit.flag<matrix -> vector>
  emit.for %t basis [2] range [0, 2) {
    // expected-error @+1 {{waits on a flag that no earlier emit.signal sets (deadlock)}}
    emit.wait %f : !emit.flag<matrix -> vector>
  }
}

// -----

// expected-error @+1 {{buffer element type 'si8' is not a storage type}}
func.func private @signed_storage(!emit.buffer<lm, 4xsi8, strides = [1]>)

// -----

func.func @outside_program() {
  // expected-error @+1 {{'emit.flag' op expects parent op to be one of 'emit.program, emit.for, emit.hw_loop'}}
  %f = emit.flag : !emit.flag<matrix -> vector>
  return
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.view' op view at offset 16 spanning 40 bytes leaves its source's 40 bytes}}
  %v = emit.view %a[16] : !emit.buffer<lm, 2x8xi8, strides = [32, 1]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 8xi8, strides = [1]>
  // expected-error @+1 {{'emit.view' op a view stays in its space: lm -> acc}}
  %v = emit.view %a[0] : !emit.buffer<lm, 8xi8, strides = [1]> -> !emit.buffer<acc, 2xi32, strides = [4]>
}

// -----

emit.program target "npu-v1" {
  // expected-error @+1 {{'emit.constant' op constant strides must be dense row-major: stride 0 is 32, expected 8}}
  %k = emit.constant dense<1> : tensor<2x8xi8> : !emit.buffer<const, 2x8xi8, strides = [32, 1]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
  // expected-error @+1 {{'emit.vbini' op immediate 1 : i32 does not suit elements of 'f32'}}
  emit.vbini ADD %a, 1 : i32 -> %a : !emit.buffer<lm, 2x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<acc, 2x8xi32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
  %p = emit.alloc : !emit.buffer<lm, 2x16xi8, strides = [16, 1]>
  // expected-error @+1 {{'emit.requant' op params must be an lm table of 16-byte entries, one per column (8)}}
  emit.requant %a params %p : !emit.buffer<lm, 2x16xi8, strides = [16, 1]> -> %d : !emit.buffer<acc, 2x8xi32, strides = [32, 4]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<acc, 2x8xi32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.requant' op clamp [10, -10] is empty}}
  emit.requant %a -> %d {mult = 1073741824, lo = 10, hi = -10} : !emit.buffer<acc, 2x8xi32, strides = [32, 4]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  // expected-error @+1 {{'emit.reduce' op d is 1x8, expected 2x1}}
  emit.reduce SUM cols %a -> %d : !emit.buffer<lm, 2x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
  // expected-error @+1 {{custom op 'emit.vun' expected string or keyword containing one of the following enum values for attribute 'func' [COPY, NEG, ABS, SIGN, RELU, FLOOR, CEIL, ROUND, SQRT, RSQRT, RECIP, EXP, LOG, TANH, SIGMOID, ERF, SIN, COS, TAN, ASIN, ACOS, ATAN, ASINH, ACOSH, ATANH]}}
  emit.vun SQUARE %a -> %a : !emit.buffer<lm, 2x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.view' op offset -64 is negative}}
  %v = emit.view %a[-64] : !emit.buffer<lm, 2x8xi8, strides = [32, 1]> -> !emit.buffer<lm, 8xi8, strides = [1]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x8xf32, strides = [64, 8]>
  // expected-error @+1 {{'emit.vbin' op vector operands have contiguous rows; column stride 8 is not the element size 4}}
  emit.vbin ADD %a, %a -> %a : !emit.buffer<lm, 2x8xf32, strides = [64, 8]>, !emit.buffer<lm, 2x8xf32, strides = [64, 8]> -> !emit.buffer<lm, 2x8xf32, strides = [64, 8]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [1, 4]>
  %b = emit.alloc : !emit.buffer<lm, 4x4xi8, strides = [64, 1]>
  %c = emit.alloc : !emit.buffer<acc, 4x4xi32, strides = [64, 4]>
  // expected-error @+1 {{'emit.matmul' op matrix operand rows must be contiguous: column stride 4 is not the element size 1}}
  emit.matmul %a, %b -> %c : !emit.buffer<lm, 4x4xi8, strides = [1, 4]>, !emit.buffer<lm, 4x4xi8, strides = [64, 1]> -> !emit.buffer<acc, 4x4xi32, strides = [64, 4]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<acc, 2x8xi32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
  %b = emit.alloc : !emit.buffer<lm, 1x4xi32, strides = [16, 4]>
  // expected-error @+1 {{'emit.drain' op bias must be 8 contiguous i32 values in lm, one per column}}
  emit.drain %a bias %b : !emit.buffer<lm, 1x4xi32, strides = [16, 4]> -> %d {mult = 1073741824, lo = -128, hi = 127} : !emit.buffer<acc, 2x8xi32, strides = [32, 4]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x8xi32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.drain' op drains a 2-D acc tile into a 2-D lm tile}}
  emit.drain %a -> %d : !emit.buffer<lm, 2x8xi32, strides = [32, 4]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<acc, 2x8xi32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 2x8xi32, strides = [32, 4]>
  // expected-error @+1 {{'emit.drain' op drains to i8, ui8 or i16, not 'i32'}}
  emit.drain %a -> %d : !emit.buffer<acc, 2x8xi32, strides = [32, 4]> -> !emit.buffer<lm, 2x8xi32, strides = [32, 4]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<acc, 2x8xi32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 2x4xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.drain' op a is 2x8 but d is 2x4}}
  emit.drain %a -> %d : !emit.buffer<acc, 2x8xi32, strides = [32, 4]> -> !emit.buffer<lm, 2x4xi8, strides = [32, 1]>
}

// -----

emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<acc, 2x8xi32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
  // expected-error @+1 {{'emit.drain' op clamp [10, -10] is empty}}
  emit.drain %a -> %d {mult = 1073741824, lo = 10, hi = -10} : !emit.buffer<acc, 2x8xi32, strides = [32, 4]> -> !emit.buffer<lm, 2x8xi8, strides = [32, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x4x6xi8, strides = [32, 6, 1]>
  %b = emit.alloc : !emit.buffer<lm, 3x9xi8, strides = [9, 1]>
  %d = emit.alloc : !emit.buffer<acc, 2x2x4xi32, strides = [64, 16, 4]>
  // expected-error @+1 {{'emit.depthwise' op channels differ: image 2, taps 3, results 2}}
  emit.depthwise MAC %a, %b -> %d {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : !emit.buffer<lm, 2x4x6xi8, strides = [32, 6, 1]>, !emit.buffer<lm, 3x9xi8, strides = [9, 1]> -> !emit.buffer<acc, 2x2x4xi32, strides = [64, 16, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x3x6xi8, strides = [32, 6, 1]>
  %b = emit.alloc : !emit.buffer<lm, 2x9xi8, strides = [9, 1]>
  %d = emit.alloc : !emit.buffer<acc, 2x2x4xi32, strides = [64, 16, 4]>
  // expected-error @+1 {{'emit.depthwise' op the image is 3x6 but 2x4 outputs reach 4x6}}
  emit.depthwise MAC %a, %b -> %d {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : !emit.buffer<lm, 2x3x6xi8, strides = [32, 6, 1]>, !emit.buffer<lm, 2x9xi8, strides = [9, 1]> -> !emit.buffer<acc, 2x2x4xi32, strides = [64, 16, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x4x6xi8, strides = [32, 6, 1]>
  %b = emit.alloc : !emit.buffer<lm, 2x256xi8, strides = [256, 1]>
  %d = emit.alloc : !emit.buffer<acc, 2x1x1xi32, strides = [64, 4, 4]>
  // expected-error @+1 {{'emit.depthwise' op window size, stride or dilation 16 is outside [1, 15] (the v_dw_cfg fields)}}
  emit.depthwise MAC %a, %b -> %d {kernel = array<i64: 16, 16>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : !emit.buffer<lm, 2x4x6xi8, strides = [32, 6, 1]>, !emit.buffer<lm, 2x256xi8, strides = [256, 1]> -> !emit.buffer<acc, 2x1x1xi32, strides = [64, 4, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]>
  %b = emit.alloc : !emit.buffer<lm, 2x9xf32, strides = [36, 4]>
  %d = emit.alloc : !emit.buffer<acc, 2x2x4xf32, strides = [64, 16, 4]>
  // expected-error @+1 {{'emit.depthwise' op zero point 3 is outside [-128, 255] (and must be 0 in float modes)}}
  emit.depthwise MAC %a, %b -> %d {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, a_zp = 3} : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]>, !emit.buffer<lm, 2x9xf32, strides = [36, 4]> -> !emit.buffer<acc, 2x2x4xf32, strides = [64, 16, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]>
  %b = emit.alloc : !emit.buffer<lm, 2x9xf32, strides = [36, 4]>
  %d = emit.alloc : !emit.buffer<lm, 2x2x4xf32, strides = [64, 16, 4]>
  // expected-error @+1 {{'emit.depthwise' op a pooling function takes no taps}}
  emit.depthwise MAX %a, %b -> %d {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]>, !emit.buffer<lm, 2x9xf32, strides = [36, 4]> -> !emit.buffer<lm, 2x2x4xf32, strides = [64, 16, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]>
  %d = emit.alloc : !emit.buffer<lm, 2x2x4xf32, strides = [64, 16, 4]>
  // expected-error @+1 {{custom op 'emit.depthwise' expected string or keyword containing one of the following enum values for attribute 'func' [MAC, MAX, SUM]}}
  emit.depthwise MIN %a -> %d {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]> -> !emit.buffer<lm, 2x2x4xf32, strides = [64, 16, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  // expected-error @+1 {{'emit.cast' op with a scale converts between f32 and an integer type, not 'f32' -> 'f32'}}
  emit.cast %a -> %d {scale = 0.5 : f32} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 1x8xi8, strides = [32, 1]>
  %d = emit.alloc : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  // expected-error @+1 {{'emit.cast' op has a zero point but no scale}}
  emit.cast %a -> %d {zp = 3} : !emit.buffer<lm, 1x8xi8, strides = [32, 1]> -> !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 1x8xf32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<lm, 1x8xi16, strides = [32, 2]>
  // expected-error @+1 {{'emit.cast' op zero point 40000 does not fit the 16-bit field}}
  emit.cast %a -> %d {scale = 0.5 : f32, zp = 40000} : !emit.buffer<lm, 1x8xf32, strides = [32, 4]> -> !emit.buffer<lm, 1x8xi16, strides = [32, 2]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x4x6xi8, strides = [128, 24, 1]>
  %b = emit.alloc : !emit.buffer<lm, 2x9xi8, strides = [32, 1]>
  %e = emit.alloc : !emit.buffer<lm, 2x1xf32, strides = [32, 4]>
  %d = emit.alloc : !emit.buffer<acc, 2x2x4xi32, strides = [64, 16, 4]>
  // expected-error @+1 {{'emit.depthwise' op a bias or a Relu needs an f32 multiply-accumulate}}
  emit.depthwise MAC %a, %b bias %e -> %d {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : !emit.buffer<lm, 2x4x6xi8, strides = [128, 24, 1]>, !emit.buffer<lm, 2x9xi8, strides = [32, 1]> bias !emit.buffer<lm, 2x1xf32, strides = [32, 4]> -> !emit.buffer<acc, 2x2x4xi32, strides = [64, 16, 4]>
}

// -----
emit.program target "npu-v1" {
  %t = emit.alloc {offset = 0} : !emit.buffer<lm, 4x8xf32, strides = [32, 4]>
  %i = emit.alloc {offset = 256} : !emit.buffer<lm, 2xi32, strides = [4]>
  %d = emit.alloc {offset = 512} : !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
  // expected-error @+1 {{gathers a GM table into lm by an index list in lm}}
  emit.gather %t[%i] -> %d : !emit.buffer<lm, 4x8xf32, strides = [32, 4]>, !emit.buffer<lm, 2xi32, strides = [4]> -> !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %t = emit.alloc {offset = 0} : !emit.buffer<arena, 4x8xf32, strides = [32, 4]>
  %i = emit.alloc {offset = 256} : !emit.buffer<lm, 2xi32, strides = [8]>
  %d = emit.alloc {offset = 512} : !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
  // expected-error @+1 {{indices must be contiguous i32 [n]}}
  emit.gather %t[%i] -> %d : !emit.buffer<arena, 4x8xf32, strides = [32, 4]>, !emit.buffer<lm, 2xi32, strides = [8]> -> !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %t = emit.alloc {offset = 0} : !emit.buffer<arena, 4x8xf32, strides = [32, 4]>
  %i = emit.alloc {offset = 256} : !emit.buffer<lm, 2xi32, strides = [4]>
  %d = emit.alloc {offset = 512} : !emit.buffer<lm, 3x8xf32, strides = [32, 4]>
  // expected-error @+1 {{lm rows 3x8 are not [2] followed by the table's row box 8}}
  emit.gather %t[%i] -> %d : !emit.buffer<arena, 4x8xf32, strides = [32, 4]>, !emit.buffer<lm, 2xi32, strides = [4]> -> !emit.buffer<lm, 3x8xf32, strides = [32, 4]>
}

// -----
emit.program target "npu-v1" {
  %t = emit.alloc {offset = 0} : !emit.buffer<arena, 4x8xi8, strides = [8, 1]>
  %i = emit.alloc {offset = 256} : !emit.buffer<lm, 2xi32, strides = [4]>
  %s = emit.alloc {offset = 512} : !emit.buffer<lm, 2x8xf32, strides = [32, 4]>
  // expected-error @+1 {{element types differ: 'i8' and 'f32'}}
  emit.scatter ADD %s -> %t[%i] : !emit.buffer<lm, 2x8xf32, strides = [32, 4]>, !emit.buffer<lm, 2xi32, strides = [4]> -> !emit.buffer<arena, 4x8xi8, strides = [8, 1]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]>
  %d = emit.alloc : !emit.buffer<acc, 2x2x4xf32, strides = [64, 16, 4]>
  // expected-error @+1 {{'emit.depthwise' op the array's depthwise mode (matrix) multiplies and accumulates into acc}}
  emit.depthwise MAX %a -> %d {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, matrix} : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]> -> !emit.buffer<acc, 2x2x4xf32, strides = [64, 16, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]>
  %b = emit.alloc : !emit.buffer<lm, 2x9xf32, strides = [36, 4]>
  %d = emit.alloc : !emit.buffer<lm, 2x2x4xf32, strides = [64, 16, 4]>
  // expected-error @+1 {{'emit.depthwise' op the array's depthwise mode (matrix) multiplies and accumulates into acc}}
  emit.depthwise MAC %a, %b -> %d {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, matrix} : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]>, !emit.buffer<lm, 2x9xf32, strides = [36, 4]> -> !emit.buffer<lm, 2x2x4xf32, strides = [64, 16, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]>
  %b = emit.alloc : !emit.buffer<lm, 2x9xf32, strides = [36, 4]>
  %d = emit.alloc : !emit.buffer<acc, 2x2x4xf32, strides = [64, 16, 4]>
  // expected-error @+1 {{'emit.depthwise' op pads are [top, left] in [0, 15] of a multiply-accumulate, padded by the feeder}}
  emit.depthwise MAC %a, %b -> %d {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 16, 1>} : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]>, !emit.buffer<lm, 2x9xf32, strides = [36, 4]> -> !emit.buffer<acc, 2x2x4xf32, strides = [64, 16, 4]>
}

// -----
emit.program target "npu-v1" {
  %a = emit.alloc : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]>
  %d = emit.alloc : !emit.buffer<lm, 2x2x4xf32, strides = [64, 16, 4]>
  // expected-error @+1 {{'emit.depthwise' op pads are [top, left] in [0, 15] of a multiply-accumulate, padded by the feeder}}
  emit.depthwise MAX %a -> %d {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads = array<i64: 1, 1>} : !emit.buffer<lm, 2x4x6xf32, strides = [128, 24, 4]> -> !emit.buffer<lm, 2x2x4xf32, strides = [64, 16, 4]>
}
