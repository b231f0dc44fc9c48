#!/usr/bin/python3
"""Moves the evidence of one lowering-case op to another: every row of the
evidence table (lib/Support/OpEvidence.tsv) whose case key is OLD(...){...}
becomes NEW(...){PROP,...}, with the same types, properties (after PROP, a
property the new op records first, such as the function of a kernel several
graph ops became), level, ONNX ops and tests, and each grid test the row
names is renamed to the directory test/grid/gen_grid.py gives the new key.
For a family moved from graph ops to a qk kernel (docs/architecture.md, "The
lowering today, and the open work"), when the kernel's cases are the graph
op's cases under the new name; `npuc --list-cases` before and after says so.
scripts/update-supported-ops.sh regenerates the same rows from the tests.

With --merge, a renamed key may be one the table already lists (two graph
ops that became the same kernel case, as GlobalAveragePool and ReduceMean
became qk.reduce's SUM with mean): the rows merge as npuc-conformance merges
the tests of one case, the best level with its tests, the ONNX ops of both.
A row lists five tests and counts the others ("+N more"); a merged row's
count adds both counts, an upper bound (a test counted in both rows is
counted twice) until update-supported-ops.sh regenerates the table.

With --map FROM:TO (repeatable), a row whose properties are exactly FROM
(the text between the key's braces) gets TO instead, before PROP is
recorded: a kernel whose cases are coarser than the graph op's, as
qk.copy's `pieces` stands for Slice's `reversed` whatever its `strided`.
A row of OLD no --map names keeps its properties; with --mapped-only it
stays OLD's (a graph op whose cases split between two kernels, as Pad's
constant mode became qk.pad and its other modes qk.copy).

With --drop-prop NAME (repeatable), NAME (as NAME=VALUE, NAME or !NAME)
leaves every row's properties first, before --map: a property a kernel no
longer needs, its choice made by the conversion (Resize's coordinate mode,
evaluated into qk.copy's address plans). With --drop-operand N, the N-th
operand's type (from 0) leaves the key's signature: an operand the kernel
does not take (a Gather's constant indices, in qk.copy's plans).

usage: rename-case-op.py OLD NEW [PROP] [--merge] [--map FROM:TO]... [--mapped-only]
         [--drop-prop NAME]... [--drop-operand N] [--tsv TSV]
  e.g. graph.requantize qk.requantize;  graph.add qk.binary fn=ADD
"""
import hashlib
import os
import sys


def grid_dir(key):
    # test/grid/gen_grid.py's case_dir
    op = key[: key.index("(")].split(".")[-1]
    return "grid/" + os.path.join(op, hashlib.sha256(key.encode()).hexdigest()[:12])


def mapped_props(key, maps):
    """The key with its property list replaced by --map's, if one names it."""
    i = key.index("{")
    props = key[i + 1 : -1]
    return key[: i + 1] + maps.get(props, props) + "}"


def dropped(key, props, operand):
    """The key without the properties `props` and the operand `operand`."""
    if operand is not None:
        i, j = key.index("("), key.index("->")
        types = key[i + 1 : j].split(",")
        if operand >= len(types):
            sys.exit("rename-case-op: %s has no operand %d" % (key, operand))
        del types[operand]
        key = key[: i + 1] + ",".join(types) + key[j:]
    if props and "{" in key:
        i = key.index("{")
        kept = [p for p in key[i + 1 : -1].split(",")
                if p and p.lstrip("!").split("=")[0] not in props]
        key = key[: i + 1] + ",".join(kept) + "}"
    return key


def renamed_key(key, old, new, prop, maps=None):
    if maps and "{" in key:
        key = mapped_props(key, maps)
    rest = key[len(old):]
    if not prop:
        return new + rest
    if "{" in rest:
        i = rest.index("{")
        return new + rest[: i + 1] + prop + ("," if rest[i + 1] != "}" else "") + rest[i + 1:]
    return new + rest + "{" + prop + "}"


LEVELS = {"reached": 0, "lowered": 1, "verified": 2}


def split_tests(field):
    """The listed tests and the count of the others."""
    tests = field.split(",") if field else []
    more = 0
    if tests and tests[-1].startswith("+") and tests[-1].endswith(" more"):
        more = int(tests.pop()[1:-5])
    return tests, more


