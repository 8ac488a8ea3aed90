# %-formatting: conversions and the TypeErrors CPython gives for wrong arguments.
for fmt, v in [("%d", "x"), ("%f", "x"), ("%x", 1.5), ("%c", 1.5), ("%c", "ab"), ("%d", None), ("%s %s", (1,)), ("%s", (1, 2)), ("%(a)s", 1), ("%d", 2.7), ("%i", True), ("%5.1f%%", 99.44), ("%-6s|", "ab"), ("%#x %#o", (255, 8)), ("%e", 0), ("%r", 1.0)]:
    try:
        print(repr(fmt % v))
    except Exception as e:
        print(type(e).__name__, e)
