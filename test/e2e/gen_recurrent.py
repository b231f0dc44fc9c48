#!/usr/bin/python3
"""Generates recurrent networks of the kinds users bring, each with
test_data_set_0 (input_K.pb, output_K.pb):

- lstm_vad_stream: a voice-activity detector's streaming step (Silero-like):
  an LSTM over 4 frames whose state comes in (initial_h, initial_c) and goes
  out (Y_h, Y_c), then a linear layer and a sigmoid per frame; a second data
  set is the next call, from the first's final state;
- gru_enhance_batchwise: a speech-enhancement GRU as PyTorch exports it
  (layout 1, linear_before_reset 1) with its state in and out, and a mask
  through a sigmoid;
- lstm_bidirectional_lengths: a bidirectional LSTM with peepholes, clip and
  constant sequence lengths shorter than the sequence for one batch;
- lstm_input_forget: input_forget (f = 1 - i), reverse direction;
- gru_activations: a GRU with HardSigmoid and Softsign (alpha and beta
  given), reset applied before the product (linear_before_reset 0);
- rnn_relu_reverse: a reverse RNN with Relu and biases;
- rnn_two_layers: two stacked RNNs (Tanh), the second reading the first's Y
  reshaped;
- lstm_qdq_weights: an LSTM whose W and R are int8 initializers behind
  DequantizeLinear (weight-only quantization, as QDQ exporters write it);
- gru_long_sequence: a GRU over 48 frames with its state in and out;
- gru_padded_gates_qdq, lstm_padded_gates_peepholes: hidden sizes whose
  gates npuc pads to aligned columns (5, 6), with linear_before_reset,
  sequence lengths, peepholes, clip, both directions and int8 weights.

The expected outputs come from ONNX's definitions of LSTM, GRU and RNN
evaluated in numpy (float64, rounded once to float32), independent of npuc.

usage: gen_recurrent.py OUTDIR
"""
import os
import sys

import numpy as np
from onnx import helper as h
from onnx import numpy_helper as nh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_builder  # noqa: E402

if len(sys.argv) != 2:
    sys.exit(__doc__.strip().splitlines()[-1])
out = sys.argv[1]
onnx_builder.set_output(out)
rng = np.random.default_rng(20261206)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


ACT = {
    "Sigmoid": lambda x, a, b: sigmoid(x),
    "Tanh": lambda x, a, b: np.tanh(x),
    "Relu": lambda x, a, b: np.maximum(x, 0),
    "HardSigmoid": lambda x, a, b: np.clip(a * x + b, 0, 1),
    "Softsign": lambda x, a, b: x / (1 + np.abs(x)),
    "LeakyRelu": lambda x, a, b: np.where(x < 0, a * x, x),
}
ALPHA = {"HardSigmoid": 0.2, "LeakyRelu": 0.01}
BETA = {"HardSigmoid": 0.5}


def functions(names, alphas, betas):
    """Each activation with its alpha and beta, taken in order by the
    activations that use one (ONNX's defaults otherwise)."""
    fs, ai, bi = [], 0, 0
    for n in names:
        a = b = 0.0
        if n in ALPHA:
            a = alphas[ai] if ai < len(alphas) else ALPHA[n]
            ai += 1
        if n in BETA:
            b = betas[bi] if bi < len(betas) else BETA[n]
            bi += 1
        fs.append(lambda x, n=n, a=a, b=b: ACT[n](x, a, b))
    return fs


