"""Shared by the end-to-end suite generators (gen_qdq_suite.py,
gen_importer_gaps.py): a small ONNX model builder that writes a test directory
(model.onnx, test_data_set_0/input_K.pb and output_K.pb), and the numpy
references of the ONNX definitions both use (QuantizeLinear, DequantizeLinear,
Conv). Independent of npuc."""
import os
import sys

import numpy as np
import onnx
from onnx import helper as h
from onnx import numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import onnx_reference  # noqa: E402

# Where Model.save writes its test directories (set_output).
_out = "."


def output_dir(doc):
    """The generator's one argument, OUTDIR (exits with the usage line of
    `doc`, its last line, otherwise)."""
    if len(sys.argv) != 2:
        sys.exit(doc.strip().splitlines()[-1])
    return sys.argv[1]


def y_saver(out, default_opset):
    """save(name, nodes, feeds, expected, inits=(), opset=default_opset,
    tolerance=None): save_reference_test of a graph whose one output is 'y',
    its expected value given (a numpy evaluation of the ONNX definition), or
    with None evaluated by scripts/onnx_reference."""
    def save(name, nodes, feeds, expected=None, inits=(), opset=default_opset, tolerance=None):
        save_reference_test(out, name, nodes, feeds, ["y"], inits=inits, opset=opset, tolerance=tolerance,
                            expected=None if expected is None else [np.asarray(expected)])
    return save


def set_output(path):
    global _out
    _out = path


def save_unchecked(name, model, feeds, expected):
    """Writes `model` and its one data set under the output directory without
    onnx.checker (for opsets newer than python3-onnx knows)."""
    os.makedirs(os.path.join(_out, name), exist_ok=True)
    with open(os.path.join(_out, name, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    write_data_set(name, 0, feeds, expected)


def save_graph(name, nodes, inputs, outputs, inits, feeds, expected, opset, ir_version=10):
    """The graph of `nodes` as a model of default-domain `opset`, written by
    save_unchecked with its one data set."""
    g = h.make_graph(nodes, name, inputs, outputs, initializer=inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = ir_version
    save_unchecked(name, m, feeds, expected)


def value_info(name, shape, t=onnx.TensorProto.FLOAT):
    return h.make_tensor_value_info(name, t, shape)


def write_data_set(name, index, feeds, expected):
    """Writes test_data_set_INDEX (input_K.pb, output_K.pb) of test `name`."""
    d = os.path.join(_out, name, "test_data_set_%d" % index)
    os.makedirs(d, exist_ok=True)
    for prefix, arrays in (("input", feeds), ("output", expected)):
        for k, a in enumerate(arrays):
            with open(os.path.join(d, "%s_%d.pb" % (prefix, k)), "wb") as f:
                f.write(numpy_helper.from_array(a).SerializeToString())


def onnx_type(dtype):
    return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)]


def save_reference_test(out, name, nodes, feeds, outputs, inits=(), opset=17, tolerance=None,
                        expected=None):
    """Writes OUT/NAME as a test directory: the graph of `nodes` over the
    graph inputs `feeds` (name -> array) and the initializers `inits` ((name,
    array) pairs), its outputs `outputs` typed by their reference values
    (scripts/onnx_reference, unless `expected` gives them), and tolerance.txt
    when `tolerance` is given."""
    inputs = [h.make_tensor_value_info(k, onnx_type(v.dtype), list(v.shape)) for k, v in feeds.items()]
    g = h.make_graph(nodes, name, inputs, [h.make_tensor_value_info(o, onnx.TensorProto.UNDEFINED, None)
                                            for o in outputs],
                     [numpy_helper.from_array(np.asarray(v), k) for k, v in inits])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    if expected is None:
        expected = onnx_reference.evaluate_outputs(m, feeds)
    for vi, e in zip(m.graph.output, expected):
        vi.CopyFrom(h.make_tensor_value_info(vi.name, onnx_type(e.dtype), list(e.shape)))
    d = os.path.join(out, name, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(out, name, "model.onnx"), "wb") as f:
        f.write(m.SerializeToString())
    for prefix, arrays in (("input", list(feeds.values())), ("output", expected)):
        for k, a in enumerate(arrays):
            with open(os.path.join(d, "%s_%d.pb" % (prefix, k)), "wb") as f:
                f.write(numpy_helper.from_array(np.asarray(a)).SerializeToString())
    if tolerance:
        with open(os.path.join(out, name, "tolerance.txt"), "w") as f:
            f.write(tolerance + "\n")


def quant(x, s, z, dtype):
    """QuantizeLinear: saturate(round_half_even(x / s) + z), in float32."""
    s = np.asarray(s, np.float32)
    info = np.iinfo(dtype)
    return np.clip(np.rint(x.astype(np.float32) / s) + np.asarray(z, np.float32), info.min, info.max).astype(dtype)


def dequant(q, s, z):
    """DequantizeLinear: (q - z) * s, in float32."""
    return (q.astype(np.float32) - np.asarray(z, np.float32)) * np.asarray(s, np.float32)


def conv2d(x, w, b, stride, pads, group, dilation=1):
    """Conv in float64 (x, w as given), plus bias, cast to float32."""
    x = np.pad(x.astype(np.float64), [(0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])])
    n, c, hh, ww = x.shape
    m, cg, kh, kw = w.shape
    w = w.astype(np.float64)
    d = dilation
    oh, ow = (hh - d * (kh - 1) - 1) // stride + 1, (ww - d * (kw - 1) - 1) // stride + 1
    y = np.zeros((n, m, oh, ow))
    mg = m // group
    for o in range(m):
        g = o // mg
        for i in range(oh):
            for j in range(ow):
                win = x[:, g * cg:(g + 1) * cg, i * stride:i * stride + d * (kh - 1) + 1:d,
                        j * stride:j * stride + d * (kw - 1) + 1:d]
                y[:, o, i, j] = (win * w[o]).sum(axis=(1, 2, 3))
    return (y + np.asarray(b, np.float64).reshape(1, -1, 1, 1)).astype(np.float32)


