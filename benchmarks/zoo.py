#!/usr/bin/python3
"""Benchmark: every model of ../shared/models through npuc and npu-sim, on
both targets, against lower bounds that follow from the ONNX graph and the
target alone. A measurement, not a test.

Per model and target: npuc's compile wall time and peak RSS (one process),
simulated cycles and GM bytes (npu-sim --stats), and
- the bounds of ../shared/tools/roofline.py (issue #30's measuring stick,
  imported from --roofline; it reads only the ONNX graph and its own table
  of the targets' parameters): the geometry model bound, max(the compute
  layers' MATRIX cycles by the array geometry, (weights + graph inputs and
  outputs) / GM bandwidth), and the compute-layer layerwise bound (per
  compute layer max(its geometry cycles, its activations and weights once
  through GM), summed). Both are lower bounds. Compute layers whose shapes
  ONNX shape inference cannot see (reshapes computed by Shape ops) are left
  out, which keeps a lower bound (a looser one, marked with their count);
  a model whose compute layers are all such has none: "unknown (N layers)";
- the model bound computed here: max(MACs / peak, (weights + graph inputs
  and outputs) / GM bandwidth), with the MACs of every layer this script
  knows (also where roofline.py cannot infer a shape); a lower bound too;
- the per-node estimate (not a bound): per ONNX node max(its MATRIX cycles
  by the array geometry, its activations and weights once through GM at
  their storage width), summed. MATRIX cycles of a product [M x K] x [K x N]
  are ceil(K/A) * ceil(N/A) * max(M, A) per group (A the array side of the
  layer's precision); a depthwise convolution takes the better of that and
  VECTOR multiply-accumulate (lanes / element bytes MACs per cycle). It
  charges every node a round trip through GM, so it grows with how an
  exporter spells a model (each DequantizeLinear, Add, BatchNormalization):
  a program that keeps values on chip runs below it;
- the per-node GM estimate (the bytes of that estimate), and the ratios.

usage: zoo.py [--bin DIR] [--models DIR] [--roofline FILE] [--write docs/performance.md] [MODEL...]
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import numpy_helper, shape_inference

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOFLINE = None  # ../shared/tools/roofline.py, loaded by load_roofline()


def load_roofline(path):
    """Imports roofline.py from `path` (it is not part of this repository:
    the team's measuring stick stays one file)."""
    global ROOFLINE
    import importlib.util
    if not os.path.isfile(path):
        sys.exit("zoo.py: %s not found; pass --roofline FILE (../shared/tools/roofline.py)" % path)
    spec = importlib.util.spec_from_file_location("roofline", path)
    ROOFLINE = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ROOFLINE)


def roofline_bounds(model_dir, target):
    """roofline.py's geometry model bound and compute-layer layerwise bound
    (None where a compute layer's shape is unknown), in cycles."""
    r, err = ROOFLINE.analyse(model_dir, ROOFLINE.TARGETS[target], "fp32")
    if err:
        return {"geo_model": None, "geo_layerwise": None,
                "roof_note": "unknown (shape inference failed)"}
    # Layers of unknown shape are left out: the bound stays a lower bound,
    # a looser one (none worth the name when no compute layer is known).
    if r["unknown"] and r["macs"] == 0:
        return {"geo_model": None, "geo_layerwise": None,
                "roof_note": "unknown (%d layers)" % r["unknown"]}
    note = " (%d layers of unknown shape left out)" % r["unknown"] if r["unknown"] else ""
    return {"geo_model": r["geo_model"], "geo_layerwise": r["geo_layerwise"], "roof_note": note}


def target_parameters(bindir):
    """The target description as npuc prints it (`npuc --list-targets`): per
    target the array side per precision, VECTOR lanes and GM bytes per cycle."""
    out = subprocess.run([os.path.join(bindir, "npuc"), "--list-targets"], check=True,
                         capture_output=True, text=True).stdout
    targets, name = {}, None
    for line in out.splitlines():
        if line and not line.startswith(" "):
            name = line.split()[0]
            targets[name] = {}
        elif "=" in line and name:
            key, value = (x.strip() for x in line.split("="))
            targets[name][key] = int(value)
    return {n: {"side_i8": p["MatrixSideInt8"], "side_f32": p["MatrixSideFp32"],
                "lanes": p["VectorBytesPerCycle"], "bw": p["GMBytesPerCycle"], "burst": p["GMBurstBytes"]}
            for n, p in targets.items()}


TARGETS = {}
VIEWS = {"QuantizeLinear", "DequantizeLinear", "Reshape", "Squeeze", "Unsqueeze", "Flatten",
         "Identity", "Constant", "Shape", "Dropout", "Cast", "ConstantOfShape"}
