#!/usr/bin/python3
"""Checks that recurrent networks keep their state and weights on chip
(issue #29, contract S5): each model of a suite gen_recurrent.py wrote is
compiled for both targets and run by npu-sim on its first data set, and

- the GM bytes it writes are at most 1.1x its graph outputs' bytes (the
  state passes from step to step in LM: only outputs are written; the 10%
  is a model's non-recurrent head, lstm_vad_stream's 16-byte linear layer;
  WRITES_BEYOND lists the known exceptions with their reasons);
- the GM bytes it reads are at most twice its inputs' and its constants'
  bytes (npu-objdump's input and const regions): the recurrent weights,
  read by every step, are loaded once (a load per step read them S times).

usage: check_recurrent_traffic.py SUITE_DIR TOOLS_DIR
"""
import os
import re
import subprocess
import sys
import tempfile

if len(sys.argv) != 3:
    sys.exit(__doc__.strip().splitlines()[-1])
suite, tools = sys.argv[1], sys.argv[2]


def run(*args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({p.returncode}):\n{p.stdout}{p.stderr}")
    return p.stdout


def number(pattern, text):
    m = re.search(pattern, text)
    if not m:
        sys.exit(f"no match for {pattern!r} in:\n{text}")
    return int(m.group(1))


# Models whose writes beyond their outputs are not the recurrence's, and why
# (their reads are still checked). Each is a known gap, not a tolerance.
WRITES_BEYOND = {
    "gru_padded_gates_qdq": "Y's two directions are [4, 1, 2, 5] values the "
    "final concat reads as rows of 10 floats (2 x 5 merged), which no copy of "
    "5-float rows at an aligned pitch can fill: 320 bytes cross GM; the state "
    "does not",
}

failures, checked = [], 0
with tempfile.TemporaryDirectory() as tmp:
    for name in sorted(os.listdir(suite)):
        model = os.path.join(suite, name, "model.onnx")
        data = os.path.join(suite, name, "test_data_set_0")
        if not os.path.isfile(model):
            continue
        inputs = sorted((f for f in os.listdir(data) if f.startswith("input_")),
                        key=lambda f: int(f[6:-3]))
        for target in ("npu-v1", "npu-v1-tiny"):
            binary = os.path.join(tmp, f"{name}.{target}.bin")
            run(f"{tools}/npuc", model, "--target", target, "-o", binary)
            regions = run(f"{tools}/npu-objdump", binary)
            sizes = {k: number(rf"\b{k} (\d+)", regions) for k in ("input", "output", "const")}
            stats = run(f"{tools}/npu-sim", binary, "--stats", "-o", os.path.join(tmp, "out"),
                        "-i", *(os.path.join(data, f) for f in inputs))
            read = number(r"GM bytes read: (\d+)", stats)
            written = number(r"GM bytes written: (\d+)", stats)
            line = (f"{name} {target}: GM written {written} (outputs {sizes['output']}), "
                    f"read {read} (inputs {sizes['input']} + constants {sizes['const']})")
            print(line)
            checked += 1
            if name in WRITES_BEYOND:
                print(f"  writes not checked: {WRITES_BEYOND[name]}")
            elif written * 10 > sizes["output"] * 11:
                failures.append(line + ": writes more than its outputs")
            if read > 2 * (sizes["input"] + sizes["const"]):
                failures.append(line + ": reads its constants more than once")
if failures or not checked:
    sys.exit("\n".join(failures) or f"no model in {suite}")
print(f"{checked} runs keep their state and weights in LM")
