#!/usr/bin/env python3
"""npuc-layer-check: judge every layer of a compiled model on its own inputs.

usage: npuc-layer-check.py MODEL.onnx DUMPDIR [--json OUT.json] [--max-step N]
                           [--rtol R] [--atol A] [--strict] [--quiet]

DUMPDIR is what `npu-sim --dump-tensors DUMPDIR` writes: index.json and one
.npy file per value the compiled program materialized (see docs below).

The checker walks the ONNX graph node by node and evaluates each node with a
numpy implementation of the op's ONNX definition (the model's default-domain
opset decides the semantics). Each input of a node is taken, in this order,
from

  1. the dump (the compiled program's own value: every layer is judged on the
     inputs the compiled program actually gave it),
  2. the initializers and Constant nodes,
  3. the checker's own value computed for the upstream node.

Every node output present in the dump is then compared with the checker's
value computed from those inputs. In a QDQ network
`x_u8 (dumped) -> DequantizeLinear -> Conv -> QuantizeLinear -> y_u8 (dumped)`
the DequantizeLinear and Conv outputs come from the checker, and y_u8 is
compared: that is one layer.

Comparison rules

  quantized   the dumped value is an integer and has `quant` info in the dump,
              or is the output of QuantizeLinear, QLinearConv, QLinearMatMul,
              DynamicQuantizeLinear or a com.microsoft QLinear* op. The error is
              |got - ref| in integer steps; within tolerance iff <= --max-step.
  integer     any other integer (or bool) value: must be equal.
  float       within tolerance iff
                  |got - ref| <= atol + rtol * |ref| + 1e-5 * max|ref|
              (max over the whole tensor). The tensor-wide term absorbs
              cancellation: an element of a long dot product whose terms cancel
              to nearly zero carries the rounding error of the large terms, not
              of its own small value. NaN matches NaN; infinities must be equal.
  real domain the dump is integer with `quant` but ONNX holds the value as a
              float (the compiler kept it quantized): the dump is dequantized
              and compared with the float reference (saturated to the range
              the quantized type can hold), allowing --max-step * scale.

A shape mismatch fails that value; downstream nodes then use the checker's own
value for it (the dumped one cannot be fed to them).

The references are the package onnx_reference (scripts/onnx_reference/, one
module per family of ops), shared with the test generators; where the ONNX
text leaves a definition open, the package's documentation says which rule
the references follow. Ops without a reference (and modes such as Resize
antialias or blocked quantization) are listed as not evaluated, never
skipped silently.

A value index.json lists with `"file": null` and a `missing` reason (npu-sim:
the program did not reach it, after a fault, or did not write every byte of
it) is not a dumped value: its producer's output is listed as not compared
with that reason, its readers run on the checker's own value for it (or are
not evaluated, with the reason, when there is none), and the summary lists it.

Exit status: 0 when every compared value is within tolerance, 1 when any is
beyond (or, with --strict, when any node could not be evaluated or the dump
lacks a value of the model, quantized or float alike: --strict asks for a
complete check), 2 on usage errors or unreadable inputs.
"""

import argparse
import json
import os
import sys

import numpy as np

try:
    import onnx
except ImportError:  # pragma: no cover - environment problem
    sys.stderr.write("npuc-layer-check: error: the onnx Python package is missing "
                     "(Debian: apt-get install python3-onnx)\n")
    sys.exit(2)

# The numpy references of the ONNX ops: the package next to this script.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_reference import (NotEvaluated, UsageError, ONNX_TO_NP, QUANTIZING_OPS,  # noqa: E402
                            GraphEvaluator, op_label, subgraph_inputs, topo_order)


PROG = "npuc-layer-check"
TENSOR_RTOL = 1e-5  # the tensor-wide term of the float tolerance, see the module doc


# ----------------------------------------------------------------------------
# The dump
# ----------------------------------------------------------------------------

