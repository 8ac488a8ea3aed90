#!/usr/bin/env python3
"""Writes good/<name>.dump: CPython's ast.dump(include_attributes=True) of good/<name>.py.

Kiln's parser must print the same text for the same file (tests/libcompiler/python). Run with
CPython 3.11 after changing a script in good/; the tests themselves need no Python.
"""
import ast
import glob
import os

here = os.path.dirname(os.path.abspath(__file__))
for script in sorted(glob.glob(os.path.join(here, "good", "*.py"))):
    with open(script, encoding="utf-8") as f:
        tree = ast.parse(f.read(), script)
    with open(script[:-3] + ".dump", "w", encoding="utf-8") as f:
        f.write(ast.dump(tree, include_attributes=True) + "\n")
    print("wrote", os.path.relpath(script[:-3] + ".dump", here))
