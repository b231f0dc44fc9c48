//===- Passes.td - emit dialect passes -------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_EMIT_TRANSFORMS_PASSES_TD
#define NPUC_DIALECT_EMIT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def EmitPlanMemory : Pass<"emit-plan-memory", "::npuc::emit::ProgramOp"> {
  let summary = "Place lm, acc and arena buffers by liveness; place constants";
  let description = [{
    A buffer is live from the first to the last operation that uses it or any
    view of it, in program order. Buffers whose lifetimes overlap get disjoint
    bytes (first fit, 64-byte aligned). Reusing bytes after a buffer dies is
    safe on the asynchronous engines because emit-insert-sync orders every
    later writer after the last reader of those bytes. What the target has
    (LM, ACC capacity; the arena bound `gm-budget`) is checked here, one
    diagnostic per limit; what a field can encode is the verifiers' check.
  }];
  let options = [Option<"gmBudget", "gm-budget", "int64_t", "0",
                        "arena bound in bytes (0: the target's default, 256 MiB)">];
}

def EmitInsertSync : Pass<"emit-insert-sync", "::npuc::emit::ProgramOp"> {
  let summary = "Derive sync flags from the real data dependencies and allocate them";
  let description = [{
    With every buffer placed, each engine operation's byte ranges are known.
    An operation waits for the latest conflicting operation (read after write,
    write after read or write) of each other engine that it is not already
    ordered after (vector clocks through flags and barriers). The signal is
    issued on the producer's engine after it (SET_FLAG runs after every earlier
    instruction of its engine completes). Physical flags rotate within the
    target's flags per engine pair; a flag is reused only when its last wait is
    known to have run, and when none is, a barrier on the waiting engine frees
    them all. The result never fails and never races.
  }];
}

#endif
