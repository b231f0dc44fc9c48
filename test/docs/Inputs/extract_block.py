"""Prints the code block between <!-- NAME:begin --> and <!-- NAME:end --> of
a Markdown file (without its fences); exits 1 when there is none.

usage: extract_block.py FILE NAME"""
import re
import sys

path, name = sys.argv[1:3]
text = open(path).read()
m = re.search(r"<!-- %s:begin -->\s*```[a-z]*\n(.*?)```\s*<!-- %s:end -->" % (name, name), text, re.S)
if not m:
    sys.exit("%s: no block '%s'" % (path, name))
sys.stdout.write(m.group(1))
