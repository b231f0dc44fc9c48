#!/usr/bin/python3
"""Generates control flow and sequences resolved at import, each with its data
sets (input_K.pb, output_K.pb):

- wakeword_if_runtime: a wake-word front end: the frames' energy decides, at
  run time, whether they are normalized (then) or attenuated (else), and a
  Clip takes bounds computed from the data; test_data_set_0 takes the then
  branch, test_data_set_1 the else branch;
- loop_static_rnn: a Loop of constant trip count 4 whose body reads its frame
  by the iteration number and updates a state (h = tanh(h W + x_t)), the
  states scanned out;
- scan_two_inputs_reverse: a Scan over two inputs along different axes, one
  read backwards, its scan output stacked along axis 1 in reverse;
- sequence_split_insert_concat: SplitToSequence, SequenceInsert at a
  negative position, SequenceErase, SequenceLength, SequenceAt and
  ConcatFromSequence (new_axis) on sequences known at compile time.

The expected outputs are numpy evaluations of ONNX's definitions, independent
of npuc.

usage: gen_control_flow.py OUTDIR
"""
import os
import sys

import numpy as np
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_builder  # noqa: E402

if len(sys.argv) != 2:
    sys.exit(__doc__.strip().splitlines()[-1])
out = sys.argv[1]
onnx_builder.set_output(out)
rng = np.random.default_rng(20261208)
vi = onnx_builder.value_info
f32 = np.float32


def init(name, a):
    return nh.from_array(np.asarray(a), name)


def save(name, nodes, inputs, outputs, inits, feeds, expected, opset=13):
    onnx_builder.save_graph(name, nodes, inputs, outputs, inits, feeds, expected, opset, ir_version=8)


# Wake-word front end: If on a run-time energy threshold, Clip with bounds
# computed from the data.
F, B = 20, 16
then_g = h.make_graph(
    [h.make_node("ReduceMean", ["x"], ["mu"], name="mu", axes=[2], keepdims=1),
     h.make_node("Sub", ["x", "mu"], ["xc"], name="center"),
     h.make_node("Mul", ["xc", "xc"], ["sq"], name="square"),
     h.make_node("ReduceMean", ["sq"], ["var"], name="var", axes=[2], keepdims=1),
     h.make_node("Add", ["var", "eps"], ["ve"], name="eps_add"),
     h.make_node("Sqrt", ["ve"], ["sd"], name="sd"),
     h.make_node("Div", ["xc", "sd"], ["then_y"], name="normalize")],
    "then", [], [vi("then_y", [1, F, B])])
else_g = h.make_graph([h.make_node("Mul", ["x", "half"], ["else_y"], name="attenuate")],
                      "else", [], [vi("else_y", [1, F, B])])
nodes = [h.make_node("Mul", ["x", "x"], ["x2"], name="power"),
         h.make_node("ReduceMean", ["x2"], ["energy"], name="energy", keepdims=0),
         h.make_node("Greater", ["energy", "threshold"], ["loud"], name="loud"),
         h.make_node("If", ["loud"], ["feat"], name="gate", then_branch=then_g, else_branch=else_g),
         h.make_node("ReduceMin", ["x"], ["xmin"], name="xmin", keepdims=0),
         h.make_node("ReduceMax", ["x"], ["xmax"], name="xmax", keepdims=0),
         h.make_node("Mul", ["xmin", "half"], ["lo"], name="lo"),
         h.make_node("Mul", ["xmax", "half"], ["hi"], name="hi"),
         h.make_node("Clip", ["feat", "lo", "hi"], ["y"], name="clip")]
inits = [init("threshold", f32(1.0)), init("eps", f32(1e-5)), init("half", f32(0.5))]


def wakeword(x):
    if (x * x).mean(dtype=np.float64) > 1.0:
        mu = x.mean(axis=2, keepdims=True, dtype=np.float64)
        xc = x - mu
        feat = xc / np.sqrt((xc * xc).mean(axis=2, keepdims=True) + 1e-5)
    else:
        feat = x.astype(np.float64) * 0.5
    return np.clip(feat, x.min() * 0.5, x.max() * 0.5).astype(f32)


loud = rng.normal(0, 2.0, (1, F, B)).astype(f32)
quiet = rng.normal(0, 0.3, (1, F, B)).astype(f32)
save("wakeword_if_runtime", nodes, [vi("x", [1, F, B])], [vi("y", [1, F, B])], inits, [loud], [wakeword(loud)])
onnx_builder.write_data_set("wakeword_if_runtime", 1, [quiet], [wakeword(quiet)])

