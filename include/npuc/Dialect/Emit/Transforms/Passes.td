//===- Passes.td - emit dialect passes -------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_EMIT_TRANSFORMS_PASSES_TD
#define NPUC_DIALECT_EMIT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def EmitMultiBuffer : Pass<"emit-multi-buffer", "::npuc::emit::ProgramOp"> {
  let summary = "Give every tile a loop allocates N rotating slots (emit.for buffers = N)";
  let description = [{
    An emit.alloc in the body of a loop with `buffers` = N > 1 becomes one
    allocation of N slots before the loop (each slot rounded up to the MATRIX
    alignment) and an emit.iter_view that picks slot t mod N at iteration t.
    Iteration t + 1 then writes other bytes than iteration t reads, so the
    data dependencies emit-insert-sync derives no longer serialize a load of
    the next tile behind the compute of this one. A tile with
    `emit.extra_slots` = k takes N + k slots. `buffers` is reset to 1.
  }];
}

def EmitPipeline : Pass<"emit-pipeline", "::npuc::emit::ProgramOp"> {
  let summary = "Issue the loads of iteration t + 1 before the compute of iteration t";
  let description = [{
    A loop marked `pipeline` over [lo, hi) becomes a prologue loop [lo, lo + 1)
    holding the loads (DMA from GM to a local tile) of the first iteration, a
    loop [lo, hi - 1) whose body is the loads of t + 1 followed by everything
    else of t, and an epilogue [hi - 1, hi) with the rest of the last iteration.
    Views are recomputed in each stage. The reordering is legal only when every
    tile a load writes rotates over at least two slots (emit-multi-buffer) and
    no load reads a GM buffer the loop writes; otherwise the loop is left as it
    is with a remark (contract S10). The attribute is removed either way.
  }];
}

def EmitLowerLoops : Pass<"emit-lower-loops", "::npuc::emit::ProgramOp"> {
  let summary = "Turn tile loops into engine code";
  let description = [{
    Every emit.for is unrolled: its body is cloned once per iteration with each
    emit.iter_view replaced by the emit.view of that iteration. emit-insert-sync
    and memory planning work on straight-line code, so each loop is unrolled
    here, and emit-hardware-loops rolls back what repeats; each loop gets a
    remark that says so when `remarks` is set. With `tag`, every clone carries
    `emit.iteration` = [loop, iteration], which emit-hardware-loops reads
    after memory planning and sync insertion to roll iterations that repeat.
  }];
  let options = [Option<"remarks", "remarks", "bool", "false",
                        "emit a remark per loop with the decision">,
                 Option<"tag", "tag", "bool", "false",
                        "tag each clone with its loop and iteration">];
}

def EmitHardwareLoops : Pass<"emit-hardware-loops", "::npuc::emit::ProgramOp"> {
  let summary = "Roll iterations whose placed, synchronized code repeats into emit.hw_loop";
  let description = [{
    Runs after emit-plan-memory and emit-insert-sync, on the iterations
    emit-lower-loops tagged (`emit.iteration`). A run of periods of 1 to 8
    iterations becomes one emit.hw_loop over the first period when every
    later period repeats it: the same ops, attributes, types and physical
    flag ids, each buffer operand at the first period's address plus a fixed
    step per period (a multiple of the MATRIX alignment for LM and ACC). The
    machine then runs exactly the instructions of the unrolled code. A run
    whose body would need more scalar registers than the target has (one per
    distinct step, plus what the body borrows itself) stays unrolled; with
    `remarks`, each loop's decision is a remark (contract S10). The tags are
    removed.
  }];
  let options = [Option<"remarks", "remarks", "bool", "false",
                        "emit a remark per loop with the decision">];
}

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

def EmitHoistInvariantLoads : Pass<"emit-hoist-invariant-loads", "::npuc::emit::ProgramOp"> {
  let summary = "Load once, before the loop, a tile every iteration loads the same";
  let description = [{
    Before emit-multi-buffer: a local tile that the body of a tile loop with
    rotating slots (`buffers` > 1, more than one iteration) allocates, fills only by DMAs whose source is defined
    outside the loop (possibly through static views made in the body) and
    whose bytes no op of the loop writes, before any op reads the tile, and
    that the body otherwise only reads, holds the same bytes in every
    iteration. The alloc and the loads (with their views) move before the
    loop: one buffer instead of rotating slots, one load instead of one per
    iteration. (A loop without rotating slots keeps the tile in one place, and
    emit-elide-reloads removes the repeated loads after placement.) A matrix product tiled along N loads its A operand so; so does
    a kernel broadcasting a per-row constant over column tiles. With
    `remarks`, one remark counts the tiles.
  }];
  let options = [Option<"remarks", "remarks", "bool", "false",
                        "remark how many tiles were hoisted">];
}

