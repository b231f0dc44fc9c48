#!/usr/bin/python3
"""Benchmark: mobilenetv2_uint8 (../shared/models) through npuc and npu-sim.

Reports, per target: compile wall time and peak RSS of npuc (targets: < 2 s,
< 400 MB), simulated cycles, the roofline bound and the ratio of the two, and
the comparison with the expected output (largest difference, elements that
differ, top-5 agreement). A measurement, not a pass/fail test: it exits 1 only
when a step fails to run (compile error, simulator fault).

Roofline: per layer max(MACs / peak MAC/cycle, minimal GM bytes / GM bytes
per cycle), summed, with the target's parameters (docs/target.md). Minimal GM
bytes of a layer: its quantized activations read and written once (1 byte per
element; 4 for f32 tensors) plus its weights and biases read once.

usage: mobilenetv2.py [--bin DIR] [MODEL_DIR]
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import numpy_helper, shape_inference

args = sys.argv[1:]
bindir = "build/bin"
if args[:1] == ["--bin"]:
    bindir, args = args[1], args[2:]
root = os.path.dirname(os.path.abspath(__file__))
mdir = args[0] if args else os.path.join(root, "..", "..", "shared", "models", "mobilenetv2_uint8")
model_path = os.path.join(mdir, "model.onnx")
inp = os.path.join(mdir, "test_data_set_0", "input_0.pb")
want_path = os.path.join(mdir, "test_data_set_0", "output_0.pb")
TARGETS = {  # peak int8 MAC/cycle, fp32 MAC/cycle, GM bytes/cycle (docs/target.md)
    "npu-v1": (4096, 256, 64),
    "npu-v1-tiny": (1024, 64, 16),
}


def load_pb(path):
    t = onnx.TensorProto()
    t.ParseFromString(open(path, "rb").read())
    return numpy_helper.to_array(t)


x = load_pb(inp)
m = onnx.load(model_path)
m.graph.input[0].type.tensor_type.shape.ClearField("dim")
for d in x.shape:
    m.graph.input[0].type.tensor_type.shape.dim.add().dim_value = d
m = shape_inference.infer_shapes(m)
shapes = {}
for vi in list(m.graph.value_info) + list(m.graph.input) + list(m.graph.output):
    shapes[vi.name] = [d.dim_value for d in vi.type.tensor_type.shape.dim]
inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
producer = {o: n for n in m.graph.node for o in n.output}


def storage_bytes(name):
    """Bytes per element as the NPU stores the tensor: through DQ to its source."""
    n = producer.get(name)
    if n is not None and n.op_type == "DequantizeLinear":
        src = n.input[0]
        return inits[src].itemsize if src in inits else 1
    return 4 if name in inits and inits[name].dtype == np.float32 else 1


def numel(name):
    if name in inits:
        return inits[name].size
    return int(np.prod(shapes.get(name, [0])))


def layers():
    """(MACs, minimal GM bytes, float?) per compute layer of the QDQ graph."""
    for n in m.graph.node:
        if n.op_type in ("QuantizeLinear", "DequantizeLinear", "Transpose", "Squeeze", "Reshape", "Clip"):
            continue
        out = n.output[0]
        outs = int(np.prod(shapes.get(out, [0])))
        macs, isfloat = 0, False
        if n.op_type == "Conv":
            w = shapes.get(n.input[1]) or list(inits[producer[n.input[1]].input[0]].shape)
            macs = outs * int(np.prod(w[1:]))
        elif n.op_type == "MatMul":
            a = shapes.get(n.input[0])
            macs = outs * a[-1]
            # int8 when both operands come out of DequantizeLinear (npuc then
            # runs one integer matmul), f32 otherwise.
            isfloat = not all(producer.get(i) is not None and producer[i].op_type == "DequantizeLinear"
                              for i in n.input)
        inputs = [i for i in n.input if i]
        gm = sum(numel(i) * storage_bytes(i) for i in inputs if n.op_type != "Pad" or i == n.input[0])
        gm += outs * (4 if isfloat else 1)
        yield macs, gm, isfloat


bench_failed = False
for target, (peak_i8, peak_f32, bw) in TARGETS.items():
    bound = 0.0
    total_macs = 0
    for macs, gm, isfloat in layers():
        bound += max(macs / (peak_f32 if isfloat else peak_i8), gm / bw)
        total_macs += macs
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "m.bin")
        cmd = [os.path.join(bindir, "npuc"), model_path, "--target", target, "-o", out,
               "--input-shape", "%s=%s" % (m.graph.input[0].name, "x".join(map(str, x.shape)))]
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t0 = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True)
        compile_s = time.time() - t0
        rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        if p.returncode:
            print(target, "compile failed:", p.stderr.strip()[:400])
            bench_failed = True
            continue
        size = os.path.getsize(out)
        t0 = time.time()
        s = subprocess.run([os.path.join(bindir, "npu-sim"), out, "-i", inp, "-o", os.path.join(tmp, "o"), "--stats"],
                           capture_output=True, text=True)
        sim_s = time.time() - t0
        if s.returncode:
            print(target, "npu-sim failed:", s.stderr.strip()[:400])
            bench_failed = True
            continue
        cycles = int(next(l for l in s.stdout.splitlines() if l.startswith("cycles")).split()[1])
        got = np.load(os.path.join(tmp, "o", "output_0.npy")).astype(np.int64)
        want = load_pb(want_path).astype(np.int64)
        diff = np.abs(got - want)
        top = lambda a: list(np.argsort(-a.reshape(-1), kind="stable")[:5])
        print("%s: compile %.2f s, peak RSS %.0f MB (npuc, max over runs so far), model %.1f MB; "
              "npu-sim %.1f s wall, %d cycles; roofline %d cycles (%.0f M MACs); cycles / roofline = %.1f; "
              "output: max |diff| %d, %d of %d differ, top-5 %s" % (
                  target, compile_s, rss_mb, size / 1e6, sim_s, cycles, bound, total_macs / 1e6,
                  cycles / bound, diff.max(), np.count_nonzero(diff), diff.size,
                  "agrees" if top(got) == top(want) else "differs (%s vs %s)" % (top(got), top(want))))
sys.exit(1 if bench_failed else 0)