class Dumped:
    """One value of the dump: its index.json entry and its .npy file (mapped,
    so a large dump costs memory only for the values used)."""

    def __init__(self, meta, path):
        self.meta = meta
        self.path = path
        try:
            self.array = np.asarray(np.load(path, mmap_mode="r", allow_pickle=False))
        except (OSError, ValueError) as e:
            raise UsageError("cannot read %s: %s" % (path, e))

    @property
    def quant(self):
        q = self.meta.get("quant")
        return q if q else None


def load_dump(dumpdir):
    """index.json of a dump directory -> (the document, {name: Dumped}, {name: entry}).

    The last dict holds the values the dump lacks: npu-sim writes
    `"file": null` and a `missing` reason for a value the program did not reach
    (after a fault) or did not write completely. They are not dumped values:
    the checker uses its own value for them and reports them."""
    index = os.path.join(dumpdir, "index.json")
    if not os.path.isdir(dumpdir):
        raise UsageError("%s is not a directory" % dumpdir)
    try:
        with open(index) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise UsageError("cannot read %s: %s" % (index, e))
    if not isinstance(doc, dict) or not isinstance(doc.get("values"), list):
        raise UsageError("%s has no \"values\" list" % index)
    values, missing = {}, {}
    for k, meta in enumerate(doc["values"]):
        if not isinstance(meta, dict) or not isinstance(meta.get("name"), str):
            raise UsageError("%s: value %d lacks a name" % (index, k))
        q = meta.get("quant")
        if q is not None and (not isinstance(q, dict) or not q.get("scales")):
            raise UsageError("%s: value %s: quant needs scales" % (index, meta["name"]))
        why = meta.get("missing")
        if why is not None and not isinstance(why, str):
            raise UsageError("%s: value %s: missing is not a text" % (index, meta["name"]))
        if meta.get("file") is None and ("file" in meta or why is not None):
            meta = dict(meta, missing=why or "no file in the dump")
            missing[meta["name"]] = meta
            continue
        if not isinstance(meta.get("file"), str):
            raise UsageError("%s: value %s lacks a file (a file name, or null with a missing "
                             "reason)" % (index, meta["name"]))
        path = os.path.join(dumpdir, meta["file"])
        if not os.path.isfile(path):
            raise UsageError("%s: value %s: %s does not exist" % (index, meta["name"], path))
        values[meta["name"]] = Dumped(meta, path)
    for name in values:  # named twice: the entry with a file counts
        missing.pop(name, None)
    return doc, values, missing


def _quant_arrays(quant, ndim):
    """scale and zero point of a dump's quant entry, shaped for a rank-ndim tensor
    (axis < 0: per tensor)."""
    s = np.asarray(quant["scales"], dtype=np.float64)
    z = np.asarray(quant.get("zero_points") or [0] * len(s), dtype=np.float64)
    axis = quant.get("axis", -1)
    if axis is None or axis < 0 or len(s) == 1:
        return s.reshape(-1)[0], z.reshape(-1)[0]
    shape = [1] * ndim
    shape[axis] = len(s)
    return s.reshape(shape), z.reshape(shape)


def dequantize_dump(a, quant):
    """A quantized dump in the real domain (float64): (q - zero_point) * scale."""
    s, z = _quant_arrays(quant, a.ndim)
    return (a.astype(np.float64) - z) * s


def to_onnx_type(a, quant, dtype):
    """A dumped array as the ONNX value it stands for: a quantized dump of a
    float value is dequantized, other type differences are plain casts."""
    if dtype is None or a.dtype == dtype:
        return a
    if dtype.kind == "f" and a.dtype.kind in "iu" and quant:
        return dequantize_dump(a, quant).astype(dtype)
    if dtype == np.bool_:
        return a != 0
    if dtype.kind in "iu" and a.dtype.kind == "f":
        return np.rint(a).astype(dtype)
    return a.astype(dtype)


# ----------------------------------------------------------------------------
# Comparison
# ----------------------------------------------------------------------------

