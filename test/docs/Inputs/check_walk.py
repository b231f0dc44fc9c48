"""Checks docs/adding-an-operator.md against the source tree:

- every repository path it names (include/, lib/, scripts/, test/, tools/,
  docs/, unittests/, examples/, benchmarks/) exists;
- each row of the walk table names an existing file that holds every symbol
  of the row's "symbols" column;
- every code block marked `<!-- quoted from PATH -->` is in PATH, line for
  line (leading and trailing blanks aside, consecutive);
- "touches **N files**: A edited by hand and B regenerated" and the minimum
  "is **M files**: ... by hand, ... regenerated" are the table's counts.

Prints a summary; prints every problem as "error: ..." and exits 1 if any.

usage: check_walk.py DOC ROOT"""
import os
import re
import sys

doc_path, root = sys.argv[1:3]
text = open(doc_path).read()
errors = []


def source(path):
    full = os.path.join(root, path)
    if not os.path.isfile(full):
        return None
    return open(full, errors="replace").read()


# Every repository path the page names.
TOPS = "include|lib|scripts|test|tools|docs|unittests|examples|benchmarks"
paths = set()
for m in re.finditer(r"(?<![\w./-])((?:%s)/[\w./+-]*[\w+-])" % TOPS, text):
    paths.add(m.group(1))
for p in sorted(paths):
    if not os.path.exists(os.path.join(root, p)):
        errors.append("%s names %s, which does not exist" % (os.path.basename(doc_path), p))

# The walk table: | # | file | symbols | what | checked by |
rows = []
for line in text.splitlines():
    m = re.match(r"^\|\s*(\d+)\s*\|(.*)\|\s*$", line)
    if not m:
        continue
    cells = [c.strip() for c in m.group(2).split("|")]
    if len(cells) != 4:
        errors.append("walk row %s has %d columns, not 5" % (m.group(1), len(cells) + 1))
        continue
    files = re.findall(r"`([^`]+)`", cells[0])
    symbols = re.findall(r"`([^`]+)`", cells[1])
    rows.append((int(m.group(1)), files[0] if files else "", symbols, cells[2]))
if [r[0] for r in rows] != list(range(1, len(rows) + 1)):
    errors.append("walk rows are not numbered 1..%d" % len(rows))
for n, path, symbols, _ in rows:
    body = source(path)
    if body is None:
        errors.append("walk step %d: file %s does not exist" % (n, path or "(none)"))
        continue
    for sym in symbols:
        if sym not in body:
            errors.append("walk step %d: %s does not hold %s" % (n, path, sym))

# The counts the page states.
regenerated = [r for r in rows if r[3].startswith("regenerated")]
m = re.search(r"touches \*\*(\d+) files\*\*: (\d+) edited by hand and (\d+) regenerated", text)
if not m:
    errors.append("no 'touches **N files**: A edited by hand and B regenerated' sentence")
elif (int(m.group(1)), int(m.group(2)), int(m.group(3))) != (
        len(rows), len(rows) - len(regenerated), len(regenerated)):
    errors.append("the page says %s files (%s by hand, %s regenerated); the table has %d (%d, %d)"
                  % (m.group(1), m.group(2), m.group(3), len(rows), len(rows) - len(regenerated),
                     len(regenerated)))
m = re.search(r"is \*\*(\d+) files\*\*: ([\d,\sand]+?) by hand, ([\d,\sand]+?) regenerated", text)
minimum = None
if not m:
    errors.append("no minimum 'is **M files**: ... by hand, ... regenerated' sentence")
else:
    hand = [int(x) for x in re.findall(r"\d+", m.group(2))]
    regen = [int(x) for x in re.findall(r"\d+", m.group(3))]
    minimum = int(m.group(1))
    if len(hand) + len(regen) != minimum:
        errors.append("the minimum says %d files but lists %d" % (minimum, len(hand) + len(regen)))
    regen_rows = {r[0] for r in regenerated}
    for x in hand + regen:
        if x < 1 or x > len(rows):
            errors.append("the minimum names step %d, which the table lacks" % x)
    for x in regen:
        if x not in regen_rows:
            errors.append("the minimum counts step %d as regenerated; the table does not" % x)
    for x in hand:
        if x in regen_rows:
            errors.append("the minimum counts step %d as by hand; the table says regenerated" % x)

# Quoted code.
quotes = 0
for m in re.finditer(r"<!-- quoted from (\S+) -->\s*```[a-z]*\n(.*?)```", text, re.S):
    quotes += 1
    path, block = m.group(1), m.group(2)
    body = source(path)
    if body is None:
        errors.append("code quoted from %s, which does not exist" % path)
        continue
    want = [l.strip() for l in block.splitlines() if l.strip()]
    have = [l.strip() for l in body.splitlines()]
    found = any(have[i:i + len(want)] == want for i in range(len(have) - len(want) + 1))
    if not found:
        errors.append("the code quoted from %s is not in it (first line: %s)" % (path, want[0]))

for e in errors:
    print("error: " + e)
print("walk: %d files (%d by hand, %d regenerated), minimum %s; %d paths named; %d quotes; %d problems"
      % (len(rows), len(rows) - len(regenerated), len(regenerated), minimum, len(paths), quotes,
         len(errors)))
sys.exit(1 if errors else 0)
