"""Checks that the slices of each engine in an npu-sim trace never overlap
partially: two slices of one track are disjoint or one contains the other
(Perfetto draws such slices as a stack; partial overlap would be an error)."""
import json
import sys

events = json.load(open(sys.argv[1]))
events = events["traceEvents"] if isinstance(events, dict) else events
tracks = {}
for e in events:
    if e.get("ph") == "X":
        # Microseconds with a fraction: compare in whole picoseconds.
        ts, end = round(e["ts"] * 1e6), round((e["ts"] + e["dur"]) * 1e6)
        tracks.setdefault((e["pid"], e["tid"]), []).append((ts, end))
bad = 0
for key, slices in tracks.items():
    slices.sort()
    for (a0, a1), (b0, b1) in zip(slices, slices[1:]):
        if a0 < b0 < a1 < b1:
            bad += 1
            print(f"track {key}: [{a0}, {a1}) and [{b0}, {b1}) overlap partially")
if not tracks:
    print("no slices")
    sys.exit(1)
if bad:
    sys.exit(1)
print("slices of one engine never overlap partially")