class Tolerance:
    def __init__(self, max_step=1, rtol=1e-4, atol=1e-5):
        self.max_step, self.rtol, self.atol = max_step, rtol, atol


def compare(got, ref, quant, quantizing, tol):
    """Compare a dumped value with the reference. Returns the output record
    (without the name): kind, the largest error, beyond / count / differing, ok."""
    rec = {"compared": True, "count": int(ref.size)}
    notes = []
    if got.dtype != ref.dtype:
        notes.append("dump %s, ONNX %s" % (got.dtype, ref.dtype))
    int_dump = got.dtype.kind in "iub"
    if ref.dtype.kind in "iub":
        kind = "quantized" if ref.dtype.kind in "iu" and (quant or quantizing) else "integer"
    elif ref.dtype.kind == "f":
        kind = "quantized" if int_dump and quant else "float"
    else:
        rec.update(kind="other", compared=False, ok=True, beyond=0, differing=0)
        rec["reason"] = "values of type %s are not compared" % ref.dtype
        return rec
    rec["kind"] = kind
    if got.shape != ref.shape:
        rec.update(ok=False, beyond=int(ref.size), differing=int(ref.size),
                   reason="shape %s, ONNX %s" % (list(got.shape), list(ref.shape)))
        return rec
    if kind == "quantized" and ref.dtype.kind == "f":
        # The compiler holds quantized what ONNX holds as float.
        s, z = _quant_arrays(quant, got.ndim)
        info = np.iinfo(got.dtype) if got.dtype.kind in "iu" else np.iinfo(np.uint8)
        lo, hi = (info.min - z) * s, (info.max - z) * s
        refr = np.clip(ref.astype(np.float64), lo, hi)
        err = np.abs(dequantize_dump(got, quant) - refr) / s
        err = np.nan_to_num(err, nan=np.inf)
        notes.append("real domain: the dump dequantized, the reference saturated to its "
                     "range, error in steps of the dump's scale")
        # The dump is a rounding of the value: up to half a step is no difference.
        rec["max_step"] = float(err.max()) if err.size else 0.0
        rec["beyond"] = int(np.count_nonzero(err > tol.max_step + 1e-6))
        rec["differing"] = int(np.count_nonzero(err > 0.5 + 1e-6))
        rec["real_domain"] = True
    elif kind == "quantized":
        if int_dump:
            err = np.abs(got.astype(np.int64) - ref.astype(np.int64))
        else:
            err = np.abs(got.astype(np.float64) - ref.astype(np.float64))
            err = np.nan_to_num(err, nan=np.inf)
        rec["max_step"] = (int(err.max()) if int_dump else float(err.max())) if err.size else 0
        rec["beyond"] = int(np.count_nonzero(err > tol.max_step))
        rec["differing"] = int(np.count_nonzero(err))
        rec["one_step"] = int(np.count_nonzero(err == 1))
    elif kind == "integer":
        if got.dtype.kind == "f":
            diff = got.astype(np.float64) != ref.astype(np.float64)
            err = np.abs(np.nan_to_num(got.astype(np.float64) - ref.astype(np.float64), nan=np.inf))
        else:
            diff = got.astype(np.int64) != ref.astype(np.int64)
            err = np.abs(got.astype(np.int64) - ref.astype(np.int64))
        rec["max_abs"] = (float(err.max()) if got.dtype.kind == "f" else int(err.max())) if err.size else 0
        rec["beyond"] = rec["differing"] = int(np.count_nonzero(diff))
    else:
        g, r = got.astype(np.float64), ref.astype(np.float64)
        if int_dump:
            notes.append("integer dump without quant info compared as a float")
        both_nan = np.isnan(g) & np.isnan(r)
        finite = np.isfinite(g) & np.isfinite(r)
        with np.errstate(all="ignore"):
            err = np.where(finite, np.abs(g - r), 0.0)
            rfin = np.abs(r[np.isfinite(r)])
            top = float(rfin.max()) if rfin.size else 0.0
            bound = tol.atol + tol.rtol * np.abs(r) + TENSOR_RTOL * top
            inside = both_nan | (finite & (err <= bound)) | (~finite & ~np.isnan(g) & (g == r))
            rel = np.where(finite & (r != 0), err / np.abs(r), 0.0)
        rec["max_abs"] = float(err.max()) if err.size else 0.0
        rec["max_rel"] = float(rel.max()) if rel.size else 0.0
        rec["beyond"] = int(np.count_nonzero(~inside))
        rec["differing"] = int(np.count_nonzero(~both_nan & (g != r)))
        bad_special = int(np.count_nonzero(~inside & ~finite))
        if bad_special:
            notes.append("%d NaN/infinity mismatches" % bad_special)
    rec["ok"] = rec["beyond"] == 0
    if notes:
        rec["note"] = "; ".join(notes)
    return rec


