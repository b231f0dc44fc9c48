#!/usr/bin/env python3
"""Self-test of npuc-layer-check's numpy references against ONNX's own outputs.

usage: layer_check_selftest.py LIST [--json OUT] [--jobs N]
       layer_check_selftest.py --evaluator
       layer_check_selftest.py --scan DIR

LIST names ONNX test directories (model.onnx and test_data_set_0/input_K.pb,
output_K.pb), one per line, optionally followed by npuc-layer-check options
for that test; '#' starts a comment. $ONNX_TESTDATA (default
/usr/share/libonnx-testdata/data) and $NPUC_MODELS (default
/work/shared/models) are expanded from the environment.

For each test a dump directory is made from the test's own inputs (role input)
and expected outputs (role output), as npu-sim --dump-tensors would write it,
and npuc-layer-check runs on it: the checker evaluates the whole graph from
the inputs and compares the graph outputs. A test passes when the checker
exits 0 and compared every graph output. This validates the references
independently of npuc.

Built-in checks follow the list (--no-builtin skips them): a small QDQ model
made here, dumped as a compiler would dump it, with values perturbed on
purpose, to show that the checker fails what it should (a value two steps
off, a float off by 1e-3, a shape mismatch), passes what it should (one step,
a quantized dump of a float value compared in the real domain), judges each
layer on its own dumped inputs, and exits 2 on unreadable inputs; values
index.json lists without a file (npu-sim's "file": null and "missing") are
reported as not dumped and fail only --strict; Dropout-7's mask is of the
input's type. With --tools DIR (or $NPUC_TOOLS_DIR) the same missing-value
rules are checked on dumps the real npuc and npu-sim in DIR write.

The references are the package onnx_reference (scripts/onnx_reference/). Its
whole-model evaluator, onnx_reference.evaluate(), is checked end to end with
the built-in checks (--evaluator: only those, no LIST): a few ONNX tests
evaluated from their inputs give their expected outputs, and exactly the
values the checker computes; the model's opset decides the semantics; an op
without a reference raises NotEvaluated naming the node.

--scan DIR prints, as list lines, the tests under DIR whose ops all have a
reference in the checker and whose inputs and outputs are tensors numpy can
hold (the candidates for LIST).
"""

import argparse
import concurrent.futures
import contextlib
import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "npuc-layer-check.py")
sys.path.insert(0, HERE)
import onnx_reference  # noqa: E402  (the references, scripts/onnx_reference/)

PLACEHOLDERS = {"ONNX_TESTDATA": "/usr/share/libonnx-testdata/data",
                "NPUC_MODELS": "/work/shared/models"}


_CHECKER = None


def run_checker_here(argv):
    """npuc-layer-check's main(argv) in this process (loaded once per worker:
    the list's tests would otherwise pay an interpreter and numpy start each):
    (exit code, what it wrote to stderr)."""
    global _CHECKER
    if _CHECKER is None:
        _CHECKER = load_checker()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = _CHECKER.main(argv)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 2
        except Exception as e:  # the checker's own crash fails the test, not the run
            err.write("%s: %s" % (type(e).__name__, e))
            code = 3
    return code, err.getvalue()


def load_checker():
    spec = importlib.util.spec_from_file_location("npuc_layer_check", CHECKER)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def expand(text):
    """Expand $ONNX_TESTDATA and $NPUC_MODELS (environment, else the defaults)."""
    def sub(m):
        name = m.group(1) or m.group(2)
        return os.environ.get(name) or PLACEHOLDERS[name]
    pattern = r"\$\{(%s)\}|\$(%s)\b" % ("|".join(PLACEHOLDERS), "|".join(PLACEHOLDERS))
    return re.sub(pattern, sub, text)


def read_list(path):
    """[(test directory, [extra checker options])] of a list file."""
    entries = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                words = shlex.split(expand(line))
                entries.append((words[0], words[1:]))
    return entries


def numbered(folder, prefix):
    """input_K.pb / output_K.pb files sorted by K (input_10 after input_9)."""
    found = []
    for name in os.listdir(folder):
        m = re.fullmatch(prefix + r"_(\d+)\.pb", name)
        if m:
            found.append((int(m.group(1)), os.path.join(folder, name)))
    return [p for _, p in sorted(found)]


