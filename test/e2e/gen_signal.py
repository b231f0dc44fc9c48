#!/usr/bin/python3
"""Generates audio front ends and transforms (opset 17), each with
test_data_set_0:

- log_mel_frontend: a keyword-spotting front end: HannWindow (periodic),
  STFT of frame 64 every 32 samples, the power spectrum (re^2 + im^2 by
  slicing the last axis), a MelWeightMatrix product (20 bands, 8 kHz) and a
  log;
- dft_padded_onesided: a real DFT along axis 2, zero-padded to dft_length 12
  and onesided (7 bins);
- dft_cut_inverse: an inverse complex DFT along axis 1 cut to dft_length 6;
- stft_complex_twosided: STFT of a complex signal, two-sided, with a window
  input, frame 8 every 3.

The expected outputs come from numpy's FFT (float64, rounded once) and the
ONNX definitions of the windows and of MelWeightMatrix written out in numpy,
independent of npuc.

usage: gen_signal.py OUTDIR
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
rng = np.random.default_rng(20261209)
vi = onnx_builder.value_info
f32 = np.float32


def init(name, a):
    return nh.from_array(np.asarray(a), name)


def save(name, nodes, inputs, outputs, inits, feeds, expected):
    onnx_builder.save_graph(name, nodes, inputs, outputs, inits, feeds, expected, 17, ir_version=8)


def complex_of(x):
    return x[..., 0] + 1j * x[..., 1] if x.shape[-1] == 2 else x[..., 0].astype(np.complex128)


def parts(z):
    return np.stack([z.real, z.imag], axis=-1).astype(f32)


def stft(x, step, length, window, onesided):
    sig = complex_of(x.astype(np.float64))
    frames = (sig.shape[1] - length) // step + 1
    res = []
    for f in range(frames):
        seg = sig[:, f * step:f * step + length] * window
        spec = np.fft.fft(seg, axis=-1)
        res.append(spec[:, :length // 2 + 1] if onesided else spec)
    return parts(np.stack(res, axis=1))


def mel_matrix(mels, dft, rate, lo, hi):
    """ONNX's MelWeightMatrix reference, in float64."""
    bins = np.arange(0, mels + 2)
    lo_mel, hi_mel = 2595 * np.log10(1 + lo / 700), 2595 * np.log10(1 + hi / 700)
    step = (hi_mel - lo_mel) / bins.shape[0]
    freq = 700 * (np.power(10, (bins * step + lo_mel) / 2595) - 1)
    edge = ((dft + 1) * freq // rate).astype(int)
    m = np.zeros((dft // 2 + 1, mels))
    for i in range(mels):
        left, center, right = edge[i], edge[i + 1], edge[i + 2]
        if center == left:
            m[center, i] = 1
        else:
            for j in range(left, center + 1):
                m[j, i] = (j - left) / (center - left)
        for j in range(center, right):
            m[j, i] = (right - j) / (right - center)
    return m


# Log-mel front end: 512 samples at 8 kHz, frames of 64 every 32.
L, S, MELS = 64, 32, 20
signal = rng.normal(0, 0.5, (1, 512, 1)).astype(f32)
hann = np.sin(np.pi * np.arange(L) / L) ** 2
spec = stft(signal, S, L, hann, True).astype(np.float64)
power = spec[..., 0] ** 2 + spec[..., 1] ** 2
mel = power @ mel_matrix(MELS, L, 8000, 20.0, 3800.0)
ref = np.log(mel + 1e-6).astype(f32)
frames = (512 - L) // S + 1
save("log_mel_frontend",
     [h.make_node("HannWindow", ["wlen"], ["window"], name="hann"),
      h.make_node("STFT", ["x", "step", "window"], ["spec"], name="stft"),
      h.make_node("Slice", ["spec", "s0", "s1", "axis"], ["re"], name="re"),
      h.make_node("Slice", ["spec", "s1", "s2", "axis"], ["im"], name="im"),
      h.make_node("Mul", ["re", "re"], ["re2"], name="re2"),
      h.make_node("Mul", ["im", "im"], ["im2"], name="im2"),
      h.make_node("Add", ["re2", "im2"], ["pw4"], name="power"),
      h.make_node("Squeeze", ["pw4", "axis"], ["pw"], name="squeeze"),
      h.make_node("MelWeightMatrix", ["mels", "dftlen", "rate", "lo", "hi"], ["melw"], name="melw"),
      h.make_node("MatMul", ["pw", "melw"], ["mel"], name="mel"),
      h.make_node("Add", ["mel", "eps"], ["mel_eps"], name="eps"),
      h.make_node("Log", ["mel_eps"], ["y"], name="log")],
     [vi("x", [1, 512, 1])], [vi("y", [1, frames, MELS])],
     [init("wlen", np.int64(L)), init("step", np.int64(S)), init("s0", np.array([0], np.int64)),
      init("s1", np.array([1], np.int64)), init("s2", np.array([2], np.int64)),
      init("axis", np.array([-1], np.int64)), init("mels", np.int64(MELS)), init("dftlen", np.int64(L)),
      init("rate", np.int64(8000)), init("lo", f32(20.0)), init("hi", f32(3800.0)), init("eps", f32(1e-6))],
     [signal], [ref])

# A real DFT along axis 2, zero-padded to 12, onesided.
x = rng.normal(0, 1, (2, 3, 9, 1)).astype(f32)
y = np.fft.fft(complex_of(x.astype(np.float64)), n=12, axis=2)[:, :, :7]
save("dft_padded_onesided", [h.make_node("DFT", ["x", "n"], ["y"], name="dft", axis=2, onesided=1)],
     [vi("x", [2, 3, 9, 1])], [vi("y", [2, 3, 7, 2])], [init("n", np.int64(12))], [x], [parts(y)])

# An inverse complex DFT along axis 1, cut to 6.
x = rng.normal(0, 1, (2, 10, 3, 2)).astype(f32)
y = np.fft.ifft(complex_of(x.astype(np.float64))[:, :6], axis=1)
save("dft_cut_inverse", [h.make_node("DFT", ["x", "n"], ["y"], name="idft", axis=1, inverse=1)],
     [vi("x", [2, 10, 3, 2])], [vi("y", [2, 6, 3, 2])], [init("n", np.int64(6))], [x], [parts(y)])

# STFT of a complex signal, two-sided, a window input.
x = rng.normal(0, 1, (2, 30, 2)).astype(f32)
w = rng.uniform(0.2, 1.0, 8).astype(f32)
save("stft_complex_twosided",
     [h.make_node("STFT", ["x", "step", "w"], ["y"], name="stft", onesided=0)],
     [vi("x", [2, 30, 2]), vi("w", [8])], [vi("y", [2, 8, 8, 2])], [init("step", np.int64(3))],
     [x, w], [stft(x, 3, 8, w.astype(np.float64), False)])
