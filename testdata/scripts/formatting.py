# Printing values and f-string format specs as CPython does.
import math
print(0.1, 1e16, 1e-5, 123456789.0, -0.0, float("inf"), 1 / 3, 2.0 ** 0.5)
print(f"{math.pi:.4f}|{math.e:e}|{1234.5:.2e}|{0.000123:g}|{42:>6}|{42:<6}|{42:^6}|{-3:+d}")
print(f"{'x':*^7}|{3.14159:8.3f}|{255:x}|{255:#b}|{1234567.891:,.2f}|{0.25:.1%}|{7:03d}")
print("%s=%.3f %d%%" % ("loss", 0.123456, 50), "{} {:.2f} {name}".format(1, 2.5, name="n"))
print(repr("it's"), repr('say "hi"'), str(None), [None, True, 1.5, "a"], (1,), {"k": (1, 2)})
print(round(2.5), round(-1.5), round(1.2345, 3), round(2.675, 2), int("42"), float("1e3"), int(-3.9))
print(sep="-", *["a", "b", "c"], end="!\n")
