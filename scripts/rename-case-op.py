#!/usr/bin/python3
"""Moves the evidence of one lowering-case op to another: every row of the
evidence table (lib/Support/OpEvidence.tsv) whose case key is OLD(...)
becomes NEW(...), with the same types, properties, level, ONNX ops and
tests, and each grid test the row names is renamed to the directory
test/grid/gen_grid.py gives the new key. For a family moved from a graph op
to a qk kernel (docs/architecture.md, "The lowering today, and the open
work"), when the kernel's cases are the graph op's cases under a new name.
scripts/update-supported-ops.sh regenerates the same rows from the tests.

usage: rename-case-op.py OLD NEW [TSV]   e.g. graph.requantize qk.requantize
"""
import hashlib
import os
import sys


def grid_dir(key):
    # test/grid/gen_grid.py's case_dir
    op = key[: key.index("(")].split(".")[-1]
    return "grid/" + os.path.join(op, hashlib.sha256(key.encode()).hexdigest()[:12])


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[-1])
    old, new = argv[1], argv[2]
    path = argv[3] if len(argv) == 4 else os.path.join(os.path.dirname(__file__), "..", "lib",
                                                        "Support", "OpEvidence.tsv")
    lines = open(path).read().splitlines()
    out, moved = [], 0
    for line in lines:
        fields = line.split("\t")
        if line.startswith("#") or len(fields) != 5 or not fields[0].startswith(old + "("):
            out.append(line)
            continue
        key = fields[0]
        renamed = new + key[len(old):]
        tests = [grid_dir(renamed) if t == grid_dir(key) else t for t in fields[4].split(",")]
        out.append("\t".join([renamed] + fields[1:4] + [",".join(tests)]))
        moved += 1
    if not moved:
        sys.exit("rename-case-op: no case of %s in %s" % (old, path))
    # The table is sorted by key, then target (npuc-conformance writes it so).
    header = [l for l in out if l.startswith("#")]
    rows = sorted((l for l in out if not l.startswith("#")),
                  key=lambda l: (l.split("\t")[0], l.split("\t")[1]))
    with open(path, "w") as f:
        f.write("\n".join(header + rows) + "\n")
    print("rename-case-op: %d rows of %s are now %s" % (moved, old, new))


if __name__ == "__main__":
    main(sys.argv)