def merged(a, b):
    """Two rows of one key and target as one (npuc-conformance's Results.cpp:
    the best level keeps its tests; the ONNX ops of both)."""
    fa, fb = a.split("\t"), b.split("\t")
    ops = ",".join(sorted(set(fa[3].split(",")) | set(fb[3].split(","))))
    la, lb = LEVELS[fa[2]], LEVELS[fb[2]]
    rows = [f for f, l in ((fa, la), (fb, lb)) if l == max(la, lb)]
    listed, more = set(), 0
    for f in rows:
        t, m = split_tests(f[4])
        listed |= set(t)
        more += m
    tests = sorted(listed)
    more += max(0, len(tests) - 5)
    field = ",".join(tests[:5]) + (",+%d more" % more if more else "")
    return "\t".join([fa[0], fa[1], rows[0][2], ops, field])


def main(argv):
    args = argv[1:]
    merge = "--merge" in args
    if merge:
        args.remove("--merge")
    path = os.path.join(os.path.dirname(__file__), "..", "lib", "Support", "OpEvidence.tsv")
    maps = {}
    while "--map" in args:
        i = args.index("--map")
        if i + 1 >= len(args) or ":" not in args[i + 1]:
            sys.exit("rename-case-op: --map needs FROM:TO")
        frm, to = args[i + 1].split(":", 1)
        maps[frm] = to
        del args[i : i + 2]
    mapped_only = "--mapped-only" in args
    if mapped_only:
        args.remove("--mapped-only")
    drop_props = []
    while "--drop-prop" in args:
        i = args.index("--drop-prop")
        if i + 1 >= len(args):
            sys.exit("rename-case-op: --drop-prop needs a property name")
        drop_props.append(args[i + 1])
        del args[i : i + 2]
    drop_operand = None
    if "--drop-operand" in args:
        i = args.index("--drop-operand")
        if i + 1 >= len(args) or not args[i + 1].isdigit():
            sys.exit("rename-case-op: --drop-operand needs an operand number")
        drop_operand = int(args[i + 1])
        del args[i : i + 2]
    if "--tsv" in args:
        i = args.index("--tsv")
        if i + 1 >= len(args):
            sys.exit("rename-case-op: --tsv needs a file")
        path = args[i + 1]
        del args[i : i + 2]
    if len(args) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-2])
    old, new = args[0], args[1]
    prop = args[2] if len(args) == 3 else ""
    lines = open(path).read().splitlines()
    out, moved = [], 0
    for line in lines:
        fields = line.split("\t")
        if line.startswith("#") or len(fields) != 5 or not fields[0].startswith(old + "("):
            out.append(line)
            continue
        key = fields[0]
        props = dropped(key, drop_props, drop_operand)
        if mapped_only and ("{" not in props or props[props.index("{") + 1 : -1] not in maps):
            out.append(line)
            continue
        renamed = renamed_key(props, old, new, prop, maps)
        tests = [grid_dir(renamed) if t == grid_dir(key) else t for t in fields[4].split(",")]
        out.append("\t".join([renamed] + fields[1:4] + [",".join(tests)]))
        moved += 1
    if not moved:
        sys.exit("rename-case-op: no case of %s in %s" % (old, path))
    bad = [l for l in out if not l.startswith("#") and len(l.split("\t")) != 5]
    if bad:
        sys.exit("rename-case-op: %s has rows that are not five fields, e.g. %r" % (path, bad[0][:80]))
    seen = {}
    for l in out:
        if not l.startswith("#"):
            # A row of key "-" is an ONNX op's evidence with no case (a
            # constant folded at compile time): one per op and target.
            fields = l.split("\t")
            k = tuple(fields[:2]) if fields[0] != "-" else tuple(fields[:2] + fields[3:4])
            if k in seen and not (merge and fields[0] != "-"):
                sys.exit("rename-case-op: %s on %s would be listed twice (--merge merges)" % k[:2])
            seen[k] = merged(seen[k], l) if k in seen else l
    out = [l for l in out if l.startswith("#")] + list(seen.values())
    # The table is sorted by key, then target (npuc-conformance writes it so).
    header = [l for l in out if l.startswith("#")]
    rows = sorted((l for l in out if not l.startswith("#")),
                  key=lambda l: (l.split("\t")[0], l.split("\t")[1]))
    with open(path, "w") as f:
        f.write("\n".join(header + rows) + "\n")
    print("rename-case-op: %d rows of %s are now %s" % (moved, old, new))


if __name__ == "__main__":
    main(sys.argv)
