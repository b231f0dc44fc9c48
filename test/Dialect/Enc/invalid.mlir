// Diagnostics of enc.program (EncOps.cpp) and of the instruction ops: the
// target checks, the table-driven field ranges, and the constraints ODS
// generates for every instruction (required fields, parent op).
// RUN: npuc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'enc.program' op unknown target 'npu-v2'; valid targets: npu-v1, npu-v1-tiny}}
enc.program target "npu-v2" {
  enc.end
}

// -----
enc.program target "npu-v1-tiny" {
  enc.nop
  // expected-error @+1 {{'graph.constant' op is not an NPU instruction; enc.program holds only instructions}}
  %0 = graph.constant dense<1.0> : tensor<1xf32>
  enc.end
}

// -----
// npu-v1-tiny has 8 scalar registers: r8 is encodable but does not exist.
enc.program target "npu-v1-tiny" {
  enc.li rd = 7, imm = 1
  // expected-error @+1 {{'enc.alu' op field 'rs2' names r8, but npu-v1-tiny has 8 scalar registers (r0..r7)}}
  enc.alu func = 0, rd = 1, rs1 = 7, rs2 = 8
  enc.end
}

// -----
// npu-v1-tiny has 2 flags per engine pair: id 2 is encodable but does not exist.
enc.program target "npu-v1-tiny" {
  enc.set_flag eng = 1, peer = 3, id = 1
  // expected-error @+1 {{'enc.set_flag' op field 'id' = 2 names a sync flag npu-v1-tiny does not have (it has 2 flags per engine pair: 0..1)}}
  enc.set_flag eng = 1, peer = 3, id = 2
  enc.end
}

// -----
// The ISA range check applies with or without a target.
enc.program {
  // expected-error @+1 {{'enc.loop' op field 'body' = 0 is outside its legal range [1, 65535]}}
  enc.loop rc = 0, count = 3, body = 0
  enc.end
}

// -----
enc.program target "npu-v1" {
  // expected-error @+1 {{'enc.li' op requires attribute 'imm'}}
  "enc.li"() {rd = 1} : () -> ()
  enc.end
}

// -----
// expected-error @+1 {{'enc.li' op expects parent op 'enc.program'}}
enc.li rd = 1, imm = 42
