"""The model builder of the verification grid: a small ONNX graph around the
node under test, with its element types made the way exporters make them.

A lowering case names element types (LoweringCase.h): a plain type is a graph
input or output of that ONNX type; a per-tensor quantized type ("qi8") is an
integer graph input seen through DequantizeLinear, or an op's float result
quantized by QuantizeLinear into an integer graph output (its scale and zero
point chosen from the float values, so few saturate); a per-axis one
("qui8/axis") has one scale and zero point per index of its axis.

Independent of npuc: the references come from scripts/onnx_reference (numpy
implementations of the ONNX definitions), evaluated on the finished model.
"""
import hashlib
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import onnx_reference  # noqa: E402

PLAIN = {
    "f32": np.float32, "f16": np.float16, "i1": np.bool_, "i8": np.int8, "ui8": np.uint8,
    "i16": np.int16, "ui16": np.uint16, "i32": np.int32, "ui32": np.uint32, "i64": np.int64,
}
QUANT = {"qi8": np.int8, "qui8": np.uint8, "qi16": np.int16, "qui16": np.uint16, "qi32": np.int32}


class Unbuildable(Exception):
    """A case the grid cannot build a model for; the message says why."""


def storage(t):
    """The numpy type a case type is stored as at the model's boundary."""
    base = t.split("/")[0]
    return QUANT[base] if base in QUANT else PLAIN[base]


def is_quant(t):
    return t.startswith("q")


def per_axis(t):
    return t.endswith("/axis")


def is_float(t):
    return t in ("f32", "f16")


def seed_of(text):
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)


def onnx_type(dtype):
    return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)]


