"""Compiles each model directory given (its dynamic input dimensions pinned
from test_data_set_0) and counts the instructions npu-objdump attributes to
no ONNX node, the program's final END aside (it comes from no node).

usage: unattributed.py NPUC NPU-OBJDUMP WORKDIR MODELDIR..."""
import json
import os
import subprocess
import sys

import onnx

npuc, objdump, work = sys.argv[1:4]
for d in sys.argv[4:]:
    name = os.path.basename(os.path.normpath(d))
    m = onnx.load(os.path.join(d, "model.onnx"), load_external_data=False)
    inits = {t.name for t in m.graph.initializer}
    cmd = [npuc, os.path.join(d, "model.onnx"), "-o", os.path.join(work, name + ".bin")]
    for k, vi in enumerate(i for i in m.graph.input if i.name not in inits):
        dims = vi.type.tensor_type.shape.dim
        if any(x.dim_value <= 0 for x in dims):
            t = onnx.TensorProto()
            t.ParseFromString(open(os.path.join(d, "test_data_set_0", "input_%d.pb" % k), "rb").read())
            cmd += ["--input-shape", "%s=%s" % (vi.name, "x".join(str(x) for x in t.dims))]
    subprocess.run(cmd, check=True)
    code = json.loads(subprocess.run([objdump, os.path.join(work, name + ".bin"), "--json"],
                                     check=True, capture_output=True, text=True).stdout)["code"]
    body = code[:-1] if code and code[-1]["text"] == "end" else code
    missing = [c["index"] for c in body if not c.get("nodes")]
    print("%s: %d of %d instructions without an ONNX node%s" % (
        name, len(missing), len(code), (" (first: %d)" % missing[0]) if missing else ""))