def read_tensor(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return t.name, numpy_helper.to_array(t)


def make_dump(test_dir, dump_dir):
    """Write index.json and the .npy files of one test; returns the graph output names."""
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    g = model.graph
    inits = {t.name for t in g.initializer}
    inputs = [i.name for i in g.input if i.name not in inits]
    outputs = [o.name for o in g.output]
    for vi in list(g.input) + list(g.output):
        if not vi.type.HasField("tensor_type"):
            raise ValueError("%s is not a tensor" % vi.name)
    producer = {o: (n.name or "") for n in g.node for o in n.output}
    data = os.path.join(test_dir, "test_data_set_0")
    values = []

    def add(name, array, role, k):
        fname = "%s_%d.npy" % (role, k)
        np.save(os.path.join(dump_dir, fname), array)
        values.append({"name": name, "file": fname, "node": producer.get(name, ""), "role": role,
                       "dtype": str(array.dtype), "shape": list(array.shape), "quant": None,
                       "after": None})
    in_files = numbered(data, "input")
    if len(in_files) > len(inputs):
        raise ValueError("%d input files for %d graph inputs" % (len(in_files), len(inputs)))
    for k, path in enumerate(in_files):
        name, array = read_tensor(path)
        add(name if name in inputs else inputs[k], array, "input", k)
    out_files = numbered(data, "output")
    if len(out_files) != len(outputs):
        raise ValueError("%d output files for %d graph outputs" % (len(out_files), len(outputs)))
    for k, path in enumerate(out_files):
        _, array = read_tensor(path)
        add(outputs[k], array, "output", k)
    with open(os.path.join(dump_dir, "index.json"), "w") as f:
        json.dump({"model": "model.onnx", "target": "onnx-reference", "values": values}, f, indent=1)
    return outputs


def run_test(test_dir, options):
    """(passed, one-line detail, the checker's summary or None)."""
    with tempfile.TemporaryDirectory(prefix="layer-check-") as tmp:
        dump_dir = os.path.join(tmp, "dump")
        os.mkdir(dump_dir)
        try:
            outputs = make_dump(test_dir, dump_dir)
        except Exception as e:  # a test this self-test cannot feed
            return False, "cannot build the dump: %s" % e, None
        report = os.path.join(tmp, "report.json")
        argv = [os.path.join(test_dir, "model.onnx"), dump_dir, "--json", report, "--quiet"] + options
        returncode, stderr = run_checker_here(argv)
        if not os.path.exists(report):
            return False, "exit %d: %s" % (returncode, stderr.strip()[-300:]), None
        with open(report) as f:
            rep = json.load(f)
    compared = {o["name"]: o for r in rep["nodes"] for o in r["outputs"] if o.get("compared")}
    missing = [o for o in outputs if o not in compared]
    s = rep["summary"]
    if returncode != 0 or missing:
        why = []
        if returncode:
            why.append("exit %d" % returncode)
        bad = [r for r in rep["nodes"] if r["status"] == "BEYOND"]
        for r in bad[:2]:
            o = [o for o in r["outputs"] if o.get("compared") and not o["ok"]][0]
            why.append("%s %s beyond (%s)" % (r["op"], o["name"], _brief(o)))
        if missing:
            reasons = [r["status"] for r in rep["nodes"] if r["status"].startswith("not evaluated")]
            why.append("not compared: %s%s" % (", ".join(missing[:3]),
                                               " (%s)" % reasons[0] if reasons else ""))
        return False, "; ".join(why), s
    return True, ", ".join(_brief(compared[o]) for o in outputs[:3]), s


def _brief(o):
    if o.get("reason") and "max_abs" not in o and "max_step" not in o:
        return o["reason"]
    if o["kind"] == "quantized":
        return "%s steps, %d/%d differ" % (o["max_step"], o["differing"], o["count"])
    if o["kind"] == "float":
        return "abs %.1e rel %.1e" % (o["max_abs"], o["max_rel"])
    return "%s equal" % o["kind"] if o["ok"] else "%d/%d differ" % (o["beyond"], o["count"])


# ----------------------------------------------------------------------------
# Built-in checks of the comparison rules
# ----------------------------------------------------------------------------

def _qdq_model():
    """x -> Q -> DQ -> Conv(DQ(w int8, per channel)) = c1 -> Q = y1 -> DQ -> Relu
    -> Q = y2 -> DQ = out, and a second output: Sigmoid(c1) = s (float)."""
    rng = np.random.default_rng(7)
    w = rng.integers(-100, 100, size=(4, 2, 3, 3)).astype(np.int8)
    inits = [
        numpy_helper.from_array(np.array(0.02, np.float32), "sx"),
        numpy_helper.from_array(np.array(128, np.uint8), "zx"),
        numpy_helper.from_array(w, "w"),
        numpy_helper.from_array(np.array([0.01, 0.02, 0.015, 0.005], np.float32), "sw"),
        numpy_helper.from_array(np.zeros(4, np.int8), "zw"),
        numpy_helper.from_array(np.array(0.05, np.float32), "s1"),
        numpy_helper.from_array(np.array(120, np.uint8), "z1"),
        numpy_helper.from_array(np.array(0.03, np.float32), "s2"),
        numpy_helper.from_array(np.array(0, np.uint8), "z2"),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"], name="qx"),
        helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"], name="dqx"),
        helper.make_node("DequantizeLinear", ["w", "sw", "zw"], ["wd"], name="dqw", axis=0),
        helper.make_node("Conv", ["xd", "wd"], ["c1"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("QuantizeLinear", ["c1", "s1", "z1"], ["y1"], name="q1"),
        helper.make_node("DequantizeLinear", ["y1", "s1", "z1"], ["y1d"], name="dq1"),
        helper.make_node("Relu", ["y1d"], ["r"], name="relu"),
        helper.make_node("QuantizeLinear", ["r", "s2", "z2"], ["y2"], name="q2"),
        helper.make_node("DequantizeLinear", ["y2", "s2", "z2"], ["out"], name="dq2"),
        helper.make_node("Sigmoid", ["c1"], ["s"], name="sig"),
    ]
    g = helper.make_graph(nodes, "qdq", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 6, 7])],
                          [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 4, 6, 7]),
                           helper.make_tensor_value_info("s", TensorProto.FLOAT, [1, 4, 6, 7])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    x = rng.uniform(-2.5, 2.5, size=(1, 2, 6, 7)).astype(np.float32)
    return m, x