# Layerwise bounds below this many cycles are dominated by the fixed latencies
# the bounds leave out (the 200-cycle DMA start).
MEANINGFUL_BOUND = 10000
# Activations a layer applies on its way out (fused, no GM traffic of their own).
FUSED = {"Relu", "Clip"}


def load_pb(path):
    t = onnx.TensorProto()
    t.ParseFromString(open(path, "rb").read())
    return numpy_helper.to_array(t)


class Graph:
    """The graph with shapes inferred at the test data's input shapes."""

    def __init__(self, model_dir):
        self.dir = model_dir
        data = os.path.join(model_dir, "test_data_set_0")
        files = sorted((f for f in os.listdir(data) if f.startswith("input_")),
                       key=lambda f: int(f[6:-3]))
        self.inputs = [os.path.join(data, f) for f in files]
        m = onnx.load(os.path.join(model_dir, "model.onnx"))
        inits = {t.name for t in m.graph.initializer}
        self.graph_inputs = [i for i in m.graph.input if i.name not in inits]
        # Every input's shape pinned to its data; scalars (scales and zero
        # points fed as inputs) bound to their data, as npuc requires.
        self.shapes_arg, self.sim_inputs = [], []
        for vi, path in zip(self.graph_inputs, self.inputs):
            shape = load_pb(path).shape
            vi.type.tensor_type.shape.ClearField("dim")
            for d in shape:
                vi.type.tensor_type.shape.dim.add().dim_value = d
            if shape:
                self.shapes_arg += ["--input-shape", "%s=%s" % (vi.name, "x".join(map(str, shape)))]
                self.sim_inputs.append("%s=%s" % (vi.name, path))
            else:
                self.shapes_arg += ["--bind-input", "%s=%s" % (vi.name, path)]
        # Shapes from ONNX's inference at the data's input shapes (a model's
        # own value_info may disagree with them: it is dropped first).
        del m.graph.value_info[:]
        for o in m.graph.output:
            if not o.type.tensor_type.shape.dim:
                o.type.tensor_type.ClearField("shape")  # "rank 0" written for "unknown"
        try:
            m = shape_inference.infer_shapes(m, data_prop=True)
        except Exception as e:
            print("%s: shape inference failed (%s); its bounds are partial" % (model_dir, e),
                  file=sys.stderr)
        self.m = m
        self.shapes = {}
        for vi in list(m.graph.value_info) + list(m.graph.input) + list(m.graph.output):
            dims = [d.dim_value for d in vi.type.tensor_type.shape.dim]
            self.shapes[vi.name] = dims if all(d > 0 for d in dims) else None
        self.inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
        for n in m.graph.node:
            if n.op_type == "Constant" and n.attribute and n.attribute[0].t.dims is not None:
                try:
                    self.inits[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
                except Exception:
                    pass
        self.producer = {o: n for n in m.graph.node for o in n.output}

    def numel(self, name):
        if name in self.inits:
            return int(self.inits[name].size)
        s = self.shapes.get(name)
        return int(np.prod(s)) if s else 0

    def quantized(self, name):
        n = self.producer.get(name)
        return n is not None and n.op_type == "DequantizeLinear"

    def storage(self, name):
        """Bytes per element as the NPU stores the tensor."""
        n = self.producer.get(name)
        if n is not None and n.op_type == "DequantizeLinear":
            src = n.input[0]
            return self.inits[src].itemsize if src in self.inits else 1
        if n is not None and n.op_type == "QuantizeLinear":
            zp = n.input[2] if len(n.input) > 2 else ""
            return self.inits[zp].itemsize if zp in self.inits else 1
        if name in self.inits:
            return max(1, self.inits[name].itemsize)
        # A tensor that feeds QuantizeLinear only is stored quantized.
        users = [u for u in self.m.graph.node if name in u.input]
        if users and all(u.op_type == "QuantizeLinear" for u in users):
            return 1
        return 4

    def stored_quantized(self, name):
        """Whether a layer's output is stored quantized: every reader is a
        QuantizeLinear, possibly behind fused activations."""
        users = [u for u in self.m.graph.node if name in u.input]
        return bool(users) and all(
            u.op_type == "QuantizeLinear" or (u.op_type in FUSED and self.stored_quantized(u.output[0]))
            for u in users)

    def weight_shape(self, name):
        if name in self.inits:
            return list(self.inits[name].shape)
        n = self.producer.get(name)
        if n is not None and n.op_type == "DequantizeLinear" and n.input[0] in self.inits:
            return list(self.inits[n.input[0]].shape)
        return self.shapes.get(name)

    def is_const(self, name):
        n = self.producer.get(name)
        return name in self.inits or (n is not None and n.op_type == "DequantizeLinear" and n.input[0] in self.inits)


def geometry(M, K, N, a):
    return math.ceil(K / a) * math.ceil(N / a) * max(M, a)


def layer_bounds(g, t):
    """Per compute layer: (MATRIX/VECTOR cycles by geometry, minimal GM bytes, MACs)."""
    for n in g.m.graph.node:
        if n.op_type in VIEWS:
            continue
        producer = g.producer.get(n.input[0]) if n.input else None
        if n.op_type in FUSED and producer is not None and producer.op_type not in VIEWS:
            continue  # applied by the layer that produces its input
        out = n.output[0]
        if g.shapes.get(out) is None or not n.input:
            continue
        outs = g.numel(out)
        q = all(g.quantized(i) for i in n.input[:2] if i)
        a = t["side_i8"] if q else t["side_f32"]
        cycles = macs = 0
        if n.op_type in ("Conv", "ConvTranspose") and g.weight_shape(n.input[1]):
            w = g.weight_shape(n.input[1])
            group = next((at.i for at in n.attribute if at.name == "group"), 1)
            ys = g.shapes[out]
            M = ys[0] * int(np.prod(ys[2:]))
            if n.op_type == "Conv":
                cout, kg = w[0], int(np.prod(w[1:]))
            else:
                cout, kg = w[1] * group, w[0] // group * int(np.prod(w[2:]))
            ng = cout // group
            macs = M * kg * cout
            cycles = group * geometry(M, kg, ng, a)
            if ng == 1 and group > 1:  # depthwise: the array or VECTOR MACs
                cycles = min(cycles, math.ceil(macs / (t["lanes"] / (1 if q else 4))))
        elif n.op_type in ("MatMul", "Gemm"):
            # Either operand may be an activation (attention's QK^T and
            # scores x V): the shape inferred, or the initializer's.
            sa = g.shapes.get(n.input[0]) or g.weight_shape(n.input[0])
            sb = g.shapes.get(n.input[1]) or g.weight_shape(n.input[1])
            if sa and sb:
                ta = next((at.i for at in n.attribute if at.name == "transA"), 0)
                tb = next((at.i for at in n.attribute if at.name == "transB"), 0)
                M, K = (sa[-1], sa[-2]) if ta else (sa[-2], sa[-1])
                N = sb[-2] if tb else sb[-1]
                batch = int(np.prod(sa[:-2])) if len(sa) > 2 else 1
                macs = batch * M * K * N
                cycles = batch * geometry(M, K, N, a)
        inputs = [i for i in n.input if i]
        if n.op_type == "Pad":
            inputs = inputs[:1]
        out_bytes = 1 if g.stored_quantized(out) else g.storage(out)
        gm = sum(g.numel(i) * g.storage(i) for i in inputs) + outs * out_bytes
        if n.op_type == "Gather" and g.weight_shape(inputs[0]) and inputs[1] not in g.inits:
            # By run-time ids the indexed DMA reads the chosen rows only, each
            # at least one GM burst (npu-v1.md section 9): the ids, the rows
            # (as large as the output) and the output.
            ds = g.weight_shape(inputs[0])
            axis = next((at.i for at in n.attribute if at.name == "axis"), 0) % len(ds)
            row = int(np.prod(ds[axis + 1:])) * g.storage(inputs[0])
            rows = outs // max(1, int(np.prod(ds[axis + 1:])))
            gm = g.numel(inputs[1]) * g.storage(inputs[1]) + rows * max(row, t["burst"]) + outs * out_bytes
        yield cycles, gm, macs


def measure(bindir, model_dir, target):
    g = Graph(model_dir)
    t = TARGETS[target]
    layers = list(layer_bounds(g, t))
    macs = sum(l[2] for l in layers)
    layer_bound = sum(max(c, gm / t["bw"]) for c, gm, _ in layers)
    layer_gm = sum(gm for _, gm, _ in layers)
    weights = sum(v.nbytes for k, v in g.inits.items() if not g.quantized(k))
    io = sum(g.numel(i.name) * g.storage(i.name) for i in list(g.graph_inputs) + list(g.m.graph.output))
    a = t["side_i8"]
    model_bound = max(macs / (a * a), (weights + io) / t["bw"])
    row = dict(roofline_bounds(model_dir, target))
    row.update({"model": os.path.basename(model_dir), "target": target, "macs": macs,
           "model_bound": model_bound, "layer_bound": layer_bound, "layer_gm": layer_gm,
           # Layers inside If/Loop bodies are not counted: no bound then.
           "subgraphs": any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS)
                            for n in g.m.graph.node for a in n.attribute)})
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "m.bin")
        cmd = [os.path.join(bindir, "npuc"), os.path.join(model_dir, "model.onnx"), "--target", target,
               "-o", out, "--allow-unverified"] + g.shapes_arg
        t0 = time.time()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(p.pid, 0)
        row["compile_s"] = time.time() - t0
        row["rss_mb"] = usage.ru_maxrss / 1024
        err = p.stderr.read()
        if os.waitstatus_to_exitcode(status) != 0:
            code = next((w for w in err.split() if w.startswith("NPUC-E")), "error")
            row["status"] = "not compiled (%s)" % code.rstrip(":")
            return row
        sim = [os.path.join(bindir, "npu-sim"), out, "-o", os.path.join(tmp, "o"), "--stats"]
        for arg in g.sim_inputs:
            sim += ["-i", arg]
        t0 = time.time()
        s = subprocess.run(sim, capture_output=True, text=True)
        row["sim_s"] = time.time() - t0
        if s.returncode:
            row["status"] = "npu-sim failed: " + s.stderr.strip().splitlines()[-1][:120]
            return row
        stats = dict(l.split(": ", 1) for l in s.stdout.splitlines() if ": " in l)
        row["cycles"] = int(stats["cycles"].split()[0])
        row["gm"] = int(stats["GM bytes read"]) + int(stats["GM bytes written"])
        row["sim_macs"] = int(stats.get("MACs", "0"))
        row["status"] = "ok"
    return row


