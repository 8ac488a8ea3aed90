# math module functions and constants.
import math

print(math.pi, math.e, math.tau, math.inf, -math.inf)
print(math.sqrt(2), math.exp(1), math.log(100, 10), math.log(math.e), math.log2(8), math.log10(1000), math.log1p(1e-10))
print(math.sin(0.5), math.cos(0.5), math.tan(0.5), math.atan2(1, -1), math.asin(1), math.acos(0), math.atan(1))
print(math.floor(-2.5), math.ceil(-2.5), math.trunc(-2.5), math.floor(3), type(math.floor(2.5)).__name__, math.fabs(-3))
print(math.pow(2, 0.5), math.hypot(3, 4), math.factorial(20), math.gcd(12, 18), math.comb(10, 3), math.perm(5, 2), math.prod([1, 2, 3, 4]))
print(math.isfinite(1.0), math.isinf(math.inf), math.isnan(math.nan), math.isclose(1.0, 1.0 + 1e-10), math.fsum([0.1] * 10), sum([0.1] * 10))
print(math.degrees(math.pi), math.radians(180), math.tanh(0.5), math.sinh(1), math.cosh(1), math.erf(0.5), math.erfc(0.5))
print(math.modf(3.25), math.frexp(8.0), math.ldexp(0.5, 4), math.fmod(-7, 3), math.remainder(7, 3), math.copysign(2, -0.0), math.gamma(5))
print(math.isqrt(17), math.sqrt(16), math.exp(-1000), math.expm1(1e-10), math.dist((0, 0), (3, 4)))
try:
    math.sqrt(-1)
except ValueError as e:
    print("ValueError:", e)
try:
    math.log(0)
except ValueError as e:
    print("ValueError:", e)
