#!/usr/bin/python3
"""Runs `npuc --check` over every ONNX node test (default
/usr/share/libonnx-testdata/data/node) and counts the outcomes. A crash (any
exit code but 0 or 1, or a signal) is a failure of this script.

usage: check-node-tests.py [--npuc PATH] [--jobs N] [--list FILE] [DIR]
"""
import concurrent.futures
import os
import subprocess
import sys

args = sys.argv[1:]
npuc, jobs, listing = "build/bin/npuc", os.cpu_count() or 2, None
while args and args[0].startswith("--"):
    flag, value, args = args[0], args[1], args[2:]
    if flag == "--npuc":
        npuc = value
    elif flag == "--jobs":
        jobs = int(value)
    elif flag == "--list":
        listing = value
root = args[0] if args else "/usr/share/libonnx-testdata/data/node"
tests = sorted(d for d in os.listdir(root) if os.path.exists(os.path.join(root, d, "model.onnx")))


def run(name):
    p = subprocess.run([npuc, "--check", "--allow-unverified", os.path.join(root, name, "model.onnx")],
                       capture_output=True, text=True, timeout=120)
    return name, p.returncode, p.stderr


results = []
with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
    for r in pool.map(run, tests):
        results.append(r)
imported = [n for n, rc, _ in results if rc == 0]
rejected = [n for n, rc, _ in results if rc == 1]
crashed = [(n, rc, err) for n, rc, err in results if rc not in (0, 1)]
if listing:
    with open(listing, "w") as f:
        for n, rc, err in results:
            first = err.strip().splitlines()[0] if err.strip() else ""
            f.write("%s\t%d\t%s\n" % (n, rc, first))
for n, rc, err in crashed:
    print("CRASH %s (exit %d)\n  %s" % (n, rc, err.strip()[-2000:].replace("\n", "\n  ")))
print("%d node tests: %d import fully, %d rejected with diagnostics, %d crashed"
      % (len(results), len(imported), len(rejected), len(crashed)))
sys.exit(1 if crashed else 0)