# ----------------------------------------------------------------------------
# The graph walk
# ----------------------------------------------------------------------------

def _kind_of(ref, quantizing):
    """The comparison kind a value of this type would get (for the report)."""
    if ref is None:
        return None
    if ref.dtype.kind in "iu" and quantizing:
        return "quantized"
    return "float" if ref.dtype.kind == "f" else "integer"


class Checker(GraphEvaluator):
    """Evaluates a model node by node on the dumped values and compares."""

    def __init__(self, model, dump, tol, missing=None):
        GraphEvaluator.__init__(self, model)  # the opsets and the initializers
        self.dump = dump
        self.missing = missing or {}  # {name: index entry} of values the dump lacks
        self.tol = tol
        self.computed = {}
        self.quantizing = {}  # value -> produced by a quantizing op
        self.unusable = set()  # dumped values that cannot be fed downstream
        self.types = self._value_types()
        self._converted = {}

    def _value_types(self):
        """ONNX element types of the graph's values (declared or inferred)."""
        try:
            inferred = onnx.shape_inference.infer_shapes(self.model).graph
        except Exception:  # inference is a help only
            inferred = self.graph
        types = {}
        for vi in list(inferred.value_info) + list(self.graph.input) + list(self.graph.output):
            t = vi.type.tensor_type.elem_type if vi.type.HasField("tensor_type") else 0
            if t in ONNX_TO_NP:
                types[vi.name] = np.dtype(ONNX_TO_NP[t])
        return types

    def dumped_value(self, name):
        """A dumped value in its ONNX type (the reference's, else the declared one)."""
        if name in self._converted:
            return self._converted[name]
        d = self.dump[name]
        ref = self.computed.get(name)
        dtype = ref.dtype if ref is not None else self.types.get(name)
        v = to_onnx_type(d.array, d.quant, dtype)
        self._converted[name] = v
        return v

    def lookup(self, name):
        """An input value: the dump, else the constants, else our own value.
        (A dumped initializer of another shape, a compiler's own layout, is not used.)"""
        if name in self.dump and name not in self.unusable:
            if name not in self.consts or self.dump[name].array.shape == self.consts[name].shape:
                return self.dumped_value(name)
        if name in self.consts:
            return self.consts[name]
        return self.computed.get(name)

    def _why_unknown(self, name):
        if name in self.const_errors:
            return "input %s unknown (%s)" % (name, self.const_errors[name])
        if name in self.missing:
            return "input %s unknown (not dumped: %s)" % (name, self.missing[name]["missing"])
        return "input %s unknown" % name

    def _not_dumped(self, name):
        """The reason an output has no dumped value."""
        if name in self.missing:
            return "not dumped: %s" % self.missing[name]["missing"]
        return "not dumped"

    def missing_kind(self, name):
        """The comparison kind a value the dump lacks would have had."""
        meta = self.missing[name]
        if meta.get("quant"):
            return "quantized"
        ref = self.computed.get(name)
        if ref is not None:
            return _kind_of(ref, self.quantizing.get(name, False))
        dtype = self.types.get(name)
        if dtype is None:
            if not isinstance(meta.get("dtype"), str):
                return None
            try:
                dtype = np.dtype(meta["dtype"])
            except TypeError:  # e.g. bfloat16
                return None
        return "float" if dtype.kind == "f" else "integer"

    def scope_value(self, name, local, outer):
        """A value read inside an If branch: the dump, else the branch's own,
        else the outer scope's."""
        if name in self.dump and name not in self.unusable:
            return self.dumped_value(name)
        return GraphEvaluator.scope_value(self, name, local, outer)

    def run(self):
        records = []
        for proto in topo_order(self.graph):
            records.append(self._node(proto))
        return records

    def _node(self, proto):
        n = self.node(proto, self.lookup)
        rec = {"node": n.name, "op": op_label(proto), "outputs": []}
        quantizing = (n.domain, n.op) in QUANTIZING_OPS
        # Inputs the dump lacks: the node runs on the checker's own value for them.
        lacking = {i: self.missing[i]["missing"] for i in subgraph_inputs(proto)
                   if i in self.missing and i not in self.consts}
        if lacking:
            rec["inputs_not_dumped"] = lacking
        try:
            res = self._call(n, proto, self.lookup)
        except NotEvaluated as e:
            rec["status"] = "not evaluated: %s" % e
            rec["reason"] = str(e)
            for name in proto.output:
                if name:
                    self.computed[name] = None
                    self.quantizing[name] = quantizing
                    rec["outputs"].append({"name": name, "compared": False,
                                           "reason": "node not evaluated" if name in self.dump
                                           else self._not_dumped(name)})
            return rec
        for k, name in enumerate(proto.output):
            if not name:
                continue
            ref = res[k] if k < len(res) else None
            self.computed[name] = ref
            self.quantizing[name] = quantizing
            if name not in self.dump:
                rec["outputs"].append({"name": name, "kind": _kind_of(ref, quantizing),
                                       "compared": False, "reason": self._not_dumped(name)})
                continue
            if ref is None:
                rec["outputs"].append({"name": name, "compared": False,
                                       "reason": "the reference does not produce this output"})
                continue
            d = self.dump[name]
            out = {"name": name}
            out.update(compare(d.array, ref, d.quant, quantizing, self.tol))
            if out["compared"] and d.array.shape != ref.shape:
                self.unusable.add(name)
            self._converted.pop(name, None)  # convert again, now to the reference's type
            rec["outputs"].append(out)
        compared = [o for o in rec["outputs"] if o.get("compared")]
        if any(not o["ok"] for o in compared):
            rec["status"] = "BEYOND"
        elif compared:
            rec["status"] = "ok"
        else:
            why = sorted({self.missing[o["name"]]["missing"] for o in rec["outputs"]
                          if o["name"] in self.missing})
            rec["status"] = "not compared (not dumped%s)" % (": " + "; ".join(why) if why else "")
        return rec


