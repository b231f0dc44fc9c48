#!/usr/bin/python3
"""Seeds the importer fuzzer's corpus (argv[1]) with real ONNX models: every
model.onnx of the directories given after it (searched recursively; files
over 1 MiB skipped), each under a name derived from its path; and, after
--inputs DIR, every file of DIR as it is (inputs that once crashed it)."""
import os
import shutil
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
count = 0
args = sys.argv[2:]
if "--inputs" in args:
    k = args.index("--inputs")
    for name in sorted(os.listdir(args[k + 1])):
        shutil.copy(os.path.join(args[k + 1], name), os.path.join(out, "regression-" + name))
        count += 1
    args = args[:k] + args[k + 2:]
for root in args:
    if not os.path.isdir(root):
        continue
    for d, _, files in sorted(os.walk(root)):
        if "model.onnx" in files:
            src = os.path.join(d, "model.onnx")
            if os.path.getsize(src) <= 1 << 20:
                name = os.path.relpath(d, os.path.dirname(root)).replace(os.sep, "_")
                shutil.copy(src, os.path.join(out, name + ".onnx"))
                count += 1
print("%d seed models in %s" % (count, out))
