"""Writes semantically equal spellings of an ONNX model, the way different
exporters and opset versions write it: respell.py MODEL OUTDIR writes
OUTDIR/{defaults,autopad,opset}.onnx.

- defaults: every attribute the model leaves at its default written out
  (Conv strides/dilations/group/kernel_shape/pads, Gemm alpha/beta/transA/
  transB, pools' strides/pads, Flatten axis, Softmax axis, LeakyRelu alpha).
- autopad: a Conv whose pads are the symmetric 'same' padding of a stride-1
  odd kernel written as auto_pad=SAME_UPPER instead.
- opset: the default-domain opset moved to another version at which every op
  of the model keeps its semantics (11 when the model is at 13 or later, 13
  otherwise); QuantizeLinear/DequantizeLinear keep theirs from opset 10 on.
"""
import os
import sys

import onnx
from onnx import helper as h

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
base = onnx.load(src)
inits = {t.name: t for t in base.graph.initializer}


def attrs(node):
    return {a.name: a for a in node.attribute}


def set_default(node, name, value):
    if name not in attrs(node):
        node.attribute.append(h.make_attribute(name, value))


def defaults(model):
    for n in model.graph.node:
        if n.op_type == "Conv":
            w = inits.get(n.input[1])
            spatial = len(w.dims) - 2 if w is not None else 2
            set_default(n, "strides", [1] * spatial)
            set_default(n, "dilations", [1] * spatial)
            set_default(n, "group", 1)
            if w is not None:
                set_default(n, "kernel_shape", list(w.dims[2:]))
            if "auto_pad" not in attrs(n):
                set_default(n, "pads", [0] * (2 * spatial))
        elif n.op_type == "Gemm":
            set_default(n, "alpha", 1.0)
            set_default(n, "beta", 1.0)
            set_default(n, "transA", 0)
            set_default(n, "transB", 0)
        elif n.op_type in ("MaxPool", "AveragePool"):
            k = len(attrs(n)["kernel_shape"].ints)
            set_default(n, "strides", [1] * k)
            if "auto_pad" not in attrs(n):
                set_default(n, "pads", [0] * (2 * k))
        elif n.op_type == "Flatten":
            set_default(n, "axis", 1)
        elif n.op_type == "LeakyRelu":
            set_default(n, "alpha", 0.01)
    return model


def autopad(model):
    for n in model.graph.node:
        a = attrs(n)
        if n.op_type != "Conv" or "pads" not in a:
            continue
        w = inits.get(n.input[1])
        if w is None:
            continue
        ks = list(w.dims[2:])
        strides = list(a["strides"].ints) if "strides" in a else [1] * len(ks)
        dil = list(a["dilations"].ints) if "dilations" in a else [1] * len(ks)
        same = [((k - 1) * d) // 2 for k, d in zip(ks, dil)]
        if all(s == 1 for s in strides) and all(k % 2 for k in ks) and \
                list(a["pads"].ints) == same + same:
            kept = [x for x in n.attribute if x.name != "pads"]
            del n.attribute[:]
            n.attribute.extend(kept + [h.make_attribute("auto_pad", "SAME_UPPER")])
    return model


def opset(model):
    for o in model.opset_import:
        if o.domain in ("", "ai.onnx"):
            o.version = 11 if o.version >= 13 else 13
    return model


for name, fn in (("defaults", defaults), ("autopad", autopad), ("opset", opset)):
    m = onnx.ModelProto()
    m.CopyFrom(base)
    onnx.save(fn(m), os.path.join(out, name + ".onnx"))
