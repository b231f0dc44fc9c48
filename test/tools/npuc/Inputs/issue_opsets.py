"""issue_opsets.py REPORT.json...: checks that every issue of the npuc
--report files that names a node carries a non-zero opset, equal to the
opset of that node's entry in "cases" when it has one. Prints
'issues N bad [...]', each bad one as (file, code, node, opset)."""
import json
import sys

n, bad = 0, []
for path in sys.argv[1:]:
    r = json.load(open(path))
    case_opsets = {c["node"]: c["opset"] for c in r["cases"]}
    for i in r["issues"]:
        n += 1
        if i["node"] and (i["opset"] <= 0 or i["opset"] != case_opsets.get(i["node"], i["opset"])):
            bad.append((path, i["code"], i["node"], i["opset"]))
print("issues", n, "bad", bad)
