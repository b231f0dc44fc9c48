#!/usr/bin/python3
"""Benchmark: the transformer-era kernels npuc lowers, one single-kernel model
each (LayerNormalization, Softmax, attention's matrix products, projections,
Gelu, embedding Gather, the attention mask's Where, the head-split Transpose,
residual Add, RMSNormalization, elementwise maps; dynamic quantization, a
ScatterND cache update, STFT and a 3-D convolution), in float32, LayerNorm and
the products also in QDQ int8, through npuc and npu-sim on both targets. A
measurement, not a test: the inputs are random and the outputs not checked.

Per kernel and target: simulated cycles and GM bytes (npu-sim --stats) against
the geometry model bound of ../shared/tools/roofline.py (zoo.py's docstring
defines it: a lower bound, from the ONNX graph and the target alone), and
zoo.py's per-node estimate and per-node GM traffic (not bounds: every ONNX
node through GM once, so a decomposed form npuc fuses, PyTorch's LayerNorm,
the erf GELU, Mul+Add by per-channel constants, runs below it; it counts no
VECTOR time and only the MATRIX time of MatMul, Gemm and Conv). A Gather by
run-time ids counts the rows it reads (the indexed DMA), each at least one
GM burst. The bounds leave out fixed latencies, so sizes are chosen for
bounds of at least zoo.MEANINGFUL_BOUND cycles on npu-v1 where
BERT-base-like shapes allow. Models are compiled with --allow-unverified: a benchmark shape
may reach a lowering case no conformance test has verified.

usage: kernels.py [--bin DIR] [--roofline FILE] [--write docs/performance.md] [--target T]... [KERNEL...]
"""
import argparse
import math
import os
import sys
import tempfile
import time

import numpy as np
from onnx import TensorProto, helper as h, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "e2e"))
import onnx_builder  # noqa: E402
import zoo  # noqa: E402

F32, I8 = TensorProto.FLOAT, TensorProto.INT8
RNG = np.random.default_rng(20261202)
ROWS = [256, 768]  # LayerNorm's rows: tokens x hidden
QROWS = [512, 768]  # int8 rows: 256 of them would bound at 6k cycles
SCORES = [12, 128, 128]  # attention scores: heads x queries x keys
FFN = [128, 3072]  # the feed-forward's inner activation
IMAGE = [1, 64, 56, 56]  # a convolutional stage's activation
KERNELS = {}  # name -> (shape text, opset, build(Kernel))


def rand(shape, lo=-3.0, hi=3.0):
    return RNG.uniform(lo, hi, shape).astype(np.float32)


def text(shape):
    return "[%s]" % ", ".join(map(str, shape))


class Kernel(onnx_builder.Model):
    """onnx_builder's Model with graph inputs of given data and one output."""

    def __init__(self):
        super().__init__()
        self.inputs, self.feeds, self.outputs = [], [], []

    def input(self, name, value):
        elem = numpy_helper.from_array(value).data_type
        self.inputs.append(h.make_tensor_value_info(name, elem, list(value.shape)))
        self.feeds.append(value)
        return name

    def dq_input(self, name, shape, scale):
        """An int8 graph input of random data seen through DequantizeLinear."""
        x = self.input(name, RNG.integers(-128, 128, shape, dtype=np.int8))
        s, z = self.init(name + "_s", np.float32(scale)), self.init(name + "_z", np.int8(0))
        return self.node("DequantizeLinear", [x, s, z], [name + "_dq"])

    def output(self, name, shape, elem=F32):
        self.outputs.append(h.make_tensor_value_info(name, elem, list(shape)))

    def result(self, op, inputs, shape, **attrs):
        """The model's f32 output y = op(inputs)."""
        self.node(op, inputs, ["y"], **attrs)
        self.output("y", shape)

    def write(self, name, opset):
        """The test-data layout zoo.measure reads: model.onnx and
        test_data_set_0/input_K.pb (no expected outputs)."""
        if opset <= 17:  # python3-onnx's checker knows these opsets
            self.save(name, self.inputs, self.outputs, self.feeds, [], opset)
            return
        g = h.make_graph(self.nodes, name, self.inputs, self.outputs, initializer=self.inits)
        m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
        m.ir_version = 10
        onnx_builder.save_unchecked(name, m, self.feeds, [])


