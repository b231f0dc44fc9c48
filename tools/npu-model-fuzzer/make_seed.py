#!/usr/bin/python3
"""Copies the seed model given as argv[1] into the corpus directory argv[2]."""
import os
import shutil
import sys

os.makedirs(sys.argv[2], exist_ok=True)
shutil.copy(sys.argv[1], os.path.join(sys.argv[2], "seed.bin"))
