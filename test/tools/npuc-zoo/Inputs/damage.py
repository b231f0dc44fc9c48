"""Damages the cache entry of one model of an npuc-zoo summary: flips a
byte in the middle of its .bin, or truncates it by one byte."""
import json
import os
import sys

cache, summary, name, how = sys.argv[1:5]
key = next(m["key"] for m in json.load(open(summary))["models"] if m["name"] == name)
path = os.path.join(cache, key[:2], key + ".bin")
data = bytearray(open(path, "rb").read())
if how == "flip":
    data[len(data) // 2] ^= 0x40
else:
    del data[-1]
open(path, "wb").write(bytes(data))