def kernel(name, shape, build, opset=17):
    KERNELS[name] = (shape, opset, build)


def layer_norm(k, x, shape, out):
    gamma, beta = k.init("gamma", rand(shape[-1:], 0.5, 1.5)), k.init("beta", rand(shape[-1:], -1, 1))
    return k.node("LayerNormalization", [x, gamma, beta], [out], axis=-1, epsilon=1e-5)


def layernorm_f32(k):
    layer_norm(k, k.input("x", rand(ROWS)), ROWS, "y")
    k.output("y", ROWS)


def layernorm_qdq(k):
    k.q(layer_norm(k, k.dq_input("x", QROWS, 0.025), QROWS, "ln"), 0.05, 0, np.int8, "y")
    k.output("y", QROWS, I8)


def layernorm_decomposed(k):
    """PyTorch's export: (x - mean) / sqrt(mean((x - mean)^2) + eps) * gamma + beta."""
    x = k.input("x", rand(ROWS))
    d = k.node("Sub", [x, k.node("ReduceMean", [x], ["mean"], axes=[-1])], ["d"])
    sq = k.node("Pow", [d, k.init("two", np.float32(2))], ["sq"])
    var = k.node("ReduceMean", [sq], ["var"], axes=[-1])
    std = k.node("Sqrt", [k.node("Add", [var, k.init("eps", np.float32(1e-5))], ["ve"])], ["std"])
    n = k.node("Mul", [k.node("Div", [d, std], ["n"]), k.init("gamma", rand(ROWS[-1:], 0.5, 1.5))], ["g"])
    k.result("Add", [n, k.init("beta", rand(ROWS[-1:], -1, 1))], ROWS)


def matmul(sa, sb, quantized=False, const_b=False):
    """[sa] times an activation or a constant weight [sb]; QDQ: int8 operands
    through DequantizeLinear, the product quantized to int8."""
    out = sa[:-1] + sb[-1:]

    def build(k):
        if not quantized:
            b = k.init("w", rand(sb, -0.1, 0.1)) if const_b else k.input("b", rand(sb))
            k.result("MatMul", [k.input("a", rand(sa)), b], out)
            return
        a = k.dq_input("a", sa, 0.02)
        if const_b:
            b = k.dq_const(RNG.integers(-127, 128, sb, dtype=np.int8), np.float32(0.001), np.int8(0))
        else:
            b = k.dq_input("b", sb, 0.02)
        k.q(k.node("MatMul", [a, b], ["p"]), 0.5, 0, np.int8, "y")
        k.output("y", out, I8)
    return build


def gelu_erf_decomposed(k):
    """x * 0.5 * (1 + Erf(x / sqrt(2))), as tf2onnx writes it."""
    x = k.input("x", rand(FFN))
    e = k.node("Erf", [k.node("Div", [x, k.init("sqrt2", np.float32(math.sqrt(2)))], ["xs"])], ["e"])
    half = k.node("Mul", [x, k.init("half", np.float32(0.5))], ["half_x"])
    k.result("Mul", [half, k.node("Add", [e, k.init("one", np.float32(1))], ["e1"])], FFN)


def gather_embedding(k):
    ids = k.input("ids", RNG.integers(0, 4096, [1, 512], dtype=np.int64))
    k.result("Gather", [k.init("table", rand([4096, 256])), ids], [1, 512, 256], axis=0)


def where_mask(k):
    scores = k.input("scores", rand(SCORES))
    mask = k.input("mask", RNG.random([1, 1, 128]) < 0.9)
    k.result("Where", [mask, scores, k.init("fill", np.float32(-1e4))], SCORES)


def channel_affine(k):
    m = k.node("Mul", [k.input("x", rand(IMAGE)), k.init("scale", rand([64, 1, 1], 0.5, 1.5))], ["m"])
    k.result("Add", [m, k.init("shift", rand([64, 1, 1]))], IMAGE)


def unary(op, lo=-3.0):
    return lambda k: k.result(op, [k.input("x", rand(FFN, lo))], FFN)


