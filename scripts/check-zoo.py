#!/usr/bin/python3
"""Imports every model of a zoo directory (default ../shared/models) with
`npuc --compile-to=graph` (the printed IR is discarded),
pinning each graph input's shape from test_data_set_0/input_K.pb and freezing
single-element inputs (QOperator tests pass scales and zero points as inputs)
with --bind-input. Prints one line per model and a summary; exits 1 when a
model does not import.

usage: check-zoo.py [--npuc PATH] [DIR]
"""
import os
import re
import subprocess
import sys
import time

import onnx
from onnx import numpy_helper

args = sys.argv[1:]
npuc = "build/bin/npuc"
if args[:1] == ["--npuc"]:
    npuc, args = args[1], args[2:]
root = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "models")

ok = bad = 0
for name in sorted(os.listdir(root)):
    model = os.path.join(root, name, "model.onnx")
    data = os.path.join(root, name, "test_data_set_0")
    if not os.path.exists(model):
        continue
    m = onnx.load(model, load_external_data=False)
    inits = {t.name for t in m.graph.initializer}
    inputs = [i.name for i in m.graph.input if i.name not in inits]
    files = sorted((f for f in os.listdir(data) if re.match(r"input_\d+\.pb$", f)),
                   key=lambda f: int(f[6:-3])) if os.path.isdir(data) else []
    # Importability (the graph phase; whether it lowers and its cases are
    # verified is conformance-*'s question).
    cmd = [npuc, "--compile-to=graph", model]
    for inp, f in zip(inputs, files):
        path = os.path.join(data, f)
        t = onnx.TensorProto()
        t.ParseFromString(open(path, "rb").read())
        size = 1
        for d in t.dims:
            size *= d
        if size == 1 and len(inputs) > 1:
            cmd += ["--bind-input", "%s=%s" % (inp, path)]
        elif len(t.dims) > 0:
            cmd += ["--input-shape", "%s=%s" % (inp, "x".join(str(d) for d in t.dims))]
    start = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.time() - start
    status = "imports" if p.returncode == 0 else "FAILS (exit %d)" % p.returncode
    print("%-32s %-16s %.2f s" % (name, status, seconds))
    if p.returncode == 0:
        ok += 1
    else:
        bad += 1
        print("  " + p.stderr.strip().replace("\n", "\n  "))
print("%d imported, %d did not" % (ok, bad))
sys.exit(1 if bad else 0)