class Net:
    """A graph under construction, with its feeds and its pending quantizations."""

    def __init__(self, key, opset=17):
        self.key = key
        self.rng = np.random.default_rng(seed_of(key))
        self.opset = opset
        self.nodes, self.inits, self.inputs, self.feeds = [], [], [], []
        self.outputs = []          # (name, deferred quantization or None)
        self.n = 0
        self.exact = False         # every output must match bit for bit
        self.float_mode = "fp32"   # npuc --float
        self.atol = None           # float tolerance (None: the runner's default)
        self.rtol = None
        self.params = {}           # name -> (scale, zero point) of quantized values
        # MATRIX's output stage rounds exact ties half away from zero: with
        # power-of-two scales the reference is rounded so (build_matrix.py).
        self.ties_away = False
        self.fp16 = False          # tolerance from the products' magnitudes
        self.rounded_away = {}
        self.f32_products = False  # f32 matrix products: tolerance from magnitudes

    # -- names, constants, nodes --------------------------------------------
    def fresh(self, stem):
        self.n += 1
        return "%s%d" % (stem, self.n)

    def const(self, value, stem="c"):
        name = self.fresh(stem)
        self.inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def node(self, op, inputs, n_out=1, domain="", **attrs):
        outs = [self.fresh(op.lower() + "_") for _ in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, domain=domain or None, **attrs))
        return outs[0] if n_out == 1 else outs

    def graph_input(self, value, stem="x"):
        name = self.fresh(stem)
        value = np.asarray(value)
        self.inputs.append(helper.make_tensor_value_info(name, onnx_type(value.dtype), list(value.shape)))
        self.feeds.append(value)
        return name

    # -- values of a case type -----------------------------------------------
    def random(self, dtype, shape, domain="any"):
        """Values of `dtype`: `domain` any, positive, negative (all below zero),
        nonzero, small (|x| <= 3 for integers), unit (floats in (-1, 1)) or
        above1 (floats of at least 1)."""
        rng = self.rng
        dtype = np.dtype(dtype)
        if dtype == np.bool_:
            return rng.integers(0, 2, shape).astype(np.bool_)
        if dtype.kind == "f":
            x = rng.standard_normal(shape) * 2.0
            if domain == "positive":
                x = np.abs(x) + 0.25
            elif domain == "negative":
                x = -np.abs(x) - 0.25
            elif domain == "nonzero":
                x = np.where(np.abs(x) < 0.25, 0.5, x)
            elif domain == "unit":
                x = np.tanh(x)
            elif domain == "above1":
                x = np.abs(x) + 1.0
            return x.astype(dtype)
        info = np.iinfo(dtype)
        lo, hi = max(int(info.min), -1000), min(int(info.max), 1000)
        if domain == "small":
            lo, hi = max(lo, -3), min(hi, 3)
        if domain == "positive":
            lo = max(lo, 1)
        if domain == "negative":
            hi = min(hi, -1) if lo < 0 else hi
        x = rng.integers(lo, hi + 1, shape, dtype=np.int64)
        if domain == "nonzero":
            x = np.where(x == 0, 1, x)
        return x.astype(dtype)

    def qparams(self, t, lo=-4.0, hi=4.0, channels=None):
        """A scale and zero point of quantized type `t` covering [lo, hi]."""
        info = np.iinfo(storage(t))
        qlo, qhi = int(info.min), int(info.max)
        if info.bits > 16:
            qlo, qhi = -(1 << 20), 1 << 20
            n = 1 if channels is None else channels
            scale = np.full(n, (max(hi, 0.0) - min(lo, 0.0) + 1e-6) / (qhi - qlo), np.float32)
            zp = np.zeros(n, storage(t))  # int32 values (biases) are at zero point 0
            return (scale[0], zp[0]) if channels is None else (scale, zp)
        lo, hi = min(lo, 0.0), max(hi, 0.0)
        if hi - lo < 1e-6:
            hi = lo + 1.0
        n = 1 if channels is None else channels
        scale = ((hi - lo) / (qhi - qlo)) * self.rng.uniform(0.9, 1.3, n)
        zp = np.clip(np.round(qlo - lo / scale), qlo, qhi)
        scale = scale.astype(np.float32)
        zp = zp.astype(storage(t))
        return (scale[0], zp[0]) if channels is None else (scale, zp)

    def value_in(self, t, shape, domain="any", const=False, axis=None, params=None):
        """A tensor of case type `t` as the op under test reads it: the name
        of a plain tensor, or of DequantizeLinear's float result for a
        quantized one (the stored integers a graph input, or an initializer
        when `const`; its scale and zero point `params` when given). `domain`
        restricts the real values (all negative: stored values below the
        zero point)."""
        if not is_quant(t):
            if t not in PLAIN:
                raise Unbuildable("no ONNX type for %s" % t)
            x = self.random(PLAIN[t], shape, domain)
            return self.const(x) if const else self.graph_input(x)
        st = storage(t)
        info = np.iinfo(st)
        attrs = {}
        if per_axis(t):
            axis = 0 if axis is None else axis
            attrs = {"axis": axis}
            scale, zp = params or self.qparams(t, channels=shape[axis])
            q = self.random(st, shape)
        else:
            scale, zp = params or self.qparams(t)
            q = self.random(st, shape)
            if domain in ("negative", "positive", "nonzero"):
                span = self.rng.integers(1, 100, shape)
                v = int(zp) - span if domain == "negative" else int(zp) + span
                q = np.clip(v, info.min, info.max).astype(st)
        name = self.const(q, "w") if const else self.graph_input(q, "q")
        out = self.node("DequantizeLinear", [name, self.const(np.asarray(scale, np.float32), "s"),
                                             self.const(np.asarray(zp, st), "z")], **attrs)
        self.params[out] = (scale, zp)
        return out

    def value_out(self, t, name, like=None, pow2_scale=False):
        """Makes `name` (a float or plain result of the op under test) a graph
        output of case type `t`: as it is, or through QuantizeLinear whose
        parameters are chosen from its values (those of `like`, a dequantized
        input, when given; a power-of-two scale when `pow2_scale`)."""
        if not is_quant(t):
            self.outputs.append((name, None))
            return
        self.outputs.append((name, (t, like, pow2_scale)))

    # -- the model ------------------------------------------------------------
    def _model(self, nodes, outputs):
        g = helper.make_graph(nodes, "grid", self.inputs,
                              [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in outputs],
                              initializer=self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", self.opset)])
        m.ir_version = 8
        return m

    def evaluate(self, nodes, outputs):
        model = self._model(nodes, outputs)
        return onnx_reference.evaluate_outputs(model, dict(zip([i.name for i in self.inputs], self.feeds)))

    def magnitude_bound(self):
        """The largest output of any matrix product in the model run on the
        magnitudes of its float inputs and weights: a bound on the sums of
        |a| |b| whose fp16 operands round into an output (an activation after
        a product can only shrink it)."""
        products = [n.output[0] for n in self.nodes if n.op_type in ("Conv", "MatMul", "Gemm", "ConvTranspose")]
        saved_feeds, saved_inits = self.feeds, list(self.inits)
        self.feeds = [np.abs(f) if f.dtype.kind == "f" else f for f in self.feeds]
        self.inits = [numpy_helper.from_array(np.abs(numpy_helper.to_array(i)), i.name)
                      if numpy_helper.to_array(i).dtype.kind == "f" else i for i in self.inits]
        try:
            got = self.evaluate(self.nodes, products)
        finally:
            self.feeds, self.inits = saved_feeds, saved_inits
        return max(float(np.max(np.abs(g.astype(np.float64)))) for g in got)

    def finish(self):
        """The model (every pending QuantizeLinear added) and its reference
        outputs, with typed graph outputs."""
        pending = [(n, q) for n, q in self.outputs if q is not None]
        values = {}
        if pending:
            got = self.evaluate(self.nodes, [n for n, _ in pending])
            values = dict(zip([n for n, _ in pending], got))
        final = []
        for name, q in self.outputs:
            if q is None:
                final.append(name)
                continue
            t, like, pow2_scale = q
            if like is not None:
                scale, zp = self.params[like]
                if np.dtype(storage(t)) != np.asarray(zp).dtype:
                    raise Unbuildable("the result's quantization must be its input's")
            else:
                v = values[name].astype(np.float64)
                v = v[np.isfinite(v)]
                lo, hi = (float(v.min()), float(v.max())) if v.size else (-1.0, 1.0)
                scale, zp = self.qparams(t, lo, hi)
                if pow2_scale:
                    scale = np.float32(2.0 ** np.ceil(np.log2(scale)))
            out = self.node("QuantizeLinear", [name, self.const(np.asarray(scale, np.float32), "s"),
                                               self.const(np.asarray(zp, storage(t)), "z")])
            if self.ties_away:
                self.rounded_away[out] = (values[name], scale, zp, storage(t))
            final.append(out)
        expected = self.evaluate(self.nodes, final)
        for k, name in enumerate(final):
            if name in self.rounded_away:
                pre, scale, zp, st = self.rounded_away[name]
                v = pre.astype(np.float64) / float(scale)
                info = np.iinfo(st)
                away = np.sign(v) * np.floor(np.abs(v) + 0.5) + int(zp)
                expected[k] = np.clip(away, info.min, info.max).astype(st)
        if self.fp16:
            self.atol = 2.0 ** -8 * self.magnitude_bound()
            self.rtol = 2.0 ** -9
        elif self.f32_products:
            # f32 accumulation in another order than numpy's: a few roundings
            # of the sum of |a| |b| (the default atol and rtol besides)
            self.atol = 1e-5 + 2.0 ** -20 * self.magnitude_bound()
        model = self._model(self.nodes, final)
        for vi, arr in zip(model.graph.output, expected):
            vi.CopyFrom(helper.make_tensor_value_info(vi.name, onnx_type(np.asarray(arr).dtype),
                                                      list(np.asarray(arr).shape)))
        return model, expected

    def tolerance(self):
        parts = []
        if self.float_mode != "fp32":
            parts.append("float=%s" % self.float_mode)
        if self.exact:
            parts.append("exact=1")
        else:
            if self.atol is not None:
                parts.append("atol=%.9g" % self.atol)
            if self.rtol is not None:
                parts.append("rtol=%.9g" % self.rtol)
        return " ".join(parts)

    def save(self, directory):
        model, expected = self.finish()
        data = os.path.join(directory, "test_data_set_0")
        os.makedirs(data, exist_ok=True)
        with open(os.path.join(directory, "model.onnx"), "wb") as f:
            f.write(model.SerializeToString())
        for prefix, arrays in (("input", self.feeds), ("output", expected)):
            for k, a in enumerate(arrays):
                with open(os.path.join(data, "%s_%d.pb" % (prefix, k)), "wb") as f:
                    f.write(numpy_helper.from_array(np.asarray(a)).SerializeToString())
        tol = self.tolerance()
        if tol:
            with open(os.path.join(directory, "tolerance.txt"), "w") as f:
                f.write(tol + "\n")
        return model
