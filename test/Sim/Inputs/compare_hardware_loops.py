#!/usr/bin/python3
"""Compiles each model twice, with hardware loops and with
--no-hardware-loops, runs both on npu-sim, and prints per model and target:
whether the outputs are the same bytes, the instructions of each program
(npu-objdump), and how many LOOPs the rolled one has. A model is
PATH.onnx:NAME=INPUT.npy[,NAME=INPUT.npy...] (--allow-unverified: a
generated model's cases need no evidence for this comparison). Exits 1 if a
run fails.

usage: compare_hardware_loops.py BINDIR OUTDIR TARGET MODEL...
"""
import glob
import os
import subprocess
import sys

bindir, outdir, target = sys.argv[1:4]


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def instructions(binary):
    text = subprocess.run([os.path.join(bindir, "npu-objdump"), binary], check=True,
                          capture_output=True, text=True).stdout
    lines = [l.split(";")[0] for l in text.splitlines() if l.strip()[:1].isdigit() and ":" in l]
    return len(lines), sum(1 for l in lines if l.split(":", 1)[1].split()[0] == "loop")


for spec in sys.argv[4:]:
    model, binds = spec.split(":", 1)
    name = os.path.splitext(os.path.basename(model))[0]
    result = {}
    for mode, extra in (("rolled", []), ("flat", ["--no-hardware-loops"])):
        binary = os.path.join(outdir, "%s.%s.%s.bin" % (name, target, mode))
        out = os.path.join(outdir, "%s.%s.%s.out" % (name, target, mode))
        run([os.path.join(bindir, "npuc"), model, "--target", target, "--allow-unverified",
             "-o", binary] + extra)
        args = [os.path.join(bindir, "npu-sim"), binary, "-o", out]
        for b in binds.split(","):
            args += ["--input", b]
        run(args)
        outputs = sorted(glob.glob(os.path.join(out, "*.npy")))
        result[mode] = ([open(f, "rb").read() for f in outputs], instructions(binary))
    same = "same" if result["rolled"][0] == result["flat"][0] and result["flat"][0] else "DIFFERENT"
    (rn, loops), (fn, _) = result["rolled"][1], result["flat"][1]
    print("%s %s: outputs %s; %s instructions with %d loops, %s unrolled; %s" %
          (name, target, same, rn, loops, fn, "fewer" if rn < fn else "NOT FEWER"))
