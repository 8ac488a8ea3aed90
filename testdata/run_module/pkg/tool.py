import sys
print("tool", __name__, __package__, sys.argv[0].endswith("pkg/tool.py"), sys.argv[1:])
from . import helper
print(helper.VALUE)