def recurrence(kind, X, W, R, B=None, lens=None, h0=None, c0=None, P=None, hidden=None,
               direction="forward", acts=None, alphas=(), betas=(), clip=0.0, layout=0,
               input_forget=0, linear_before_reset=0):
    """ONNX's LSTM, GRU or RNN in float64: returns Y, Y_h (and Y_c)."""
    X = X.astype(np.float64)
    if layout:
        X = X.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    S, Bn, _ = X.shape
    H = hidden
    G = {"LSTM": 4, "GRU": 3, "RNN": 1}[kind]
    per = {"LSTM": 3, "GRU": 2, "RNN": 1}[kind]
    dirs = 2 if direction == "bidirectional" else 1
    if acts is None:
        acts = {"LSTM": ["Sigmoid", "Tanh", "Tanh"], "GRU": ["Sigmoid", "Tanh"], "RNN": ["Tanh"]}[kind] * dirs
    fns = functions(acts, list(alphas), list(betas))
    lens = np.full(Bn, S) if lens is None else lens
    cl = (lambda v: np.clip(v, -clip, clip)) if clip > 0 else (lambda v: v)
    Y = np.zeros((S, dirs, Bn, H))
    Yh = np.zeros((dirs, Bn, H))
    Yc = np.zeros((dirs, Bn, H))
    for d in range(dirs):
        f = fns[d * per:(d + 1) * per]
        w, r = W[d].astype(np.float64), R[d].astype(np.float64)
        wb = np.zeros(G * H) if B is None else B[d, :G * H].astype(np.float64)
        rb = np.zeros(G * H) if B is None else B[d, G * H:].astype(np.float64)
        p = np.zeros(3 * H) if P is None else P[d].astype(np.float64)
        reverse = direction == "reverse" or d == 1
        for b in range(Bn):
            hs = np.zeros(H) if h0 is None else h0[d, b].astype(np.float64)
            cs = np.zeros(H) if c0 is None else c0[d, b].astype(np.float64)
            n = int(lens[b])
            order = range(n - 1, -1, -1) if reverse else range(n)
            for t in order:
                x = X[t, b]
                if kind == "LSTM":
                    g = x @ w.T + hs @ r.T + wb + rb
                    gi, go, gf, gc = (g[k * H:(k + 1) * H] for k in range(4))
                    i = f[0](cl(gi + p[:H] * cs))
                    fg = 1 - i if input_forget else f[0](cl(gf + p[2 * H:] * cs))
                    cs = fg * cs + i * f[1](cl(gc))
                    o = f[0](cl(go + p[H:2 * H] * cs))
                    hs = o * f[2](cs)
                elif kind == "GRU":
                    gx = x @ w.T + wb
                    z = f[0](cl(gx[:H] + hs @ r[:H].T + rb[:H]))
                    rr = f[0](cl(gx[H:2 * H] + hs @ r[H:2 * H].T + rb[H:2 * H]))
                    if linear_before_reset:
                        hh = f[1](cl(gx[2 * H:] + rr * (hs @ r[2 * H:].T + rb[2 * H:])))
                    else:
                        hh = f[1](cl(gx[2 * H:] + (rr * hs) @ r[2 * H:].T + rb[2 * H:]))
                    hs = (1 - z) * hh + z * hs
                else:
                    hs = f[0](cl(x @ w.T + hs @ r.T + wb + rb))
                Y[t, d, b] = hs
            Yh[d, b], Yc[d, b] = hs, cs
    if layout:
        Y, Yh, Yc = Y.transpose(2, 0, 1, 3), Yh.transpose(1, 0, 2), Yc.transpose(1, 0, 2)
    f32 = lambda a: a.astype(np.float32)
    return (f32(Y), f32(Yh), f32(Yc)) if kind == "LSTM" else (f32(Y), f32(Yh))


def save(name, nodes, inputs, outputs, inits, feeds, expected, opset=14):
    onnx_builder.save_graph(name, nodes, inputs, outputs, inits, feeds, expected, opset, ir_version=8)


vi = onnx_builder.value_info


def u(*shape, scale=0.5):
    return rng.uniform(-scale, scale, shape).astype(np.float32)


def init(name, a):
    return nh.from_array(a, name)


# A VAD's streaming step: LSTM(16 -> 24) over 4 frames, state in and out,
# then Linear(24 -> 1) and Sigmoid per frame.
S, I, H = 4, 16, 24
x, W, R, Bb = u(S, 1, I, scale=1.0), u(1, 4 * H, I), u(1, 4 * H, H), u(1, 8 * H, scale=0.2)
h0, c0 = u(1, 1, H), u(1, 1, H)
lw, lb = u(H, 1), u(1, scale=0.1)
Y, Yh, Yc = recurrence("LSTM", x, W, R, Bb, h0=h0, c0=c0, hidden=H)
prob = (1 / (1 + np.exp(-(Y.reshape(S, H).astype(np.float64) @ lw + lb)))).astype(np.float32)
save("lstm_vad_stream",
     [h.make_node("LSTM", ["x", "W", "R", "B", "", "h0", "c0"], ["Y", "hn", "cn"], name="lstm", hidden_size=H),
      h.make_node("Reshape", ["Y", "flat"], ["f"], name="flatten"),
      h.make_node("MatMul", ["f", "lw"], ["m"], name="linear"),
      h.make_node("Add", ["m", "lb"], ["l"], name="bias"),
      h.make_node("Sigmoid", ["l"], ["prob"], name="sigmoid")],
     [vi("x", [S, 1, I]), vi("h0", [1, 1, H]), vi("c0", [1, 1, H])],
     [vi("prob", [S, 1]), vi("hn", [1, 1, H]), vi("cn", [1, 1, H])],
     [init("W", W), init("R", R), init("B", Bb), init("flat", np.array([S, H], np.int64)),
      init("lw", lw), init("lb", lb)],
     [x, h0, c0], [prob, Yh, Yc])