def _run_checker(model_path, dump_dir, values, options=(), missing=()):
    """Write a dump of `values` ({name: (array, quant)}) and run the checker.
    The names in `missing` ({name: reason}) are written as npu-sim writes a
    value it could not dump: `"file": null` and the reason in `missing`."""
    os.makedirs(dump_dir, exist_ok=True)
    index = []
    for k, (name, (array, quant)) in enumerate(values.items()):
        entry = {"name": name, "file": "v%d.npy" % k, "node": "",
                 "role": "input" if name == "x" else "value", "dtype": str(array.dtype),
                 "shape": list(array.shape), "quant": quant, "after": None if name == "x" else k}
        if name in missing:
            entry.update(file=None, missing=missing[name])
        else:
            np.save(os.path.join(dump_dir, entry["file"]), array)
        index.append(entry)
    with open(os.path.join(dump_dir, "index.json"), "w") as f:
        json.dump({"model": "m.bin", "target": "selftest", "values": index}, f)
    report = os.path.join(dump_dir, "report.json")
    p = subprocess.run([sys.executable, CHECKER, model_path, dump_dir, "--json", report, "--quiet"]
                       + list(options), capture_output=True, text=True)
    rep = None
    if os.path.exists(report):
        with open(report) as f:
            rep = json.load(f)
        os.remove(report)
    return p, rep


def _status(rep):
    return {r["node"]: r["status"] for r in rep["nodes"]}


def _output(rep, name):
    """The report's record of the value `name`."""
    return [o for r in rep["nodes"] for o in r["outputs"] if o["name"] == name][0]


def _dropout_model(opset):
    """x -> Dropout(ratio 0.3) -> y, mask; z = y * mask (Cast to float from opset 10)."""
    inits = []
    if opset < 12:
        nodes = [helper.make_node("Dropout", ["x"], ["y", "mask"], name="drop", ratio=0.3)]
    else:
        inits = [numpy_helper.from_array(np.array(0.3, np.float32), "ratio")]
        nodes = [helper.make_node("Dropout", ["x", "ratio"], ["y", "mask"], name="drop")]
    if opset >= 10:
        nodes.append(helper.make_node("Cast", ["mask"], ["maskf"], name="cast", to=TensorProto.FLOAT))
        nodes.append(helper.make_node("Mul", ["y", "maskf"], ["z"], name="mul"))
    else:
        nodes.append(helper.make_node("Mul", ["y", "mask"], ["z"], name="mul"))
    g = helper.make_graph(nodes, "dropout", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
                          [helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 3])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(m, full_check=True)
    return m


def dropout_checks(chk, tmp):
    """Dropout's mask is of the input's type T in Dropout-7 (opsets 7 to 9),
    bool (T1) from Dropout-10: as onnx.defs declares it."""
    results = []
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    for opset in (7, 9, 10, 13):
        m = _dropout_model(opset)
        schema = onnx.defs.get_schema("Dropout", opset)
        declared = {c.type_param_str: list(c.allowed_type_strs) for c in schema.type_constraints}
        declared_bool = declared[schema.outputs[1].typeStr] == ["tensor(bool)"]
        ev = chk.Checker(m, {}, chk.Tolerance())
        ev.dump = {"x": type("D", (), {"array": x, "quant": None})()}
        ev.run()
        mask, z = ev.computed["mask"], ev.computed["z"]
        want = np.dtype(np.bool_) if declared_bool else x.dtype
        ok = mask is not None and mask.dtype == want and bool(mask.all()) and \
            z is not None and z.dtype == x.dtype and np.array_equal(z, x)
        detail = "mask %s, declared %s" % (None if mask is None else mask.dtype, want)
        # The mask as a runtime dumps it, in its declared type, is compared as such.
        path = os.path.join(tmp, "dropout%d.onnx" % opset)
        onnx.save(m, path)
        p, rep = _run_checker(path, os.path.join(tmp, "dropout%d" % opset),
                              {"x": (x, None), "mask": (np.ones(x.shape, want), None), "z": (x, None)})
        if rep is None:
            ok, detail = False, detail + "; exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])
        else:
            o = _output(rep, "mask")
            kind = "float" if want.kind == "f" else "integer"
            ok = ok and p.returncode == 0 and o.get("compared") and o["kind"] == kind and \
                "note" not in o and _status(rep)["mul"] == "ok"
            detail += "; exit %d, mask compared as %s%s" % (p.returncode, o.get("kind"),
                                                            " [%s]" % o["note"] if "note" in o else "")
        results.append(("builtin:dropout%d-mask" % opset, ok, detail))
    return results