# ----------------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------------

def summarize(records, dump, graph, checker):
    outs = [o for r in records for o in r["outputs"] if o.get("compared")]
    quant = [o for o in outs if o["kind"] == "quantized"]
    flt = [o for o in outs if o["kind"] == "float"]
    known = {o for nd in graph.node for o in nd.output} | {i.name for i in graph.input}
    not_eval = [r for r in records if r["status"].startswith("not evaluated")]
    missing_ops = {}
    for r in not_eval:
        if r["reason"].startswith("no reference for"):
            missing_ops[r["op"]] = missing_ops.get(r["op"], 0) + 1
    inputs = [i.name for i in graph.input if i.name not in checker.consts]
    # Values of the model the dump lists without a file (not reached, not
    # completely written): they could not be compared.
    lacking = [{"name": nm, "kind": checker.missing_kind(nm), "reason": meta["missing"]}
               for nm, meta in sorted(checker.missing.items()) if nm in known]
    s = {
        "nodes": len(records),
        "evaluated": len(records) - len(not_eval),
        "not_evaluated": len(not_eval),
        "no_reference_ops": missing_ops,
        "compared_values": len(outs),
        "within_tolerance": sum(1 for o in outs if o["ok"]),
        "beyond_tolerance": sum(1 for o in outs if not o["ok"]),
        "quantized_values": len(quant),
        "quantized_elements": sum(o["count"] for o in quant),
        "max_step": max([o.get("max_step", 0) for o in quant], default=0),
        "elements_one_step": sum(o.get("one_step", 0) for o in quant),
        "elements_more_than_one_step": sum(o["differing"] - o.get("one_step", 0) for o in quant),
        "float_values": len(flt),
        "float_max_abs": max([o["max_abs"] for o in flt if "max_abs" in o], default=0.0),
        "float_max_rel": max([o["max_rel"] for o in flt if "max_rel" in o], default=0.0),
        "dump_values_missing": lacking,
        "missing_values": len(lacking),
        "missing_quantized_values": sum(1 for v in lacking if v["kind"] == "quantized"),
        "dump_values_not_in_model": sorted(nm for nm in list(dump) + list(checker.missing)
                                           if nm not in known),
        "dump_values_not_compared": sorted(
            o["name"] for r in records for o in r["outputs"] if not o["compared"] and o["name"] in dump),
        "graph_inputs_not_dumped": [i for i in inputs if i not in dump],
    }
    return s