# The stream's next call starts from this call's final state (contract S5):
# test_data_set_1 feeds Y_h and Y_c back, its reference continues the
# sequence.
x2 = u(S, 1, I, scale=1.0)
Y2, Yh2, Yc2 = recurrence("LSTM", x2, W, R, Bb, h0=Yh, c0=Yc, hidden=H)
prob2 = (1 / (1 + np.exp(-(Y2.reshape(S, H).astype(np.float64) @ lw + lb)))).astype(np.float32)
onnx_builder.write_data_set("lstm_vad_stream", 1, [x2, Yh, Yc], [prob2, Yh2, Yc2])

# Speech enhancement: GRU(12 -> 16), batch-major (layout 1), PyTorch's
# linear_before_reset, state in and out, and a sigmoid mask.
S, I, H = 6, 12, 16
x, W, R, Bb, h0 = u(2, S, I, scale=1.0), u(1, 3 * H, I), u(1, 3 * H, H), u(1, 6 * H, scale=0.2), u(2, 1, H)
Y, Yh = recurrence("GRU", x, W, R, Bb, h0=h0, hidden=H, layout=1, linear_before_reset=1)
save("gru_enhance_batchwise",
     [h.make_node("GRU", ["x", "W", "R", "B", "", "h0"], ["Y", "hn"], name="gru", hidden_size=H, layout=1,
                  linear_before_reset=1),
      h.make_node("Sigmoid", ["Y"], ["mask"], name="mask")],
     [vi("x", [2, S, I]), vi("h0", [2, 1, H])], [vi("mask", [2, S, 1, H]), vi("hn", [2, 1, H])],
     [init("W", W), init("R", R), init("B", Bb)],
     [x, h0], [(1 / (1 + np.exp(-Y.astype(np.float64)))).astype(np.float32), Yh])

# Bidirectional LSTM with peepholes, clip 1.5 and sequence lengths [5, 3].
S, I, H = 5, 6, 8
x, W, R, Bb = u(S, 2, I, scale=1.5), u(2, 4 * H, I), u(2, 4 * H, H), u(2, 8 * H, scale=0.2)
P, lens = u(2, 3 * H), np.array([5, 3], np.int32)
Y, Yh, Yc = recurrence("LSTM", x, W, R, Bb, lens=lens, P=P, hidden=H, direction="bidirectional", clip=1.5)
save("lstm_bidirectional_lengths",
     [h.make_node("LSTM", ["x", "W", "R", "B", "lens", "", "", "P"], ["Y", "hn", "cn"], name="lstm",
                  hidden_size=H, direction="bidirectional", clip=1.5)],
     [vi("x", [S, 2, I])], [vi("Y", [S, 2, 2, H]), vi("hn", [2, 2, H]), vi("cn", [2, 2, H])],
     [init("W", W), init("R", R), init("B", Bb), init("lens", lens), init("P", P)],
     [x], [Y, Yh, Yc])

# input_forget, reverse.
S, I, H = 4, 5, 6
x, W, R = u(S, 3, I, scale=1.0), u(1, 4 * H, I), u(1, 4 * H, H)
Y, Yh, Yc = recurrence("LSTM", x, W, R, hidden=H, direction="reverse", input_forget=1)
save("lstm_input_forget",
     [h.make_node("LSTM", ["x", "W", "R"], ["Y", "hn", "cn"], name="lstm", hidden_size=H,
                  direction="reverse", input_forget=1)],
     [vi("x", [S, 3, I])], [vi("Y", [S, 1, 3, H]), vi("hn", [1, 3, H]), vi("cn", [1, 3, H])],
     [init("W", W), init("R", R)], [x], [Y, Yh, Yc])