def missing_checks(path, tmp, dump, q):
    """Values index.json lists with "file": null and a missing reason (npu-sim:
    not reached, not completely written) are not dumped: listed, with the
    reason, not compared; readers run on the checker's own value. --strict
    (a complete check) fails on them, quantized or float, as on nodes not
    evaluated. A value without a name is still a usage error."""
    results = []
    unwritten, unreached = "not every byte was written", "the program did not reach it"

    def check(name, missing, options, expect_rc, predicate):
        p, rep = _run_checker(path, os.path.join(tmp, name), dump(), options, missing)
        ok = p.returncode == expect_rc and rep is not None and predicate(rep)
        results.append(("builtin:" + name, ok, "exit %d (expected %d)%s" % (
            p.returncode, expect_rc, "" if ok else ": " + (p.stdout + p.stderr).strip()[-400:])))

    def lacks(rep, name, kind, reason):
        return {"name": name, "kind": kind, "reason": reason} in rep["summary"]["dump_values_missing"]

    # y1 (quantized) not completely written: q1 not compared, with the reason;
    # dq1 and q2 run on the checker's own y1, y2 is compared.
    for name, opts, rc in (("missing-quantized", (), 0), ("missing-quantized-strict", ("--strict",), 1)):
        check(name, {"y1": unwritten}, opts, rc, lambda r: (
            _status(r)["q1"] == "not compared (not dumped: %s)" % unwritten
            and _output(r, "y1") == {"name": "y1", "kind": "quantized", "compared": False,
                                     "reason": "not dumped: " + unwritten}
            and [n for n in r["nodes"] if n["node"] == "dq1"][0].get("inputs_not_dumped")
            == {"y1": unwritten}
            and _status(r)["q2"] == "ok" and _status(r)["sig"] == "ok"
            and r["summary"]["missing_quantized_values"] == 1 and lacks(r, "y1", "quantized", unwritten)
            and r["summary"]["not_evaluated"] == 0))
    # A float value: the same (--strict fails on any value left unjudged).
    for name, opts, rc in (("missing-float", (), 0), ("missing-float-strict", ("--strict",), 1)):
        check(name, {"s": unreached}, opts, rc, lambda r: (
            _status(r)["sig"] == "not compared (not dumped: %s)" % unreached
            and r["summary"]["missing_values"] == 1 and r["summary"]["missing_quantized_values"] == 0
            and lacks(r, "s", "float", unreached) and _status(r)["q2"] == "ok"))
    # The graph input unreached: its readers cannot be evaluated, with the reason;
    # the layers after the next dumped value still are.
    check("missing-input", {"x": unreached}, (), 0, lambda r: (
        _status(r)["qx"] == "not evaluated: input x unknown (not dumped: %s)" % unreached
        and r["summary"]["graph_inputs_not_dumped"] == ["x"] and _status(r)["q2"] == "ok"))
    # Malformed entries are still usage errors.
    for name, entry in (("missing-no-name", {"file": None, "missing": unreached}),
                        ("missing-no-file", {"name": "s"})):
        d = os.path.join(tmp, name)
        os.makedirs(d)
        with open(os.path.join(d, "index.json"), "w") as f:
            json.dump({"values": [entry]}, f)
        p = subprocess.run([sys.executable, CHECKER, path, d], capture_output=True, text=True)
        results.append(("builtin:" + name, p.returncode == 2 and "lacks a" in p.stderr,
                        "exit %d: %s" % (p.returncode, p.stderr.strip())))
    return results


