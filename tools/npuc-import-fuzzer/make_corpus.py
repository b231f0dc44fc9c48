#!/usr/bin/python3
"""Seeds the importer fuzzer's corpus (argv[1]) with real ONNX models: every
model.onnx of the directories given after it (searched recursively; files
over 1 MiB skipped), each under a name derived from its path."""
import os
import shutil
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
count = 0
for root in sys.argv[2:]:
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