def EmitForwardStores : Pass<"emit-forward-stores", "::npuc::emit::ProgramOp"> {
  let summary = "Hand stored tiles to the kernels that load them back, in local memory";
  let description = [{
    On straight-line code before placement (after emit-lower-loops, before
    emit-plan-memory): a DMA that loads arena bytes into an LM tile is
    removed when an earlier DMA stored those bytes from an LM or ACC tile and
    nothing in between wrote the bytes or the tile. The last reader of a tile
    stored whole and laid out the same way (equal copies after dropping unit
    dimensions and merging contiguous ones; in LM) takes the tile over: its
    buffer becomes (a view of) the writer's, if its buffer starts with that
    load and the writer's is not used after it. Any other reader, of part of
    the tile, in another row pitch, from ACC, or before another reader, gets
    its rows by one `emit.vun COPY` from the stored tile (each row one run
    of the tile, VECTOR-aligned; the copy must verify). Neither may raise the
    live bytes of LM or ACC past three quarters of the space. Then an arena
    buffer no engine op reads is not written: its stores, its `emit.value`
    (the value is not in the model file's values, so a dump does not hold
    it) and its alloc go, unless `keep-stores` (npuc --materialize-values:
    every value in GM for the dumps and the layer check, contract L4). With
    `remarks`, one remark counts the loads and buffers removed.
  }];
  let options = [Option<"remarks", "remarks", "bool", "false",
                        "remark how many loads and stores were removed">,
                 Option<"keepStores", "keep-stores", "bool", "false",
                        "write every value to the arena even when no op reads it back">];
}