# A Loop of constant trip count: h = tanh(h W + x[iter]), states scanned out.
S, H = 4, 8
W = rng.uniform(-0.5, 0.5, (H, H)).astype(f32)
body = h.make_graph(
    [h.make_node("Identity", ["cond_in"], ["cond_out"], name="keep_going"),
     h.make_node("Gather", ["x", "i"], ["xt"], name="frame", axis=0),
     h.make_node("MatMul", ["h_in", "W"], ["hw"], name="recur"),
     h.make_node("Add", ["hw", "xt"], ["pre"], name="add_frame"),
     h.make_node("Tanh", ["pre"], ["h_out"], name="tanh"),
     h.make_node("Identity", ["h_out"], ["h_scan"], name="scan")],
    "body", [vi("i", [], T.INT64), vi("cond_in", [], T.BOOL), vi("h_in", [1, H])],
    [vi("cond_out", [], T.BOOL), vi("h_out", [1, H]), vi("h_scan", [1, H])])
x = rng.normal(0, 1, (S, 1, H)).astype(f32)
h0 = rng.normal(0, 0.5, (1, H)).astype(f32)
hs, hcur = [], h0.astype(np.float64)
for t in range(S):
    hcur = np.tanh(hcur @ W + x[t])
    hs.append(hcur)
save("loop_static_rnn",
     [h.make_node("Loop", ["M", "cond", "h0"], ["h_final", "h_all"], name="loop", body=body)],
     [vi("x", [S, 1, H]), vi("h0", [1, H])], [vi("h_final", [1, H]), vi("h_all", [S, 1, H])],
     [init("M", np.int64(S)), init("cond", np.bool_(True)), init("W", W)],
     [x, h0], [hcur.astype(f32), np.stack(hs).astype(f32)])

# Scan over a [2, T, 3] along axis 1 backwards and b [T, 2, 3] along axis 0;
# the scan output stacked along axis 1, in reverse.
Tn = 5
body = h.make_graph(
    [h.make_node("Mul", ["a_t", "b_t"], ["ab"], name="product"),
     h.make_node("Add", ["s_in", "ab"], ["s_out"], name="accumulate"),
     h.make_node("Sub", ["s_out", "a_t"], ["o"], name="emit")],
    "scan_body", [vi("s_in", [2, 3]), vi("a_t", [2, 3]), vi("b_t", [2, 3])],
    [vi("s_out", [2, 3]), vi("o", [2, 3])])
a = rng.normal(0, 1, (2, Tn, 3)).astype(f32)
b = rng.normal(0, 1, (Tn, 2, 3)).astype(f32)
s0 = rng.normal(0, 1, (2, 3)).astype(f32)
s, outs = s0.copy(), []
for t in range(Tn):
    at, bt = a[:, Tn - 1 - t], b[t]
    s = s + at * bt
    outs.append(s - at)
save("scan_two_inputs_reverse",
     [h.make_node("Scan", ["s0", "a", "b"], ["s_final", "o_all"], name="scan", body=body, num_scan_inputs=2,
                  scan_input_axes=[1, 0], scan_input_directions=[1, 0], scan_output_axes=[1],
                  scan_output_directions=[1])],
     [vi("s0", [2, 3]), vi("a", [2, Tn, 3]), vi("b", [Tn, 2, 3])], [vi("s_final", [2, 3]), vi("o_all", [2, Tn, 3])],
     [], [s0, a, b], [s.astype(f32), np.stack(outs[::-1], axis=1).astype(f32)], opset=11)

# Sequences known at compile time.
x = rng.normal(0, 1, (6, 4)).astype(f32)
z = rng.normal(0, 1, (2, 4)).astype(f32)
pieces = [x[0:2], x[2:4], x[4:6]]        # SplitToSequence, split = 2
pieces.insert(len(pieces) - 1, z)       # SequenceInsert at -1
del pieces[0]                           # SequenceErase at 0
save("sequence_split_insert_concat",
     [h.make_node("SplitToSequence", ["x", "two"], ["s1"], name="split", axis=0),
      h.make_node("SequenceInsert", ["s1", "z", "minus1"], ["s2"], name="insert"),
      h.make_node("SequenceErase", ["s2", "zero"], ["s3"], name="erase"),
      h.make_node("SequenceLength", ["s3"], ["n"], name="length"),
      h.make_node("SequenceAt", ["s3", "minus1"], ["last"], name="at"),
      h.make_node("ConcatFromSequence", ["s3"], ["stacked"], name="stack", axis=1, new_axis=1)],
     [vi("x", [6, 4]), vi("z", [2, 4])],
     [vi("n", [], T.INT64), vi("last", [2, 4]), vi("stacked", [2, 3, 4])],
     [init("two", np.int64(2)), init("minus1", np.int64(-1)), init("zero", np.int64(0))],
     [x, z], [np.int64(len(pieces)), pieces[-1], np.stack(pieces, axis=1)])