def bound_text(value, note=""):
    if value is None:
        return note or "unknown"
    return "{:,.0f}".format(value) + note


def geomean(values):
    return math.exp(sum(math.log(x) for x in values) / len(values))


def table(rows):
    lines = ["| model | target | compile s | RSS MB | cycles | geometry model bound | "
             "cycles / geometry bound | compute-layer bound | model bound | per-node estimate | "
             "GM MB | per-node GM MB | npu-sim MMAC/s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    ratios = []
    for r in rows:
        geo = bound_text(r["geo_model"], r["roof_note"])
        layer = bound_text(r["geo_layerwise"], r["roof_note"])
        known = r["layer_bound"] >= 1 and r["layer_gm"] >= 1 and not r["subgraphs"]
        per_node = "{:,.0f}".format(r["layer_bound"]) if known else "unknown"
        if r.get("status") != "ok":
            lines.append("| %s | %s | %.2f | %.0f | %s | %s | | %s | %s | %s | | | |" % (
                r["model"], r["target"], r.get("compile_s", 0), r.get("rss_mb", 0), r["status"],
                geo, layer, "{:,.0f}".format(r["model_bound"]), per_node))
            continue
        ratio = r["cycles"] / r["geo_model"] if r["geo_model"] else None
        # Bounds leave out fixed latencies (the DMA start): a ratio means
        # something for models whose bound exceeds ~10k cycles.
        if ratio and r["geo_model"] >= MEANINGFUL_BOUND:
            ratios.append(ratio)
        lines.append("| %s | %s | %.2f | %.0f | %s | %s | %s | %s | %s | %s | %.2f | %s | %.0f |" % (
            r["model"], r["target"], r["compile_s"], r["rss_mb"], "{:,}".format(r["cycles"]), geo,
            "%.2f" % ratio if ratio else "", layer, "{:,.0f}".format(r["model_bound"]), per_node,
            r["gm"] / 1e6, "%.2f" % (r["layer_gm"] / 1e6) if known else "",
            r["sim_macs"] / max(r["sim_s"], 1e-9) / 1e6))
    if ratios:
        lines.append("")
        lines.append("Geometric mean of cycles / geometry model bound (roofline.py) over the %d "
                     "runs whose bound exceeds %d cycles: %.2f (smaller models are bound by fixed "
                     "latencies the bounds leave out)." % (len(ratios), MEANINGFUL_BOUND,
                                                           geomean(ratios)))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--models", default=os.path.join(ROOT, "..", "shared", "models"))
    ap.add_argument("--roofline", default=os.path.join(ROOT, "..", "shared", "tools", "roofline.py"),
                    help="the bounds' script (default: ../shared/tools/roofline.py)")
    ap.add_argument("--write", help="write the table into this Markdown file (docs/performance.md)")
    ap.add_argument("--target", action="append", help="a target (default: both)")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    TARGETS.update(target_parameters(args.bin))
    load_roofline(args.roofline)
    names = args.names or sorted(d for d in os.listdir(args.models)
                                 if os.path.isfile(os.path.join(args.models, d, "model.onnx")))
    rows = []
    for name in names:
        for target in args.target or TARGETS:
            r = measure(args.bin, os.path.join(args.models, name), target)
            rows.append(r)
            print("%-32s %-12s %s" % (name, target, r.get("status")), file=sys.stderr, flush=True)
    text = table(rows)
    print(text)
    if args.write:
        doc = open(args.write).read()
        begin, end = "<!-- zoo.py table begin -->", "<!-- zoo.py table end -->"
        if begin not in doc or end not in doc:
            sys.exit("%s has no %s ... %s markers" % (args.write, begin, end))
        head, rest = doc.split(begin, 1)
        _, tail = rest.split(end, 1)
        open(args.write, "w").write(head + begin + "\n" + text + "\n" + end + tail)


if __name__ == "__main__":
    main()