# GRU with HardSigmoid (alpha 0.25, beta 0.45) and Softsign.
S, I, H = 5, 4, 7
x, W, R, Bb = u(S, 2, I, scale=2.0), u(1, 3 * H, I, scale=1.0), u(1, 3 * H, H, scale=1.0), u(1, 6 * H)
Y, Yh = recurrence("GRU", x, W, R, Bb, hidden=H, acts=["HardSigmoid", "Softsign"], alphas=[0.25], betas=[0.45])
save("gru_activations",
     [h.make_node("GRU", ["x", "W", "R", "B"], ["Y", "hn"], name="gru", hidden_size=H,
                  activations=["HardSigmoid", "Softsign"], activation_alpha=[0.25], activation_beta=[0.45])],
     [vi("x", [S, 2, I])], [vi("Y", [S, 1, 2, H]), vi("hn", [1, 2, H])],
     [init("W", W), init("R", R), init("B", Bb)], [x], [Y, Yh])

# Reverse RNN with Relu and biases.
S, I, H = 6, 5, 9
x, W, R, Bb = u(S, 2, I, scale=1.0), u(1, H, I), u(1, H, H, scale=0.3), u(1, 2 * H, scale=0.2)
Y, Yh = recurrence("RNN", x, W, R, Bb, hidden=H, direction="reverse", acts=["Relu"])
save("rnn_relu_reverse",
     [h.make_node("RNN", ["x", "W", "R", "B"], ["Y", "hn"], name="rnn", hidden_size=H, direction="reverse",
                  activations=["Relu"])],
     [vi("x", [S, 2, I])], [vi("Y", [S, 1, 2, H]), vi("hn", [1, 2, H])],
     [init("W", W), init("R", R), init("B", Bb)], [x], [Y, Yh])

# Two stacked RNNs: the second reads the first's Y as [S, B, H].
S, I, H = 5, 4, 6
x, W1, R1, W2, R2 = u(S, 1, I, scale=1.0), u(1, H, I), u(1, H, H), u(1, H, H), u(1, H, H)
Y1, _ = recurrence("RNN", x, W1, R1, hidden=H)
Y2, Yh2 = recurrence("RNN", Y1.reshape(S, 1, H), W2, R2, hidden=H)
save("rnn_two_layers",
     [h.make_node("RNN", ["x", "W1", "R1"], ["Y1", ""], name="rnn1", hidden_size=H),
      h.make_node("Squeeze", ["Y1", "axis1"], ["s1"], name="squeeze"),
      h.make_node("RNN", ["s1", "W2", "R2"], ["Y2", "hn"], name="rnn2", hidden_size=H)],
     [vi("x", [S, 1, I])], [vi("Y2", [S, 1, 1, H]), vi("hn", [1, 1, H])],
     [init("W1", W1), init("R1", R1), init("W2", W2), init("R2", R2), init("axis1", np.array([1], np.int64))],
     [x], [Y2, Yh2])

# LSTM with int8 weights behind DequantizeLinear.
S, I, H = 3, 8, 8
x = u(S, 2, I, scale=1.0)
wq, rq = rng.integers(-127, 128, (1, 4 * H, I)).astype(np.int8), rng.integers(-127, 128, (1, 4 * H, H)).astype(np.int8)
ws, rs = np.float32(0.004), np.float32(0.003)
W, R = (wq.astype(np.float32) * ws).astype(np.float32), (rq.astype(np.float32) * rs).astype(np.float32)
Y, Yh, Yc = recurrence("LSTM", x, W, R, hidden=H)
save("lstm_qdq_weights",
     [h.make_node("DequantizeLinear", ["wq", "ws"], ["W"], name="dq_w"),
      h.make_node("DequantizeLinear", ["rq", "rs"], ["R"], name="dq_r"),
      h.make_node("LSTM", ["x", "W", "R"], ["Y", "hn", "cn"], name="lstm", hidden_size=H)],
     [vi("x", [S, 2, I])], [vi("Y", [S, 1, 2, H]), vi("hn", [1, 2, H]), vi("cn", [1, 2, H])],
     [init("wq", wq), init("rq", rq), init("ws", np.array(ws)), init("rs", np.array(rs))],
     [x], [Y, Yh, Yc])