kernel("layernorm_f32", text(ROWS), layernorm_f32)
kernel("layernorm_qdq", text(QROWS), layernorm_qdq)
kernel("layernorm_decomposed", text(ROWS), layernorm_decomposed)
kernel("softmax_last", text(SCORES), lambda k: k.result("Softmax", [k.input("x", rand(SCORES))], SCORES))
kernel("softmax_middle", text(SCORES) + ", axis 1",
       lambda k: k.result("Softmax", [k.input("x", rand(SCORES))], SCORES, axis=1))
# The int8 attention products at 256 tokens: at 128 their bounds are ~6k cycles.
for suffix, seq, quantized in (("f32", 128, False), ("qdq", 256, True)):
    for name, sa, sb in (("qk", [12, seq, 64], [12, 64, seq]), ("sv", [12, seq, seq], [12, seq, 64])):
        kernel("matmul_%s_%s" % (name, suffix), text(sa) + " x " + text(sb), matmul(sa, sb, quantized))
    kernel("matmul_proj_" + suffix, "[128, 768] x const [768, 768]",
           matmul([128, 768], [768, 768], quantized, const_b=True))
for name, approximate in (("gelu", "none"), ("gelu_tanh", "tanh")):
    kernel(name, text(FFN), lambda k, a=approximate: k.result(
        "Gelu", [k.input("x", rand(FFN))], FFN, approximate=a), opset=20)
kernel("gelu_erf_decomposed", text(FFN), gelu_erf_decomposed)
kernel("gather_embedding", "const [4096, 256], ids [1, 512]", gather_embedding)
kernel("where_mask", text(SCORES) + ", bool mask [1, 1, 128]", where_mask)
kernel("transpose_heads", "[1, 128, 12, 64] perm [0, 2, 1, 3]", lambda k: k.result(
    "Transpose", [k.input("x", rand([1, 128, 12, 64]))], [1, 12, 128, 64], perm=[0, 2, 1, 3]))
kernel("add_residual", "[128, 768] + [128, 768]", lambda k: k.result(
    "Add", [k.input("a", rand([128, 768])), k.input("b", rand([128, 768]))], [128, 768]))
kernel("channel_affine", text(IMAGE) + " * const [64, 1, 1] + const", channel_affine)
kernel("rmsnorm", text(ROWS), lambda k: k.result(
    "RMSNormalization", [k.input("x", rand(ROWS)), k.init("scale", rand(ROWS[-1:], 0.5, 1.5))], ROWS,
    axis=-1, epsilon=1e-6), opset=23)
for op in ("Erf", "Tanh", "Exp", "Sin", "Atan", "Asinh"):
    kernel(op.lower(), text(FFN), unary(op))
kernel("lrn", text(IMAGE) + ", size 5", lambda k: k.result(
    "LRN", [k.input("x", rand(IMAGE))], IMAGE, size=5, alpha=1e-4, beta=0.75, bias=2.0))
kernel("sqrt", text(FFN), unary("Sqrt", 0.01))

def dynamic_matmul(k):
    """onnxruntime's quantize_dynamic MatMul: DynamicQuantizeLinear, MatMulInteger
    with the run-time zero point, Cast, the scales' product."""
    q, s, z = k.node("DynamicQuantizeLinear", [k.input("x", rand([128, 768]))], ["q", "s", "z"])
    w = k.init("w", RNG.integers(-127, 128, [768, 768], dtype=np.int8))
    acc = k.node("MatMulInteger", [q, w, z, k.init("wz", np.int8(0))], ["acc"])
    f = k.node("Cast", [acc], ["f"], to=F32)
    k.result("Mul", [f, k.node("Mul", [s, k.init("ws", np.float32(0.01))], ["ss"])], [128, 768])


def scatternd_kv_update(k):
    """A KV cache [1, 512, 256] updated at 4 run-time positions (one-hot
    selection: no data-dependent address)."""
    cache = k.input("cache", rand([1, 512, 256]))
    pos = k.input("pos", np.array([[[0, 17]], [[0, 18]], [[0, 19]], [[0, 20]]], np.int64))
    k.result("ScatterND", [cache, pos, k.input("upd", rand([4, 1, 256]))], [1, 512, 256])


