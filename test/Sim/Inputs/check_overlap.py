"""Reads an npu-sim trace and reports how many cycles DMA_IN moves data while
MATRIX computes (the overlap double buffering buys), and whether every
MATRIX slice waits for all DMA_IN work before it (fully serialized).
usage: check_overlap.py TRACE.json"""
import json
import sys

events = json.load(open(sys.argv[1]))
events = events["traceEvents"] if isinstance(events, dict) else events
names = {e["tid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
slices = {}
for e in events:
    if e.get("ph") == "X" and e["dur"] > 0:
        slices.setdefault(names.get(e["tid"]), []).append((round(e["ts"] * 1000), round((e["ts"] + e["dur"]) * 1000)))
overlap = 0
for a0, a1 in slices.get("DMA_IN", []):
    for b0, b1 in slices.get("MATRIX", []):
        overlap += max(0, min(a1, b1) - max(a0, b0))
matrix = sum(b - a for a, b in slices.get("MATRIX", []))
print(f"DMA_IN overlaps MATRIX for {overlap} cycles of MATRIX's {matrix}")
print("overlap" if overlap * 2 >= matrix else "serialized")
