// Exporting needs exactly one enc.program.
// RUN: not npuc-translate --export-npu-code %s -o %t.bin 2>&1 | FileCheck %s
// CHECK: error: expected exactly one enc.program, found 2
enc.program {
  enc.end
}
enc.program {
  enc.end
}
