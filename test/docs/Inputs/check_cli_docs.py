"""Compares each tool's --help with docs/cli.md and README.md: every option
--help lists is documented in the tool's section of docs/cli.md, every option
that section's synopsis or option table names exists, and every option a
README command line gives its tool exists.

usage: check_cli_docs.py BINDIR SRCDIR
Prints one line per tool; exits 1 listing every difference."""
import os
import re
import subprocess
import sys

bindir, src = sys.argv[1:3]
TOOLS = ["npuc", "npu-sim", "npu-objdump", "npuc-conformance", "npuc-zoo"]
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])")


def help_options(tool):
    text = subprocess.run([os.path.join(bindir, tool), "--help"], capture_output=True,
                          text=True, check=True).stdout
    opts = set()
    for line in text.split("Options:", 1)[1].splitlines():
        m = re.match(r"\s+(-[^\s]+)", line)
        if m:
            opts.update(o for o in m.group(1).split(",") if o.startswith("-"))
    return opts - {"-h", "--help"}


def section(doc, tool):
    m = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(tool), doc, re.S | re.M)
    return m.group(1) if m else ""


def declared(sec):
    """Options the synopsis (the first code block) and the option table name."""
    opts = set()
    block = re.search(r"```\n(.*?)```", sec, re.S)
    if block:
        opts.update(OPTION.findall(block.group(1)))
    for row in re.findall(r"^\| `([^|]*)` \|", sec, re.M):
        opts.update(OPTION.findall(row))
    return opts


doc = open(os.path.join(src, "docs", "cli.md")).read()
readme = open(os.path.join(src, "README.md")).read()
readme_code = "\n".join(re.findall(r"```(?:sh|bash|console)?\n(.*?)```", readme, re.S))
problems = []
for tool in TOOLS:
    have = help_options(tool)
    sec = section(doc, tool)
    if not sec:
        problems.append("docs/cli.md has no section '## %s'" % tool)
        continue
    mentioned = set(OPTION.findall(sec))
    for o in sorted(have - mentioned):
        problems.append("%s %s: in --help, not in docs/cli.md" % (tool, o))
    for o in sorted(declared(sec) - have - {"-h", "--help"}):
        problems.append("%s %s: in docs/cli.md's synopsis or table, not in --help" % (tool, o))
    used = set()
    for line in readme_code.splitlines():
        words = line.replace("\\", " ").split()
        for i, w in enumerate(words):
            if os.path.basename(w) == tool:
                # The tool's own arguments, up to a pipe, redirection or ';'.
                for a in words[i + 1:]:
                    if a in ("|", "&&", ";", ">", "2>", "||") or a.startswith(">"):
                        break
                    if OPTION.fullmatch(a.split("=", 1)[0]):
                        used.add(a.split("=", 1)[0])
    for o in sorted(used - have):
        problems.append("%s %s: used in README.md, not in --help" % (tool, o))
    print("%s: %d options in --help, documented in docs/cli.md; README uses %d of them"
          % (tool, len(have), len(used & have)))
for p in problems:
    print("error: " + p)
sys.exit(1 if problems else 0)