kernel("dynamic_matmul", "DQL [128, 768] x const int8 [768, 768]", dynamic_matmul)
kernel("scatternd_kv_update", "[1, 512, 256], 4 positions", scatternd_kv_update)
kernel("stft", "[1, 16000, 1], frame 400 step 160", lambda k: k.result(
    "STFT", [k.input("x", rand([1, 16000, 1])), k.init("step", np.int64(160)), "",
             k.init("len", np.int64(400))], [1, 98, 201, 2]))
kernel("conv3d", "[1, 16, 8, 28, 28] * const [32, 16, 3, 3, 3]", lambda k: k.result(
    "Conv", [k.input("x", rand([1, 16, 8, 28, 28])), k.init("w", rand([32, 16, 3, 3, 3], -0.2, 0.2))],
    [1, 32, 6, 26, 26]))

kernel("reciprocal", text(FFN), unary("Reciprocal", 0.1))
kernel("pow3", text(FFN) + " ^ 3", lambda k: k.result(
    "Pow", [k.input("x", rand(FFN)), k.init("three", np.float32(3))], FFN))


def table(rows):
    lines = ["| kernel | shape | target | cycles | roofline bound | cycles / bound | per-node estimate | "
             "GM MB | per-node GM MB |", "|---|---|---|---|---|---|---|---|---|"]
    ratios = []
    for r in rows:
        ok, bound = r["status"] == "ok", r["geo_model"]
        ratio = r["cycles"] / bound if ok and bound else None
        if ratio and bound >= zoo.MEANINGFUL_BOUND:
            ratios.append(ratio)
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %.2f |" % (
            r["kernel"], r["shape"], r["target"], "{:,}".format(r["cycles"]) if ok else r["status"],
            zoo.bound_text(bound, r["roof_note"]), "%.2f" % ratio if ratio else "",
            "{:,.0f}".format(r["layer_bound"]) if r["layer_bound"] >= 1 else "unknown",
            "%.2f" % (r["gm"] / 1e6) if ok else "", r["layer_gm"] / 1e6))
    if ratios:
        lines += ["", "Geometric mean of cycles / roofline bound over the %d runs whose bound is at "
                  "least %d cycles: %.2f." % (len(ratios), zoo.MEANINGFUL_BOUND, zoo.geomean(ratios))]
    return "\n".join(lines)


def write_table(path, markdown):
    doc = open(path).read()
    begin, end = "<!-- kernels.py table begin -->", "<!-- kernels.py table end -->"
    if begin not in doc or end not in doc:
        sys.exit("%s has no %s ... %s markers" % (path, begin, end))
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    open(path, "w").write(head + begin + "\n" + markdown + "\n" + end + tail)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(zoo.ROOT, "build", "bin"))
    ap.add_argument("--roofline", default=os.path.join(zoo.ROOT, "..", "shared", "tools", "roofline.py"),
                    help="the bounds' script (default: ../shared/tools/roofline.py)")
    ap.add_argument("--write", help="write the table into this Markdown file (docs/performance.md)")
    ap.add_argument("--target", action="append", help="a target (default: both)")
    ap.add_argument("names", nargs="*", metavar="KERNEL", help="kernels to run (default: all)")
    args = ap.parse_args()
    zoo.load_roofline(args.roofline)
    unknown = [n for n in args.names if n not in KERNELS]
    if unknown:
        sys.exit("unknown kernel(s) %s; known: %s" % (", ".join(unknown), ", ".join(KERNELS)))
    zoo.TARGETS.update(zoo.target_parameters(args.bin))
    start, rows = time.time(), []
    with tempfile.TemporaryDirectory() as tmp:
        onnx_builder.set_output(tmp)
        for name in args.names or KERNELS:
            shape, opset, build = KERNELS[name]
            k = Kernel()
            build(k)
            k.write(name, opset)
            for target in args.target or zoo.TARGETS:
                r = zoo.measure(args.bin, os.path.join(tmp, name), target)
                r.update(kernel=name, shape=shape)
                rows.append(r)
                print("%-22s %-12s %s" % (name, target, r["status"]), file=sys.stderr, flush=True)
    markdown = table(rows)
    print(markdown)
    print("%d runs in %.0f s" % (len(rows), time.time() - start), file=sys.stderr)
    if args.write:
        write_table(args.write, markdown)


if __name__ == "__main__":
    main()