def builtin_checks():
    """[(name, passed, detail)] of the checks of the comparison rules."""
    chk = load_checker()
    model, x = _qdq_model()
    results = []
    with tempfile.TemporaryDirectory(prefix="layer-check-builtin-") as tmp:
        path = os.path.join(tmp, "m.onnx")
        onnx.save(model, path)
        ev = chk.Checker(model, {}, chk.Tolerance())
        ev.dump = {"x": type("D", (), {"array": x, "quant": None})()}
        ev.run()
        ref = ev.computed
        q = {"y1": {"axis": -1, "scales": [0.05], "zero_points": [120]},
             "y2": {"axis": -1, "scales": [0.03], "zero_points": [0]}}

        def dump(**changed):
            v = {"x": (x, None), "y1": (ref["y1"], q["y1"]), "y2": (ref["y2"], q["y2"]),
                 "out": (ref["out"], None), "s": (ref["s"], None)}
            v.update(changed)
            return v

        def check(name, values, expect_rc, predicate=lambda rep: True, options=()):
            p, rep = _run_checker(path, os.path.join(tmp, name), values, options)
            ok = p.returncode == expect_rc and (rep is None or predicate(rep))
            results.append(("builtin:" + name, ok, "exit %d (expected %d)%s" % (
                p.returncode, expect_rc, "" if ok else ": " + (p.stdout + p.stderr).strip()[-400:])))
            return rep

        def after_y1(y1):
            """y2 and out as a compiled program would compute them from its y1."""
            y2 = onnx_reference.quantize(
                np.maximum(onnx_reference.dequantize(y1, np.float32(0.05), np.uint8(120)), 0),
                np.float32(0.03), np.uint8(0))
            return {"y1": (y1, q["y1"]), "y2": (y2, q["y2"]),
                    "out": (onnx_reference.dequantize(y2, np.float32(0.03), np.uint8(0)), None)}

        check("exact", dump(), 0, lambda r: r["summary"]["compared_values"] == 4
              and r["summary"]["max_step"] == 0)
        y1 = ref["y1"].copy()
        y1.reshape(-1)[5] += 1
        check("one-step", dump(**after_y1(y1)), 0, lambda r: r["summary"]["elements_one_step"] == 1)
        y1 = ref["y1"].copy()
        y1.reshape(-1)[5] += 2
        # Only the layer that produced y1 is wrong; the next layer is judged on
        # the y1 the "compiled program" gave it, so it is within tolerance.
        check("two-steps-one-layer", dump(**after_y1(y1)), 1,
              lambda r: _status(r)["q1"] == "BEYOND" and _status(r)["q2"] == "ok"
              and _status(r)["dq2"] == "ok")
        # A y2 that was not computed from the dumped y1 is wrong for that y1.
        check("two-steps-inconsistent", dump(y1=(y1, q["y1"])), 1,
              lambda r: _status(r)["q1"] == "BEYOND" and _status(r)["q2"] == "BEYOND")
        s = ref["s"].copy()
        s.reshape(-1)[3] *= 1.001
        check("float-off", dump(s=(s, None)), 1, lambda r: _status(r)["sig"] == "BEYOND")
        check("shape", dump(y1=(ref["y1"].reshape(1, 4, 7, 6), q["y1"])), 1,
              lambda r: "shape" in [o for n in r["nodes"] if n["node"] == "q1"
                                    for o in n["outputs"]][0].get("reason", "")
              and _status(r)["q2"] == "ok")
        # The compiler keeps c1 quantized (Conv fused with its QuantizeLinear):
        # compared in the real domain, in steps of the dump's scale; Sigmoid is
        # then judged on the dequantized c1.
        def with_c1(c1q):
            c1 = chk.dequantize_dump(c1q, q["y1"])
            return {"c1": (c1q, q["y1"]), "s": ((1 / (1 + np.exp(-c1))).astype(np.float32), None)}
        c1q = onnx_reference.quantize(ref["c1"], np.float32(0.05), np.uint8(120))
        check("real-domain", dump(**with_c1(c1q)), 0,
              lambda r: [o for n in r["nodes"] if n["node"] == "conv" for o in n["outputs"]][0]
              ["kind"] == "quantized" and _status(r)["sig"] == "ok")
        c1q = c1q.copy()
        c1q.reshape(-1)[0] += 2
        check("real-domain-off", dump(**with_c1(c1q)), 1,
              lambda r: _status(r)["conv"] == "BEYOND" and _status(r)["sig"] == "ok")
        os.makedirs(os.path.join(tmp, "absent"))
        p = subprocess.run([sys.executable, CHECKER, path, os.path.join(tmp, "absent")],
                           capture_output=True, text=True)
        results.append(("builtin:unreadable", p.returncode == 2 and
                        p.stderr.startswith("npuc-layer-check: error:"), "exit %d" % p.returncode))
        # An op without a reference: listed, downstream 'input unknown'; fails only with --strict.
        g = helper.make_graph(
            [helper.make_node("Relu", ["x"], ["a"], name="relu"),
             helper.make_node("Frobnicate", ["a"], ["b"], name="frob", domain="example.com"),
             helper.make_node("Neg", ["b"], ["c"], name="neg")], "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
            [helper.make_tensor_value_info("c", TensorProto.FLOAT, [3])])
        m2 = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13),
                                                 helper.make_opsetid("example.com", 1)])
        path2 = os.path.join(tmp, "m2.onnx")
        onnx.save(m2, path2)
        vals = {"x": (np.array([-1, 0, 2], np.float32), None), "a": (np.array([0, 0, 2], np.float32), None)}
        for name, opts, rc in (("no-reference", (), 0), ("no-reference-strict", ("--strict",), 1)):
            p, rep = _run_checker(path2, os.path.join(tmp, name), vals, opts)
            st = _status(rep) if rep else {}
            ok = p.returncode == rc and st.get("relu") == "ok" and \
                st.get("frob", "").startswith("not evaluated: no reference") and \
                st.get("neg") == "not evaluated: input b unknown"
            results.append(("builtin:" + name, ok, "exit %d (expected %d) %s" % (p.returncode, rc, st)))
        results += missing_checks(path, tmp, dump, q)
        results += dropout_checks(chk, tmp)
    return results


def _tool(tools, name):
    """tools/name, waiting a little if it is being rebuilt (absent or empty)."""
    path = os.path.join(tools, name)
    for _ in range(30):
        if os.path.isfile(path) and os.path.getsize(path) > 0 and os.access(path, os.X_OK):
            return path
        time.sleep(2)
    raise FileNotFoundError("%s is missing" % path)