def EmitResidentValues : Pass<"emit-resident-values", "::npuc::emit::ProgramOp"> {
  let summary = "Keep a value whose every access is a tile copy in LM, whole";
  let description = [{
    On straight-line code before placement (after emit-forward-stores,
    before emit-prefetch-constants). An arena buffer (a value one kernel
    hands to the next through GM) whose only accesses are DMAs that store
    tiles of LM or ACC into it and load tiles of it into LM, none padded,
    becomes an LM buffer, and each of those DMAs `emit.vun COPY`s between
    the tile and the same bytes of that buffer: VECTOR passes (4 + bytes /
    lanes cycles each) instead of trips through GM (a descriptor's start
    plus bytes / bandwidth). The LM buffer has the arena's layout or, where
    that puts rows off VECTOR's alignment, the blocks of a dense value's
    inner dimensions (a channel's plane, a matrix row; innermost first) at
    an aligned pitch, if that takes at most half again the bytes or at most
    4096 bytes in all (a small value's padding is noise in LM). Each copy
    must be VECTOR grids: after merging contiguous dimensions (Copies.h),
    rows of one contiguous run along the longest dimension, one grid per
    index of the others (at most 64), the runs and pitches VECTOR-aligned
    and within the v_shape fields; a single run longer than a grid row is cut
    into rows. The buffer must take at most half of LM, and the LM bytes
    live over its life (its first store to its last load) at most three
    quarters. A store's copy out of LM moves down past the engine ops of its
    kernel that neither write its tile nor touch its bytes (VECTOR runs in
    order: right after the op computing the tile it held the kernel's next
    VECTOR op); one out of ACC stays (moved, it would hold the accumulator
    tile longer). Then LM and ACC are placed as emit-plan-memory places
    them (Placement.h); if either does not fit, the buffers are given back
    to GM, the last one chosen first, until both do. The arena buffer, its DMAs and its `emit.value`
    go (a dump does not hold the value), unless `keep-stores` (npuc
    --materialize-values, contract L4). With `remarks`, one remark counts
    the values kept, their LM bytes, the DMAs and the copies that replace
    them, and why the others stay in GM.
  }];
  let options = [Option<"remarks", "remarks", "bool", "false",
                        "remark which values stay in LM and why others do not">,
                 Option<"keepStores", "keep-stores", "bool", "false",
                        "write every value to the arena (the pass does nothing)">];
}

def EmitResidentConstants : Pass<"emit-resident-constants", "::npuc::emit::ProgramOp"> {
  let summary = "Load a constant several kernels load the same way once, and keep it in LM";
  let description = [{
    On straight-line code before placement (after emit-resident-values,
    before emit-prefetch-constants). Loads of the same bytes of one constant
    (an RNN's recurrent weights, which select-tiling holds whole in each time
    step's product when several products read them: the tiling's
    `resident`), unpadded, each into the same place of a fresh LM buffer of
    the same type that nothing else writes: the first load stays, its buffer
    lives on, every later load's readers read it and that load and its
    buffer go. A buffer of more than a quarter of LM is not kept, nor one
    that would take LM's live bytes past three quarters. Then LM is placed
    as emit-plan-memory places it (Placement.h); if it does not fit, the
    most shares, first proposed first, with which it fits are kept (the
    others' loads stay). With `remarks`, one remark counts the loads
    removed and the bytes not loaded again.
  }];
  let options = [Option<"remarks", "remarks", "bool", "false",
                        "remark how many loads were removed">];
}

def EmitPrefetchConstants : Pass<"emit-prefetch-constants", "::npuc::emit::ProgramOp"> {
  let summary = "Issue a kernel's constant loads while the kernels before it run";
  let description = [{
    On straight-line code before placement (after emit-forward-stores,
    before emit-plan-memory). A kernel is a run of engine ops with one
    location (its qk op's). A DMA from a constant into a fresh LM buffer
    (no engine op uses it before the DMA) that is not part of a tile loop of
    several iterations (those repeat, and emit-hardware-loops rolls them)
    moves, with its alloc and the views it is made of, before the first
    engine op of the kernel `kernels` kernels before its own, if the LM
    bytes live over the span it adds stay within three quarters of LM. Then
    LM is placed as emit-plan-memory places it (Placement.h); if it does not
    fit, every move is undone. DMA_IN runs its queue in order, and a
    kernel's loads of what the kernel before it computes wait for it: a
    weight, bias or table load behind them waited too, and paid its
    descriptor's start after the wait. With `remarks`, one remark counts the
    loads moved (or says they were left).
  }];
  let options = [Option<"kernels", "kernels", "int64_t", "1",
                        "how many kernels ahead a constant load is issued">,
                 Option<"remarks", "remarks", "bool", "false",
                        "remark how many loads were moved">];
}

def EmitElideReloads : Pass<"emit-elide-reloads", "::npuc::emit::ProgramOp"> {
  let summary = "Remove loads that copy into local memory bytes already there";
  let description = [{
    On placed straight-line code (after emit-plan-memory, before
    emit-insert-sync): a DMA from GM into LM or ACC is removed when an earlier
    DMA copied the same GM bytes to the same local bytes the same way
    (shapes, strides, padding) and no op in between wrote either. The readers
    then depend on the earlier load, which sync insertion derives from the
    byte ranges. A convolution tile loop whose row tiles run innermost loads
    its channel tile's weights into the same slots in every row tile; all
    but the first load of each slot are removed. With `remarks`, one remark
    counts them.
  }];
  let options = [Option<"remarks", "remarks", "bool", "false",
                        "remark how many loads were removed">];
}


def EmitInsertSync : Pass<"emit-insert-sync", "::npuc::emit::ProgramOp"> {
  let summary = "Derive sync flags from the real data dependencies and allocate them";
  let description = [{
    With every buffer placed, each engine operation's byte ranges are known.
    An operation waits for the latest conflicting operation (read after write,
    write after read or write) of each other engine that it is not already
    ordered after (vector clocks through flags and barriers). The signal is
    issued on the producer's engine right after the producer (SET_FLAG runs
    after every earlier instruction of its engine completes), so the consumer
    waits for that op and not for whatever its engine runs later; when no flag
    is known to be free that early, the signal goes just before the consumer.
    A signal takes the lowest-numbered of the
    target's flags per engine pair whose last wait is known to have run (so
    the iterations of a tile loop use the same ids), and when none is, a
    barrier on the waiting engine frees them all. The result never fails and never races.
  }];
}

#endif
