# -*- Python -*-
# lit configuration of npuc's regression tests.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "npuc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.npuc_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.npuc_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["npuc-opt", "npuc-translate", "npuc", "npuc-tblgen", "npuc-conformance", "npuc-zoo"], [config.npuc_tools_dir])

# Files npuc-tblgen generates from the ISA and target records.
config.substitutions.append(
    ("%npuc_gen", os.path.join(config.npuc_obj_root, "include", "npuc", "Base")))
config.substitutions.append(("%npuc_src", config.npuc_src_root))
config.substitutions.append(("%npuc_bin", config.npuc_tools_dir))
config.substitutions.append(("%python", config.python_executable))

# The shared model zoo (../shared/models), when present: tests that need it
# say `REQUIRES: zoo` and reach it as %zoo.
zoo = os.path.normpath(os.path.join(config.npuc_src_root, "..", "shared", "models"))
if os.path.isdir(zoo):
    config.available_features.add("zoo")
config.substitutions.append(("%zoo", zoo))