def tools_checks(tools):
    """The missing-value rules on dumps the real npu-sim writes: examples/mnist8
    compiled by npuc and executed with --dump-tensors, (1) one value's entry
    then rewritten as npu-sim writes an incomplete value, (2) the program
    stopped by --max-steps, a fault, so that npu-sim leaves the later values
    unreached. mnist8 is float: --strict fails on its missing values too."""
    results = []
    model = os.path.join(HERE, "..", "examples", "mnist8", "model.onnx")
    data = os.path.join(HERE, "..", "examples", "mnist8", "test_data_set_0", "input_0.pb")
    with tempfile.TemporaryDirectory(prefix="layer-check-tools-") as tmp:
        def run(name, cmd, rcs):
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            if p.returncode not in rcs:
                results.append(("tools:" + name, False, "exit %d: %s" % (
                    p.returncode, (p.stdout + p.stderr).strip()[-400:])))
            return p.returncode in rcs

        def check(name, dump_dir, options, expect_rc, predicate):
            report = os.path.join(tmp, name + ".json")
            p = subprocess.run([sys.executable, CHECKER, model, dump_dir, "--quiet", "--json", report]
                               + list(options), capture_output=True, text=True)
            rep = None
            if os.path.exists(report):
                with open(report) as f:
                    rep = json.load(f)
            ok = p.returncode == expect_rc and rep is not None and predicate(rep)
            results.append(("tools:" + name, ok, "exit %d (expected %d)%s" % (
                p.returncode, expect_rc, "" if ok else ": " + (p.stdout + p.stderr).strip()[-400:])))
        try:
            npuc, sim = _tool(tools, "npuc"), _tool(tools, "npu-sim")
        except FileNotFoundError as e:
            return [("tools:mnist8", False, str(e))]
        binary = os.path.join(tmp, "mnist8.bin")
        full, faulted = os.path.join(tmp, "dump"), os.path.join(tmp, "dump-fault")
        # Straight-line code (--no-hardware-loops): every instruction runs
        # once, so the step at which the second convolution begins is the
        # index of its first instruction.
        # --materialize-values: every value in GM, so that the dump holds
        # each one and only the rewrites below make values missing.
        if not run("npuc", [npuc, model, "-o", binary, "--no-hardware-loops",
                            "--materialize-values"], (0,)) or \
                not run("npu-sim", [sim, binary, "-i", data, "-o", os.path.join(tmp, "out"),
                                    "--dump-tensors", full], (0,)):
            return results
        # The fault stops the program where the second convolution begins (by
        # npu-objdump's node names per instruction: after the last instruction
        # of an earlier node), so that the values before it are complete and
        # the later ones never reached.
        try:
            objdump = _tool(tools, "npu-objdump")
        except FileNotFoundError as e:
            return results + [("tools:npu-objdump", False, str(e))]
        listing = subprocess.run([objdump, binary, "--json"], capture_output=True, text=True)
        code = json.loads(listing.stdout).get("code", []) if listing.returncode == 0 else []
        # Past the last instruction of a node before it (a node's signals
        # may sit among the next node's instructions).
        order = [n.name for n in onnx.load(model).graph.node]
        earlier = set(order[:order.index("Convolution110")]) if "Convolution110" in order else set()
        ends = [i["index"] for i in code if i.get("nodes") and set(i["nodes"]) <= earlier]
        stop = max(ends) + 1 if ends and any("Convolution110" in i.get("nodes", []) for i in code) \
            else None
        if not stop:
            results.append(("tools:npu-objdump", False, "no instruction of node Convolution110 "
                            "in npu-objdump --json"))
            return results
        # The step limit stops SCALAR; engines lag behind it by their queues,
        # so a value counts as reached once its last store has run. The first
        # limit from there at which the first node's values are complete and
        # the second convolution's are not is the fault.
        def faulted_at(limit):
            shutil.rmtree(faulted, ignore_errors=True)
            if not run("npu-sim-fault", [sim, binary, "-i", data, "-o", os.path.join(tmp, "out2"),
                                         "--dump-tensors", faulted, "--max-steps", str(limit)], (3,)):
                return None
            with open(os.path.join(faulted, "index.json")) as f:
                values = [v for v in json.load(f)["values"] if v["role"] == "value"]
            return any(v.get("file") for v in values) and any(not v.get("file") for v in values)
        for limit in range(stop, len(code) + 1):
            reached = faulted_at(limit)
            if reached is None:
                return results
            if reached:
                break
        else:
            results.append(("npu-sim-fault", False, "no step limit leaves some values complete "
                            "and others unreached"))
            return results
        with open(os.path.join(full, "index.json")) as f:
            index = json.load(f)
        check("mnist8", full, ("--strict",), 0, lambda r: r["summary"].get("missing_values") == 0
              and r["summary"]["compared_values"] == len(index["values"]) - 1)  # less the input
        # One value (a float, mid network) as npu-sim writes an incomplete one.
        inner = [v for v in index["values"] if v["role"] == "value"]
        victim = inner[len(inner) // 2]
        os.remove(os.path.join(full, victim["file"]))
        victim.update(file=None, missing="not every byte was written")
        with open(os.path.join(full, "index.json"), "w") as f:
            json.dump(index, f)
        why = "not dumped: not every byte was written"
        readers = [n.name for n in onnx.load(model).graph.node if victim["name"] in n.input]

        def incomplete(r):
            st = _status(r)
            return _output(r, victim["name"]).get("reason") == why and \
                r["summary"]["dump_values_missing"] == [{"name": victim["name"], "kind": "float",
                                                         "reason": "not every byte was written"}] \
                and readers and all(st[n] == "ok" for n in readers) \
                and r["summary"]["beyond_tolerance"] == 0
        check("mnist8-incomplete", full, (), 0, incomplete)
        check("mnist8-incomplete-strict", full, ("--strict",), 1, incomplete)

        def unreached(r):
            s = r["summary"]
            return s["missing_values"] > 0 and s["compared_values"] > 0 and s["beyond_tolerance"] == 0 \
                and all(v["reason"] == "the program did not reach it" for v in s["dump_values_missing"])
        check("mnist8-fault", faulted, (), 0, unreached)
        check("mnist8-fault-strict", faulted, ("--strict",), 1, unreached)
    return results


# ----------------------------------------------------------------------------
# The whole-model evaluator, onnx_reference.evaluate()
# ----------------------------------------------------------------------------

# ONNX tests evaluate() runs end to end ($ONNX_TESTDATA/...): common ops,
# quantization, several outputs, an If (a subgraph), Constant nodes, and
# opset 6 and 9 models whose ops had other semantics then (Clip's and Pad's
# attributes, Upsample).
EVALUATOR_TESTS = [
    "node/test_add_bcast", "node/test_conv_with_strides_padding", "node/test_relu",
    "node/test_concat_2d_axis_0", "node/test_slice", "node/test_transpose_default",
    "node/test_quantizelinear", "node/test_dequantizelinear", "node/test_maxpool_2d_default",
    "node/test_softmax_axis_1", "node/test_dynamicquantizelinear", "node/test_top_k",
    "node/test_if", "node/test_upsample_nearest",
    "pytorch-converted/test_PixelShuffle", "pytorch-operator/test_operator_clip",
    "pytorch-operator/test_operator_pad",
]


def test_data(test_dir):
    """(model, feeds {graph input: array}, expected outputs in graph-output order)
    of an ONNX test directory's test_data_set_0 (inputs named as make_dump names them)."""
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    g = model.graph
    inits = {t.name for t in g.initializer}
    inputs = [i.name for i in g.input if i.name not in inits]
    data = os.path.join(test_dir, "test_data_set_0")
    feeds = {}
    for k, path in enumerate(numbered(data, "input")):
        name, array = read_tensor(path)
        feeds[name if name in inputs else inputs[k]] = array
    return model, feeds, [read_tensor(p)[1] for p in numbered(data, "output")]


def _matches(got, want):
    """Same dtype and shape; integers equal; floats within the checker's default
    tolerance (atol 1e-5 + rtol 1e-4 * |want|), NaN where NaN."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if want.dtype.kind != "f":
        return bool(np.array_equal(got, want))
    return bool(np.all(np.isclose(got, want, rtol=1e-4, atol=1e-5, equal_nan=True)))


def _softmax_model(opset, domain=""):
    """y = Softmax(x, axis=1), x (2, 3, 4): over the flattened (3, 4) before
    opset 13, over axis 1 from 13."""
    g = helper.make_graph([helper.make_node("Softmax", ["x"], ["y"], name="sm", axis=1)], "softmax",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid(domain, opset)])


def evaluator_checks():
    """[(name, passed, detail)] of onnx_reference.evaluate(): each of
    EVALUATOR_TESTS gives its expected outputs, in graph-output order, and the
    very values the checker computes for the graph outputs from the same
    inputs; the default domain's opset (spelled "" or "ai.onnx") decides
    Softmax's semantics; an op without a reference raises NotEvaluated naming
    the node; an input not fed is a ValueError."""
    chk = load_checker()
    results = []
    for rel in EVALUATOR_TESTS:
        test_dir = os.path.join(expand("$ONNX_TESTDATA"), rel)
        name = "evaluate:" + os.path.basename(rel)
        try:
            model, feeds, expected = test_data(test_dir)
            outs = onnx_reference.evaluate(model, feeds)
            listed = onnx_reference.evaluate_outputs(model, feeds)
        except Exception as e:
            results.append((name, False, "%s: %s" % (type(e).__name__, e)))
            continue
        names = [o.name for o in model.graph.output]
        ev = chk.Checker(model, {}, chk.Tolerance())
        ev.dump = {k: type("D", (), {"array": v, "quant": None})() for k, v in feeds.items()}
        ev.run()
        checker = [ev.computed.get(o) for o in names]
        same = all(c is not None and c.dtype == g.dtype
                   and np.array_equal(c, g, equal_nan=g.dtype.kind == "f") for c, g in zip(checker, listed))
        expect = len(expected) == len(names) and all(_matches(g, w) for g, w in zip(listed, expected))
        ok = list(outs) == names and len(listed) == len(names) and same and expect and \
            all(np.array_equal(outs[o], g) for o, g in zip(names, listed))
        results.append((name, ok, "%d outputs: %s, %s" % (
            len(names), "as expected" if expect else "NOT the expected outputs",
            "equal to the checker's" if same else "NOT the checker's values")))
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)

    def softmax(a, axis):
        e = np.exp(a - a.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)
    flat = softmax(x.astype(np.float64).reshape(2, 12), 1).reshape(x.shape).astype(np.float32)
    per_axis = softmax(x.astype(np.float64), 1).astype(np.float32)
    for opset, domain, want in ((11, "", flat), (11, "ai.onnx", flat), (13, "", per_axis),
                                (13, "ai.onnx", per_axis)):
        y = onnx_reference.evaluate_outputs(_softmax_model(opset, domain), {"x": x})[0]
        label = "evaluate:softmax-opset%d%s" % (opset, "-ai.onnx" if domain else "")
        results.append((label, _matches(y, want),
                        "over %s" % ("the flattened (3, 4)" if want is flat else "axis 1")))
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["a"], name="relu"),
         helper.make_node("Frobnicate", ["a"], ["b"], name="frob", domain="example.com")], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("b", TensorProto.FLOAT, [3])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13),
                                            helper.make_opsetid("example.com", 1)])
    for name, feeds, error, text in (
            ("no-reference", {"x": np.zeros(3, np.float32)}, onnx_reference.NotEvaluated,
             "node frob (example.com.Frobnicate): no reference for example.com.Frobnicate"),
            ("not-fed", {}, ValueError, "graph inputs not fed: x")):
        try:
            onnx_reference.evaluate(m, feeds)
            ok, detail = False, "no exception"
        except error as e:
            ok, detail = str(e) == text, "%s: %s" % (type(e).__name__, e)
        except Exception as e:
            ok, detail = False, "%s: %s" % (type(e).__name__, e)
        results.append(("evaluate:" + name, ok, detail))
    return results


def scan(root):
    """List lines for the tests under root the checker can evaluate."""
    ops = set(onnx_reference.OPS)
    holdable = set(onnx_reference.ONNX_TO_NP)

    def node_ops(graph):
        for nd in graph.node:
            yield (nd.domain if nd.domain != "ai.onnx" else "", nd.op_type)
            for a in nd.attribute:
                for sub in ([a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs)):
                    yield from node_ops(sub)
    base = expand("$ONNX_TESTDATA")
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name, "model.onnx")
        if not os.path.exists(path):
            continue
        g = onnx.load(path).graph
        if not all((d, o) in ops for d, o in node_ops(g)):
            continue
        if not all(vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type in holdable
                   for vi in list(g.input) + list(g.output)):
            continue
        full = os.path.join(root, name)
        print(full.replace(base, "$ONNX_TESTDATA", 1) if full.startswith(base) else full)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("list", nargs="?", help="the list of test directories")
    ap.add_argument("--json", metavar="OUT", help="write the results as JSON")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--scan", metavar="DIR", help="print the candidate tests under DIR")
    ap.add_argument("--no-builtin", action="store_true", help="skip the built-in checks")
    ap.add_argument("--evaluator", action="store_true",
                    help="run only the checks of onnx_reference.evaluate() (no LIST)")
    ap.add_argument("--tools", metavar="DIR", default=os.environ.get("NPUC_TOOLS_DIR"),
                    help="also check dumps the real npuc and npu-sim in DIR write "
                    "(default $NPUC_TOOLS_DIR; without it these checks are skipped)")
    args = ap.parse_args()
    if args.scan:
        scan(args.scan)
        return 0
    if not args.list and not args.evaluator:
        ap.error("a LIST is needed")
    entries = read_list(args.list) if not args.evaluator else []
    results = []
    with concurrent.futures.ProcessPoolExecutor(max(1, args.jobs)) as pool:
        futures = [pool.submit(run_test, d, o) for d, o in entries]
        for (d, o), fut in zip(entries, futures):
            ok, detail, summary = fut.result()
            label = os.path.basename(d.rstrip("/")) + ("" if not o else " " + " ".join(o))
            print("%s %s: %s" % ("PASS" if ok else "FAIL", label, detail), flush=True)
            results.append({"test": d, "options": o, "passed": ok, "detail": detail,
                            "summary": summary})
    if not args.no_builtin or args.evaluator:
        for name, ok, detail in evaluator_checks():
            print("%s %s: %s" % ("PASS" if ok else "FAIL", name, detail), flush=True)
            results.append({"test": name, "options": [], "passed": ok, "detail": detail, "summary": None})
    if not args.no_builtin and not args.evaluator:
        for name, ok, detail in builtin_checks():
            print("%s %s: %s" % ("PASS" if ok else "FAIL", name, detail), flush=True)
            results.append({"test": name, "options": [], "passed": ok, "detail": detail, "summary": None})
        if args.tools:
            for name, ok, detail in tools_checks(args.tools):
                print("%s %s: %s" % ("PASS" if ok else "FAIL", name, detail), flush=True)
                results.append({"test": name, "options": [], "passed": ok, "detail": detail,
                                "summary": None})
        else:
            print("SKIP tools:mnist8: no --tools DIR (npuc, npu-sim) given", flush=True)
    passed = sum(1 for r in results if r["passed"])
    failed = len(results) - passed
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "passed": passed, "failed": failed}, f, indent=1)
            f.write("\n")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
