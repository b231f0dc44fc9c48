//===- ISABase.td - Classes for describing the NPU instruction set --------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The classes from which the NPU-v1 instruction set (ISA.td) is declared. The
// instruction set is data: npuc-tblgen reads these records and generates the
// encoder/decoder tables, the disassembler's printer, the enc dialect's ops and
// docs/isa.md. Nothing about an instruction's bits is written anywhere else.
//
//===----------------------------------------------------------------------===//

// The engine whose queue executes an instruction.
class Engine<string name, int id> {
  string Name = name;
  int Id = id;
}
def SCALAR  : Engine<"SCALAR", 0>;
def DMA_IN  : Engine<"DMA_IN", 1>;
def DMA_OUT : Engine<"DMA_OUT", 2>;
def MATRIX  : Engine<"MATRIX", 3>;
def VECTOR  : Engine<"VECTOR", 4>;
// Sync instructions run on the engine named by their `eng` field.
def BY_FIELD : Engine<"eng field", -1>;

// A closed set of named values for a field; values are 0 .. N-1 in order.
class ISAEnum<string name, list<string> values, string doc = ""> {
  string Name = name;
  list<string> Values = values;
  string Doc = doc;
}

// What one unit of a field's value means.
class FieldUnit<string name, int bytes> {
  string Name = name;
  int Bytes = bytes;
}
def U_NONE    : FieldUnit<"", 0>;
def U_BYTES   : FieldUnit<"bytes", 1>;
def U_GRANULE : FieldUnit<"32-byte granules", 32>;
def U_INSTS   : FieldUnit<"instructions", 0>;
def U_ELEMS   : FieldUnit<"elements", 0>;

// How the disassembler and the enc dialect spell a field's value.
class FieldKind<string name> { string Name = name; }
def K_INT  : FieldKind<"int">;
def K_REG  : FieldKind<"reg">;
def K_ENUM : FieldKind<"enum">;
def K_HEX  : FieldKind<"hex">;

// One field of an instruction word: bits [Lo + Width - 1 : Lo]. Min/Max is the
// legal range, which may be narrower than what the bits can hold.
class Field<string name, int lo, int width, bit signed, int min, int max,
            string doc = ""> {
  string Name = name;
  int Lo = lo;
  int Width = width;
  bit Signed = signed;
  int Min = min;
  int Max = max;
  FieldUnit Unit = U_NONE;
  FieldKind Kind = K_INT;
  ISAEnum Enum = ?;
  string Doc = doc;
}

class UImm<string name, int lo, int width, string doc = "">
    : Field<name, lo, width, 0, 0, !sub(!shl(1, width), 1), doc>;
class SImm<string name, int lo, int width, string doc = "">
    : Field<name, lo, width, 1, !sub(0, !shl(1, !sub(width, 1))),
            !sub(!shl(1, !sub(width, 1)), 1), doc>;
class URange<string name, int lo, int width, int min, int max, string doc = "">
    : Field<name, lo, width, 0, min, max, doc>;
class SRange<string name, int lo, int width, int min, int max, string doc = "">
    : Field<name, lo, width, 1, min, max, doc>;
class Bytes32<string name, int lo, string doc = ""> : UImm<name, lo, 32, doc> {
  let Unit = U_BYTES;
  let Kind = K_HEX;
}
class SBytes<string name, int lo, int width, string doc = ""> : SImm<name, lo, width, doc> {
  let Unit = U_BYTES;
}
class UBytes<string name, int lo, int width, string doc = ""> : UImm<name, lo, width, doc> {
  let Unit = U_BYTES;
}
// A scalar register r0..r15 (r0 reads as zero).
class Reg<string name, int lo, string doc = ""> : UImm<name, lo, 4, doc> {
  let Kind = K_REG;
}
// A local address (LM, ACC or LUT) in 32-byte granules.
class Granule<string name, int lo, string doc = ""> : UImm<name, lo, 16, doc> {
  let Unit = U_GRANULE;
  let Kind = K_HEX;
}
// An extent or count that must be at least 1.
class Extent<string name, int lo, int width, string doc = "">
    : URange<name, lo, width, 1, !sub(!shl(1, width), 1), doc> {
  let Unit = U_ELEMS;
}
class EnumField<string name, int lo, int width, ISAEnum e, string doc = "">
    : Field<name, lo, width, 0, 0, !sub(!size(e.Values), 1), doc> {
  let Kind = K_ENUM;
  let Enum = e;
}
class Flag<string name, int lo, string doc = ""> : UImm<name, lo, 1, doc>;

// One machine instruction: a 128-bit little-endian word whose bits [7:0] hold
// the opcode. Bits not covered by a field are reserved and must be zero.
class Inst<int opcode, Engine engine, string mnemonic, list<Field> fields,
           string summary> {
  int Opcode = opcode;
  Engine Engine = engine;
  string Mnemonic = mnemonic;
  list<Field> Fields = fields;
  string Summary = summary;
  string Description = "";
}
