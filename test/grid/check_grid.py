#!/usr/bin/python3
"""Judges a grid run: every sampled case of manifest.json (gen_grid.py) must
have been built, have passed on each of its targets (npuc-conformance
--json), and its model must have reached the case it was built for. Prints, per op, how many
sampled cases were verified, and every failure with its reason.

usage: check_grid.py GRID_DIR RESULTS.json
"""
import json
import os
import sys


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    grid, results = argv[1], argv[2]
    manifest = json.load(open(os.path.join(grid, "manifest.json")))
    root = os.path.basename(os.path.normpath(grid))
    runs = {}
    for r in json.load(open(results))["results"]:
        runs[(r["test"], r["target"])] = r
    per_op, failures = {}, []
    for c in manifest["cases"]:
        op = c["key"][: c["key"].index("(")]
        counts = per_op.setdefault(op, [0, 0])
        for t in c["targets"]:
            counts[1] += 1
            r = runs.get((root + "/" + c["dir"], t))
            if r is None:
                failures.append("%s on %s (%s): not run" % (c["key"], t, c["dir"]))
                continue
            reached = [x["case"] for x in r["cases"]]
            if r["class"] != "PASS":
                failures.append("%s on %s (%s): %s %s %s" % (c["key"], t, c["dir"], r["class"], r["code"],
                                                          r["detail"]))
            elif c["key"] not in reached:
                failures.append("%s on %s (%s): passed, but reached %s instead" % (c["key"], t, c["dir"],
                                                                                    ", ".join(reached)))
            else:
                counts[0] += 1
    for op in sorted(per_op):
        print("%-28s %5d of %5d verified" % (op, per_op[op][0], per_op[op][1]))
    total = [sum(v[0] for v in per_op.values()), sum(v[1] for v in per_op.values())]
    print("grid: %d of %d case runs verified (%d reachable cases, %d sampled, %d unbuildable)"
          % (total[0], total[1], manifest["reachable"], manifest["sampled"], len(manifest["unbuildable"])))
    for u in manifest["unbuildable"]:
        print("grid: unbuildable %s: %s" % (u["key"], u["unbuildable"]))
    for f in failures:
        print("grid: FAIL " + f)
    # A case the grid cannot build is a gap: fixed, or declared in its
    # selector's space (impossible, refused, or a limitation), never skipped.
    return 1 if failures or manifest["errors"] or manifest["unbuildable"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