def _short(text, width):
    return text if len(text) <= width else text[:width // 2 - 1] + "..." + text[-(width - width // 2 - 2):]


def _err_text(o):
    if not o.get("compared"):
        return ""
    if "reason" in o and "max_abs" not in o and "max_step" not in o:
        return "-"
    if o["kind"] == "quantized":
        m = o["max_step"]
        return ("%d" % m if isinstance(m, int) else "%.2f" % m) + " steps"
    if o["kind"] == "float":
        return "%.2e (rel %.1e)" % (o["max_abs"], o["max_rel"])
    return "%s" % o["max_abs"]


def print_table(records, quiet, out=sys.stdout):
    rows = []
    for r in records:
        shown = [o for o in r["outputs"] if o.get("compared")]
        if quiet and r["status"] != "BEYOND":
            continue
        if not shown:
            rows.append([r["node"], r["op"], "", "", "", "", r["status"]])
            continue
        for k, o in enumerate(shown):
            status = r["status"] if k == 0 else ""
            if not o["ok"]:
                status = "BEYOND" + (": " + o["reason"] if "reason" in o else "")
            extra = " [%s]" % o["note"] if "note" in o else ""
            rows.append([r["node"] if k == 0 else "", r["op"] if k == 0 else "", o["name"], o["kind"],
                         _err_text(o), "%d/%d" % (o["beyond"], o["count"]), status + extra])
    head = ["node", "op", "output", "kind", "max error", "beyond/total", "status"]
    width = [40, 18, 40, 9, 22, 14, 0]
    rows = [[_short(c, w) if w else c for c, w in zip(row, width)] for row in rows]
    cols = [max([len(head[i])] + [len(rw[i]) for rw in rows]) for i in range(len(head))]
    fmt = "  ".join("%%-%ds" % c for c in cols[:-1]) + "  %s"
    if rows:
        out.write((fmt % tuple(head)).rstrip() + "\n")
        for rw in rows:
            out.write((fmt % tuple(rw)).rstrip() + "\n")
        out.write("\n")


def print_summary(s, tol, out=sys.stdout):
    out.write("nodes: %d, evaluated %d, not evaluated %d\n"
              % (s["nodes"], s["evaluated"], s["not_evaluated"]))
    if s["no_reference_ops"]:
        out.write("no reference for: %s\n" % ", ".join(
            "%s (%d)" % kv for kv in sorted(s["no_reference_ops"].items())))
    out.write("compared values: %d, within tolerance %d, beyond %d\n"
              % (s["compared_values"], s["within_tolerance"], s["beyond_tolerance"]))
    if s["quantized_values"]:
        m = s["max_step"]
        out.write("quantized: %d values (%d elements), largest error %s steps (allowed %s), "
                  "%d elements differ by exactly 1 step, %d by more\n"
                  % (s["quantized_values"], s["quantized_elements"],
                     m if isinstance(m, int) else "%.2f" % m, tol.max_step,
                     s["elements_one_step"], s["elements_more_than_one_step"]))
    if s["float_values"]:
        out.write("float: %d values, largest error %.3g absolute, %.3g relative "
                  "(allowed atol %g + rtol %g * |ref| + %g * max|ref|)\n"
                  % (s["float_values"], s["float_max_abs"], s["float_max_rel"],
                     tol.atol, tol.rtol, TENSOR_RTOL))
    if s["dump_values_not_in_model"]:
        out.write("dump values not in the model: %d (%s)\n" % (
            len(s["dump_values_not_in_model"]), ", ".join(s["dump_values_not_in_model"][:5])))
    if s["dump_values_missing"]:
        shown = s["dump_values_missing"][:5]
        out.write("values the dump lacks (not compared): %d, %d quantized (%s%s)\n" % (
            s["missing_values"], s["missing_quantized_values"],
            "; ".join("%s: %s" % (v["name"], v["reason"]) for v in shown),
            "; ..." if len(s["dump_values_missing"]) > len(shown) else ""))
    if s["dump_values_not_compared"]:
        out.write("dumped values not compared (their node was not evaluated): %d\n"
                  % len(s["dump_values_not_compared"]))
    if s["graph_inputs_not_dumped"]:
        out.write("graph inputs not in the dump: %s\n" % ", ".join(s["graph_inputs_not_dumped"]))


def parse_args(argv):
    class Parser(argparse.ArgumentParser):
        def error(self, message):
            raise UsageError(message)
    p = Parser(prog=PROG, description="Per-layer reference check of a compiled model's tensor dump.")
    p.add_argument("model", help="the ONNX model")
    p.add_argument("dumpdir", help="the directory npu-sim --dump-tensors wrote")
    p.add_argument("--json", metavar="OUT", help="also write the report as JSON")
    p.add_argument("--max-step", type=int, default=1,
                   help="largest allowed error of quantized values, in steps (default 1)")
    p.add_argument("--rtol", type=float, default=1e-4, help="relative float tolerance (1e-4)")
    p.add_argument("--atol", type=float, default=1e-5, help="absolute float tolerance (1e-5)")
    p.add_argument("--strict", action="store_true",
                   help="nodes not evaluated and values the dump lacks fail the run")
    p.add_argument("--quiet", action="store_true", help="print only the summary and BEYOND rows")
    return p.parse_args(argv)


def main(argv=None):
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
        try:
            model = onnx.load(args.model)
        except Exception as e:
            raise UsageError("cannot read %s: %s" % (args.model, e))
        doc, dump, missing = load_dump(args.dumpdir)
        tol = Tolerance(args.max_step, args.rtol, args.atol)
        checker = Checker(model, dump, tol, missing)
        records = checker.run()
        summary = summarize(records, dump, model.graph, checker)
    except UsageError as e:
        sys.stderr.write("%s: error: %s\n" % (PROG, e))
        return 2
    print_table(records, args.quiet)
    print_summary(summary, tol)
    if args.json:
        report = {"model": args.model, "dump": args.dumpdir,
                  "tolerance": {"max_step": tol.max_step, "rtol": tol.rtol, "atol": tol.atol,
                                "tensor_rtol": TENSOR_RTOL},
                  "nodes": records, "summary": summary}
        try:
            with open(args.json, "w") as f:
                json.dump(report, f, indent=1)
                f.write("\n")
        except OSError as e:
            sys.stderr.write("%s: error: cannot write %s: %s\n" % (PROG, args.json, e))
            return 2
    incomplete = summary["not_evaluated"] > 0 or summary["missing_values"] > 0
    failed = summary["beyond_tolerance"] > 0 or (args.strict and incomplete)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())