class Model:
    def __init__(self, infer_shapes=False):
        """infer_shapes: save() also runs ONNX's strict shape inference."""
        self.nodes, self.inits, self.n = [], [], 0
        self.infer_shapes = infer_shapes

    def init(self, name, value):
        """An initializer."""
        self.inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def constant(self, name, value):
        """A Constant node (what torch.onnx writes for literals)."""
        self.nodes.append(h.make_node("Constant", [], [name], value=numpy_helper.from_array(np.asarray(value), name + "_v")))
        return name

    def node(self, op, inputs, outputs, **attrs):
        self.nodes.append(h.make_node(op, inputs, outputs, **attrs))
        return outputs[0] if len(outputs) == 1 else outputs

    def qdq(self, x, s, z, dtype, axis=None):
        """Q then DQ of float tensor `x` (returns the dequantized name)."""
        self.n += 1
        sn, zn = self.init("s%d" % self.n, np.asarray(s, np.float32)), self.init("z%d" % self.n, np.asarray(z, dtype))
        kw = {} if axis is None else {"axis": axis}
        self.node("QuantizeLinear", [x, sn, zn], ["q%d" % self.n], **kw)
        return self.node("DequantizeLinear", ["q%d" % self.n, sn, zn], ["dq%d" % self.n], **kw)

    def q(self, x, s, z, dtype, name):
        self.n += 1
        sn, zn = self.init("s%d" % self.n, np.float32(s)), self.init("z%d" % self.n, np.asarray(z, dtype))
        return self.node("QuantizeLinear", [x, sn, zn], [name])

    def dq_const(self, q, s, z, axis=None):
        """A quantized initializer seen through DequantizeLinear."""
        self.n += 1
        qn = self.init("w%d" % self.n, q)
        sn = self.init("ws%d" % self.n, np.asarray(s, np.float32))
        zn = self.init("wz%d" % self.n, np.asarray(z, q.dtype))
        kw = {} if axis is None else {"axis": axis}
        return self.node("DequantizeLinear", [qn, sn, zn], ["wdq%d" % self.n], **kw)

    def save(self, name, inputs, outputs, feeds, expected, opset=13):
        g = h.make_graph(self.nodes, name, inputs, outputs, initializer=self.inits)
        m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
        m.ir_version = 8
        onnx.checker.check_model(m)
        if self.infer_shapes:
            onnx.shape_inference.infer_shapes(m, check_type=True, strict_mode=True)
        d = os.path.join(_out, name)
        os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
        onnx.save(m, os.path.join(d, "model.onnx"))
        for k, (vi, arr) in enumerate(zip(inputs, feeds)):
            t = numpy_helper.from_array(arr, vi.name)
            open(os.path.join(d, "test_data_set_0", "input_%d.pb" % k), "wb").write(t.SerializeToString())
        for k, (vi, arr) in enumerate(zip(outputs, expected)):
            t = numpy_helper.from_array(arr, vi.name)
            open(os.path.join(d, "test_data_set_0", "output_%d.pb" % k), "wb").write(t.SerializeToString())
