#!/usr/bin/python3
"""Generates tests of ONNX Attention (opset 23; nonpad_kv_seqlen at opset 24),
each with test_data_set_0:

- attention_4d: multi-head attention, 4-D Q/K/V, default scale;
- attention_3d_gqa: 3-D inputs with q_num_heads 6, kv_num_heads 2 (each kv
  head serves three query heads), and a v head size unlike Q's;
- attention_causal_prefill: is_causal on a square score matrix, scale given;
- attention_kv_cache_decode: a decode step: past_key/past_value of 5
  positions, 3 new ones, is_causal (bottom-right: query i sees keys up to
  past + i), all four outputs (present_key, present_value and the
  softmax, qk_matmul_output_mode 3);
- attention_bool_mask_softcap: a run-time boolean mask [q, 4] shorter than
  the 6 keys (padded with -inf), softcap 2.5, qk_matmul_output_mode 0;
- attention_float_mask_mode1/mode2: an additive 4-D mask with softcap, the
  qk_matmul_output after the softcap (1) and after the bias (2);
- attention_nonpad_causal: opset 24's nonpad_kv_seqlen (a run-time int64
  input) with is_causal and no past: a static cache whose valid length
  differs per batch element;
- attention_fp16: f16 Q/K/V with softmax_precision float;
- attention_double_softmax: softmax_precision double, computed in float32;
- decoder_block: a transformer decoder layer as exporters write it with the
  opset-23 op: LayerNormalization, Q/K/V projections, Attention with a KV
  cache in and out (GQA), output projection and a residual.

The expected outputs come from ONNX's definition of Attention written out in
numpy (float64, rounded once), independent of npuc.

usage: gen_attention.py OUTDIR
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
rng = np.random.default_rng(20261206)
vi = onnx_builder.value_info
f32 = np.float32


def attention(q, k, v, mask=None, past_k=None, past_v=None, nonpad=None, scale=None, causal=False,
              q_heads=None, kv_heads=None, softcap=0.0, mode=0):
    """ONNX Attention in float64: returns (y, present_k, present_v, qk_out)."""
    q, k, v = (np.asarray(x, np.float64) for x in (q, k, v))
    three_d = q.ndim == 3
    if three_d:
        def split(x, n):
            b, s, hid = x.shape
            return x.reshape(b, s, n, hid // n).transpose(0, 2, 1, 3)
        q, k, v = split(q, q_heads), split(k, kv_heads), split(v, kv_heads)
    if scale is None:
        scale = 1 / np.sqrt(q.shape[3])
    root = np.sqrt(scale)
    if past_k is not None:
        k = np.concatenate([past_k, k], axis=2)
        v = np.concatenate([past_v, v], axis=2)
    present_k, present_v = k, v
    sq, total = q.shape[2], k.shape[2]
    past = 0 if past_k is None else past_k.shape[2]
    bias = np.zeros((sq, total))
    if mask is not None:
        m = np.where(mask, 0.0, -np.inf) if mask.dtype == bool else mask.astype(np.float64)
        pad = total - m.shape[-1]
        if pad:
            m = np.concatenate([m, np.full(m.shape[:-1] + (pad,), -np.inf)], axis=-1)
        bias = bias + m
    i = np.arange(sq)[:, None]
    j = np.arange(total)[None, :]
    if causal:
        if past_k is None and nonpad is not None:
            allowed = j[None] <= i[None] + (nonpad.reshape(-1, 1, 1) - sq)
            bias = bias + np.where(allowed, 0.0, -np.inf)[:, None]
        else:
            bias = bias + np.where(j <= i + past, 0.0, -np.inf)
    if nonpad is not None:
        bias = bias + np.where(np.arange(total)[None, :] < nonpad[:, None], 0.0, -np.inf)[:, None, None, :]
    group = q.shape[1] // k.shape[1]
    k = np.repeat(k, group, axis=1)
    v = np.repeat(v, group, axis=1)
    qk = (q * root) @ (k * root).transpose(0, 1, 3, 2)
    if softcap > 0:
        qk = np.tanh(qk / softcap) * softcap
    scores = qk + bias
    with np.errstate(invalid="ignore"):
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        probs = e / e.sum(axis=-1, keepdims=True)
    y = probs @ v
    if three_d:
        y = y.transpose(0, 2, 1, 3).reshape(y.shape[0], y.shape[2], -1)
    qk_out = {0: qk, 1: qk, 2: scores, 3: probs}[mode]
    return y, present_k, present_v, qk_out


def save(name, feeds, inits, attrs, results, expected, opset=23, inputs_order=None, dtype=T.FLOAT):
    """One Attention node over graph inputs `feeds` and initializers `inits`
    (name -> array); `inputs_order` lists its seven input slots ('' absent)."""
    node = h.make_node("Attention", inputs_order, results, **attrs)
    ins = [vi(k, list(a.shape), onnx_builder.onnx_type(a.dtype)) for k, a in feeds.items()]
    named = [n for n in results if n]
    outs = [vi(n, list(e.shape), onnx_builder.onnx_type(e.dtype)) for n, e in zip(named, expected)]
    onnx_builder.save_graph(name, [node], ins, outs, [nh.from_array(a, k) for k, a in inits.items()],
                            list(feeds.values()), expected, opset)


def r(*shape):
    return rng.standard_normal(shape).astype(f32)


# Multi-head, 4-D, default scale.
q, k, v = r(2, 3, 4, 8), r(2, 3, 6, 8), r(2, 3, 6, 8)
save("attention_4d", {"Q": q, "K": k, "V": v}, {}, {}, ["Y"],
     [attention(q, k, v)[0].astype(f32)], inputs_order=["Q", "K", "V"])

# softmax_precision double: computed in float32 (the float64 policy), against
# the float64 reference.
save("attention_double_softmax", {"Q": q, "K": k, "V": v}, {}, {"softmax_precision": T.DOUBLE}, ["Y"],
     [attention(q, k, v)[0].astype(f32)], inputs_order=["Q", "K", "V"])

# 3-D, grouped-query (6 query heads, 2 kv heads), v head size 5.
q, k, v = r(2, 4, 6 * 8), r(2, 7, 2 * 8), r(2, 7, 2 * 5)
save("attention_3d_gqa", {"Q": q, "K": k, "V": v}, {}, {"q_num_heads": 6, "kv_num_heads": 2}, ["Y"],
     [attention(q, k, v, q_heads=6, kv_heads=2)[0].astype(f32)], inputs_order=["Q", "K", "V"])

# Causal prefill, scale given.
q, k, v = r(1, 2, 5, 16), r(1, 2, 5, 16), r(1, 2, 5, 16)
save("attention_causal_prefill", {"Q": q, "K": k, "V": v}, {}, {"is_causal": 1, "scale": 0.3}, ["Y"],
     [attention(q, k, v, causal=True, scale=0.3)[0].astype(f32)], inputs_order=["Q", "K", "V"])

# Decode with a KV cache: 5 past positions, 3 new, causal, every output.
q, k, v = r(2, 4, 3, 8), r(2, 2, 3, 8), r(2, 2, 3, 8)
pk, pv = r(2, 2, 5, 8), r(2, 2, 5, 8)
res = attention(q, k, v, past_k=pk, past_v=pv, causal=True, mode=3)
save("attention_kv_cache_decode", {"Q": q, "K": k, "V": v, "past_key": pk, "past_value": pv}, {},
     {"is_causal": 1, "qk_matmul_output_mode": 3}, ["Y", "present_key", "present_value", "qk"],
     [x.astype(f32) for x in res], inputs_order=["Q", "K", "V", "", "past_key", "past_value"])

# A run-time boolean mask shorter than the keys; softcap; the raw product.
q, k, v = r(1, 2, 3, 8), r(1, 2, 6, 8), r(1, 2, 6, 8)
mask = rng.random((3, 4)) > 0.3
mask[:, 0] = True
res = attention(q, k, v, mask=mask, softcap=2.5, mode=0)
save("attention_bool_mask_softcap", {"Q": q, "K": k, "V": v, "mask": mask}, {},
     {"softcap": 2.5, "qk_matmul_output_mode": 0}, ["Y", "", "", "qk"],
     [res[0].astype(f32), res[3].astype(f32)], inputs_order=["Q", "K", "V", "mask"])

# An additive 4-D mask (a constant) with softcap: qk output after the softcap
# (mode 1) and after the bias (mode 2).
q, k, v = r(2, 2, 3, 4), r(2, 2, 5, 4), r(2, 2, 5, 4)
fmask = (rng.standard_normal((2, 1, 3, 5)) * 0.5).astype(f32)
fmask[1, 0, 2, 1:] = -np.inf
for mode in (1, 2):
    res = attention(q, k, v, mask=fmask, softcap=1.5, mode=mode)
    save("attention_float_mask_mode%d" % mode, {"Q": q, "K": k, "V": v}, {"mask": fmask},
         {"softcap": 1.5, "qk_matmul_output_mode": mode}, ["Y", "", "", "qk"],
         [res[0].astype(f32), res[3].astype(f32)], inputs_order=["Q", "K", "V", "mask"])

# Opset 24: a static cache with per-batch valid lengths, causal, no past.
q, k, v = r(3, 2, 2, 8), r(3, 2, 6, 8), r(3, 2, 6, 8)
nonpad = np.array([6, 4, 3], np.int64)
res = attention(q, k, v, nonpad=nonpad, causal=True)
save("attention_nonpad_causal", {"Q": q, "K": k, "V": v, "nonpad": nonpad}, {}, {"is_causal": 1}, ["Y"],
     [res[0].astype(f32)], opset=24, inputs_order=["Q", "K", "V", "", "", "", "nonpad"])

# f16 operands, softmax in float.
q, k, v = (r(1, 2, 4, 8).astype(np.float16) for _ in range(3))
res = attention(q, k, v)
save("attention_fp16", {"Q": q, "K": k, "V": v}, {}, {"softmax_precision": T.FLOAT}, ["Y"],
     [res[0].astype(np.float16)], inputs_order=["Q", "K", "V"])
with open(os.path.join(out, "attention_fp16", "tolerance.txt"), "w") as f:
    f.write("atol=2e-3 rtol=2e-3  # f16 operands and results: a few f16 ulps of products of sums\n")

# A decoder layer: LayerNorm, projections, GQA attention with a KV cache in
# and out, output projection, residual.
hid, hq, hkv, dh, past, new = 32, 4, 2, 8, 6, 2
x = r(1, new, hid)
pk, pv = r(1, hkv, past, dh), r(1, hkv, past, dh)
gamma, beta = (1 + 0.1 * r(hid)), 0.1 * r(hid)
wq, wk, wv, wo = (0.2 * r(hid, n) for n in (hq * dh, hkv * dh, hkv * dh, hid))
wo = 0.2 * r(hq * dh, hid)
x64 = x.astype(np.float64)
mu = x64.mean(-1, keepdims=True)
ln = (x64 - mu) / np.sqrt(((x64 - mu) ** 2).mean(-1, keepdims=True) + 1e-5) * gamma + beta
y, pres_k, pres_v, _ = attention(ln @ wq, ln @ wk, ln @ wv, past_k=pk, past_v=pv, causal=True,
                                 q_heads=hq, kv_heads=hkv)
final = x64 + y @ wo
nodes = [
    h.make_node("LayerNormalization", ["x", "gamma", "beta"], ["ln"], axis=-1, epsilon=1e-5),
    h.make_node("MatMul", ["ln", "wq"], ["q"]),
    h.make_node("MatMul", ["ln", "wk"], ["k"]),
    h.make_node("MatMul", ["ln", "wv"], ["v"]),
    h.make_node("Attention", ["q", "k", "v", "", "past_key", "past_value"], ["attn", "present_key", "present_value"],
                name="self_attn", is_causal=1, q_num_heads=hq, kv_num_heads=hkv),
    h.make_node("MatMul", ["attn", "wo"], ["proj"]),
    h.make_node("Add", ["x", "proj"], ["out"]),
]
inits = [nh.from_array(a.astype(f32), n) for n, a in
         (("gamma", gamma), ("beta", beta), ("wq", wq), ("wk", wk), ("wv", wv), ("wo", wo))]
onnx_builder.save_graph("decoder_block", nodes,
                        [vi("x", [1, new, hid]), vi("past_key", [1, hkv, past, dh]), vi("past_value", [1, hkv, past, dh])],
                        [vi("out", [1, new, hid]), vi("present_key", [1, hkv, past + new, dh]),
                         vi("present_value", [1, hkv, past + new, dh])],
                        inits, [x, pk, pv], [final.astype(f32), pres_k.astype(f32), pres_v.astype(f32)], 23)