# A GRU over 48 frames (a streaming enhancer's context window): the state
# passes from step to step in LM and the recurrent weights, read by every
# step, are loaded once (check_recurrent_traffic.py measures both).
S, I, H = 48, 20, 32
x, W, R, Bb, h0 = u(S, 1, I, scale=1.0), u(1, 3 * H, I), u(1, 3 * H, H, scale=0.3), u(1, 6 * H, scale=0.2), u(1, 1, H)
Y, Yh = recurrence("GRU", x, W, R, Bb, h0=h0, hidden=H)
save("gru_long_sequence",
     [h.make_node("GRU", ["x", "W", "R", "B", "", "h0"], ["Y", "hn"], name="gru", hidden_size=H)],
     [vi("x", [S, 1, I]), vi("h0", [1, 1, H])], [vi("Y", [S, 1, 1, H]), vi("hn", [1, 1, H])],
     [init("W", W), init("R", R), init("B", Bb)], [x, h0], [Y, Yh])

# Gates padded to aligned columns (hidden sizes 5 and 6) together with what
# touches the gates' columns: a bidirectional GRU with linear_before_reset,
# sequence lengths and int8 weights behind DequantizeLinear; a bidirectional
# LSTM with peepholes, clip and int8 weights.
S, I, H = 4, 3, 5
x = u(S, 2, I, scale=1.0)
wq, rq = rng.integers(-127, 128, (2, 3 * H, I)).astype(np.int8), rng.integers(-127, 128, (2, 3 * H, H)).astype(np.int8)
ws, rs, Bb, lens = np.float32(0.006), np.float32(0.004), u(2, 6 * H, scale=0.2), np.array([4, 2], np.int32)
W, R = (wq.astype(np.float32) * ws).astype(np.float32), (rq.astype(np.float32) * rs).astype(np.float32)
Y, Yh = recurrence("GRU", x, W, R, Bb, lens=lens, hidden=H, direction="bidirectional", linear_before_reset=1)
save("gru_padded_gates_qdq",
     [h.make_node("DequantizeLinear", ["wq", "ws"], ["W"], name="dq_w"),
      h.make_node("DequantizeLinear", ["rq", "rs"], ["R"], name="dq_r"),
      h.make_node("GRU", ["x", "W", "R", "B", "lens"], ["Y", "hn"], name="gru", hidden_size=H,
                  direction="bidirectional", linear_before_reset=1)],
     [vi("x", [S, 2, I])], [vi("Y", [S, 2, 2, H]), vi("hn", [2, 2, H])],
     [init("wq", wq), init("rq", rq), init("ws", np.array(ws)), init("rs", np.array(rs)), init("B", Bb),
      init("lens", lens)],
     [x], [Y, Yh])
S, I, H = 3, 4, 6
x = u(S, 1, I, scale=1.0)
wq, rq = rng.integers(-127, 128, (2, 4 * H, I)).astype(np.int8), rng.integers(-127, 128, (2, 4 * H, H)).astype(np.int8)
ws, rs, P = np.float32(0.005), np.float32(0.004), u(2, 3 * H)
W, R = (wq.astype(np.float32) * ws).astype(np.float32), (rq.astype(np.float32) * rs).astype(np.float32)
Y, Yh, Yc = recurrence("LSTM", x, W, R, P=P, hidden=H, direction="bidirectional", clip=0.9)
save("lstm_padded_gates_peepholes",
     [h.make_node("DequantizeLinear", ["wq", "ws"], ["W"], name="dq_w"),
      h.make_node("DequantizeLinear", ["rq", "rs"], ["R"], name="dq_r"),
      h.make_node("LSTM", ["x", "W", "R", "", "", "", "", "P"], ["Y", "hn", "cn"], name="lstm", hidden_size=H,
                  direction="bidirectional", clip=0.9)],
     [vi("x", [S, 1, I])], [vi("Y", [S, 2, 1, H]), vi("hn", [2, 1, H]), vi("cn", [2, 1, H])],
     [init("wq", wq), init("rq", rq), init("ws", np.array(ws)), init("rs", np.array(rs)), init("P", P)],
     [x], [Y, Yh, Yc])
