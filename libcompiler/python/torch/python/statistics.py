# statistics: mean, fmean, median (and _low/_high), mode, multimode, variance, stdev, pvariance,
# pstdev.  CPython computes with exact fractions; kiln has no fractions module and 64-bit ints, so
# integer data is summed exactly in ints and float data with math.fsum (a correctly rounded sum).
# Results for ordinary data match CPython; float results can differ in the last digit for
# ill-conditioned data.  As in CPython, mean and variance of all-int data are ints when exact.

import math


class StatisticsError(ValueError):
    pass


def _all_ints(data):
    return all(isinstance(x, int) for x in data)


def _divide(numerator, denominator, ints):
    # numerator / denominator, kept an int when the data were ints and it divides exactly.
    if ints and numerator % denominator == 0:
        return numerator // denominator
    return numerator / denominator


def _float_mean(data):
    # fsum(data) / n rounds twice; adding back the exactly summed residual, sum(data) - n * m,
    # over n gives the correctly rounded mean in all but borderline cases.
    n = len(data)
    m = math.fsum(data) / n
    return m + math.fsum(data + [-m] * n) / n


def mean(data):
    data = list(data)
    if not data:
        raise StatisticsError("mean requires at least one data point")
    if _all_ints(data):
        return _divide(sum(data), len(data), True)
    return _float_mean(data)


def fmean(data, weights=None):
    data = list(data)
    if weights is not None:
        weights = list(weights)
        if len(weights) != len(data):
            raise StatisticsError("data and weights must be the same length")
        total = math.fsum(weights)
        if not total:
            raise StatisticsError("sum of weights must be non-zero")
        return math.fsum(x * w for x, w in zip(data, weights)) / total
    if not data:
        raise StatisticsError("fmean requires at least one data point")
    return math.fsum(data) / len(data)


def _split(a):
    # a == high + low, each with at most 26 significant bits, so their products are exact.
    c = 134217729.0 * a
    high = c - (c - a)
    return high, a - high


def _product(a, b):
    # (p, e) with p + e == a * b exactly (Dekker's product).
    p = a * b
    a_high, a_low = _split(a)
    b_high, b_low = _split(b)
    return p, ((a_high * b_high - p) + a_high * b_low + a_low * b_high) + a_low * b_low


def _squared_deviations(data):
    # Float terms whose exact sum is the sum of squared deviations from the mean: each deviation
    # from the float mean m is split into its rounded value and rounding error, squares are
    # split exactly, and r / n, how far m is from the exact mean, corrects the total.
    n = len(data)
    m = _float_mean(data)
    terms = []
    for x in data:
        d = x - m
        back = d - x
        error = (x - (d - back)) + (-m - back)
        terms += list(_product(d, d)) + [2 * d * error]
    r = math.fsum(data + [-m] * n)
    terms.append(-r * r / n)
    return terms


def _quotient(terms, divisor):
    # sum(terms) / divisor, corrected by the exact remainder so it is (nearly always) the
    # correctly rounded quotient of the exact sum.
    q = math.fsum(terms) / divisor
    p, e = _product(q, float(divisor))
    return q + math.fsum(terms + [-p, -e]) / divisor


def _sqrt_of_quotient(terms, divisor):
    # sqrt(sum(terms) / divisor), with one Newton step on the exact residual.
    y = math.sqrt(_quotient(terms, divisor))
    if y == 0:
        return y
    p, e = _product(y, y)
    p1, p2 = _product(p, float(divisor))
    return y + math.fsum(terms + [-p1, -p2, -e * divisor]) / (2 * divisor * y)


def _int_ss(data):
    # n * sum((x - mean)^2) = n * sum(x^2) - sum(x)^2, exact in integers.
    total = sum(data)
    return len(data) * sum(x * x for x in data) - total * total


def variance(data, xbar=None):
    data = list(data)
    if len(data) < 2:
        raise StatisticsError("variance requires at least two data points")
    if _all_ints(data):
        return _divide(_int_ss(data), len(data) * (len(data) - 1), True)
    return _quotient(_squared_deviations(data), len(data) - 1)


def pvariance(data, mu=None):
    data = list(data)
    if not data:
        raise StatisticsError("pvariance requires at least one data point")
    if _all_ints(data):
        return _divide(_int_ss(data), len(data) * len(data), True)
    return _quotient(_squared_deviations(data), len(data))


def stdev(data, xbar=None):
    data = list(data)
    if len(data) < 2:
        raise StatisticsError("stdev requires at least two data points")
    if _all_ints(data):
        return _sqrt_of_quotient([float(_int_ss(data))], len(data) * (len(data) - 1))
    return _sqrt_of_quotient(_squared_deviations(data), len(data) - 1)


def pstdev(data, mu=None):
    data = list(data)
    if not data:
        raise StatisticsError("pstdev requires at least one data point")
    if _all_ints(data):
        return _sqrt_of_quotient([float(_int_ss(data))], len(data) * len(data))
    return _sqrt_of_quotient(_squared_deviations(data), len(data))


def median(data):
    data = sorted(data)
    n = len(data)
    if n == 0:
        raise StatisticsError("no median for empty data")
    if n % 2 == 1:
        return data[n // 2]
    return (data[n // 2 - 1] + data[n // 2]) / 2


def median_low(data):
    data = sorted(data)
    if not data:
        raise StatisticsError("no median for empty data")
    return data[(len(data) - 1) // 2]


def median_high(data):
    data = sorted(data)
    if not data:
        raise StatisticsError("no median for empty data")
    return data[len(data) // 2]


def _counts(data):
    counts = {}
    for x in data:
        counts[x] = counts.get(x, 0) + 1
    return counts


def mode(data):
    counts = _counts(data)
    if not counts:
        raise StatisticsError("no mode for empty data")
    best = max(counts.values())
    for value, count in counts.items():
        if count == best:
            return value


def multimode(data):
    counts = _counts(data)
    if not counts:
        return []
    best = max(counts.values())
    return [value for value, count in counts.items() if count == best]
