# repr and str of floats: shortest round-trip digits, exponents, signed zero, inf and nan.
import math

print(0.1 + 0.2, 1e16, 1e15, 123456789012345678.0, 1e-4, 1e-5, 1.5e-7, 5e-324, 1.7976931348623157e308)
print(-0.0, 0.0, float("inf"), float("-inf"), float("nan"), -float("nan"), math.inf, math.nan)
print(repr(1.0), str(2.50), 100.0, 1e22, 1e21, 12345678901234567890.0, 0.3, 2 / 3, 10 / 4)
print([0.1, -0.0, 1e100], (1e-10,), {"x": 3.0})
print(float("  1.5  "), float("-1E3"), float("infinity"), float("-Infinity"), float(7), float(True))
print(1e16 == 10 ** 16, 0.1 + 0.2 == 0.3, math.isclose(0.1 + 0.2, 0.3), math.isnan(float("nan")), math.isinf(-math.inf))
print(float("nan") == float("nan"), math.inf > 1e308, -math.inf < -1e308, math.copysign(1.0, -0.0))
print(3.0 * 1.1, 1.1 + 2.2, 0.1 * 3, 1 / 7, 2 ** -1, 2.0 ** 100, 10.0 ** 20, 10.0 ** -20)
print(int(1e16), int(-2.5), int(2.9999), round(0.5), round(1.5), round(-0.5), round(2.5, 0), round(-2.675, 2))
print(abs(-0.0), abs(-3.5), -(-0.0), 0.0 * -1, 1.0 % -0.3, -7.5 // 2, 7.5 // -2, divmod(7.5, 2), divmod(-7, 2))
