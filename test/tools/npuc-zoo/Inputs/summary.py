"""Prints an npuc-zoo JSON summary one model a line, sorted: name, status,
cache, the first diagnostic code of a failure, and whether the recorded
SHA-256 is the output file's; then the totals."""
import hashlib
import json
import sys

d = json.load(open(sys.argv[1]))
for m in sorted(d["models"], key=lambda m: m["name"]):
    words = [m["name"], m["status"], m["cache"]]
    if m["status"] == "ok":
        digest = hashlib.sha256(open(m["output"], "rb").read()).hexdigest()
        words.append("digest-ok" if digest == m["sha256"] else "digest-WRONG")
    else:
        words.append(m["diagnostics"][0]["code"] if m["diagnostics"] else "no-diagnostic")
    print(" ".join(words))
print("total %d compiled %d failed %d hits %d" % (d["total"], d["compiled"], d["failed"], d["cache_hits"]))
