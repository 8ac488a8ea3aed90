import sys
print("main", __name__, __package__, sys.argv[0].endswith("pkg/__main__.py"), sys.argv[1:])
