# torch.testing.assert_close: PyTorch's comparison of tensors, Python numbers, None and booleans,
# nested in sequences and mappings, with its per-dtype default tolerances and its messages (the
# mismatch statistics, the failing item's path, the attribute checks).

import collections.abc
import math

import torch

_DTYPE_TOLERANCES = {  # dtype: (rtol, atol)
    torch.float16: (0.001, 1e-5),
    torch.bfloat16: (0.016, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
}
_NUMBER_DTYPES = {int: torch.int64, float: torch.float64}


class _Unsupported(Exception):
    # This kind of pair cannot compare these inputs: the next kind is tried.
    pass


class _Mismatch(Exception):
    # A failed comparison: the exception type and text the user gets, and where in the inputs.

    def __init__(self, error_type, message, path=()):
        super().__init__(message)
        self.error_type = error_type
        self.message = message
        self.path = path

    def to_error(self, msg=None):
        if isinstance(msg, str):
            return self.error_type(msg)
        text = self.message
        if self.path:
            text += "\n\nThe failure occurred for item " + "".join(str([item]) for item in self.path)
        return self.error_type(msg(text) if callable(msg) else text)


def _tolerances(dtypes, rtol, atol, path):
    if (rtol is None) != (atol is None):
        missing = "rtol" if rtol is None else "atol"
        raise _Mismatch(ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, "
                        f"but got no {missing}.", path)
    if rtol is not None:
        return rtol, atol
    pairs = [_DTYPE_TOLERANCES.get(dtype, (0.0, 0.0)) for dtype in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _mismatch_text(identifier, extra, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol):
    equality = rtol == 0 and atol == 0
    text = f"{identifier} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        text += extra.strip() + "\n"
    for kind, diff, idx, tol in (("absolute", abs_diff, abs_idx, atol), ("relative", rel_diff, rel_idx, rtol)):
        line = f"{kind.title()} difference: {diff}" if idx is None else f"Greatest {kind} difference: {diff} at index {idx}"
        if not equality:
            line += f" (up to {tol} allowed)"
        text += line + "\n"
    return text.strip()


def _scalar_mismatch(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_text("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None, atol, rel_diff, None,
                          rtol)


def _unravel(flat_index, shape):
    index = []
    for size in reversed(shape):
        flat_index, position = divmod(flat_index, size)
        index.append(position)
    return tuple(reversed(index))


def _tensor_mismatch(actual, expected, matches, rtol, atol):
    count = matches.numel()
    mismatched = count - int(torch.sum(matches))
    extra = f"Mismatched elements: {mismatched} / {count} ({mismatched / count:.1%})"
    actual_flat, expected_flat, matches_flat = actual.flatten(), expected.flatten(), matches.flatten()
    if not actual.dtype.is_floating_point:
        actual_flat, expected_flat = actual_flat.to(torch.int64), expected_flat.to(torch.int64)
    abs_diff = torch.abs(actual_flat - expected_flat)
    abs_diff[matches_flat] = 0
    max_abs, max_abs_at = torch.max(abs_diff, 0)
    rel_diff = abs_diff / torch.abs(expected_flat)
    rel_diff[matches_flat] = 0
    max_rel, max_rel_at = torch.max(rel_diff, 0)
    return _mismatch_text("Tensor-likes", extra, max_abs.item(), _unravel(int(max_abs_at), matches.shape), atol,
                          max_rel.item(), _unravel(int(max_rel_at), matches.shape), rtol)


# Each pair kind takes two leaves (or raises _Unsupported) and returns their comparison, run once
# every pair of the inputs has been made, as PyTorch first pairs everything and then compares.

def _none_pair(actual, expected, path, options):
    if actual is not None and expected is not None:
        raise _Unsupported

    def compare():
        if not (actual is None and expected is None):
            raise _Mismatch(AssertionError, f"None mismatch: {actual} is not {expected}", path)
    return compare


def _boolean_pair(actual, expected, path, options):
    if not (isinstance(actual, bool) and isinstance(expected, bool)):
        raise _Unsupported

    def compare():
        if actual is not expected:
            raise _Mismatch(AssertionError, f"Booleans mismatch: {actual} is not {expected}", path)
    return compare


def _number_pair(actual, expected, path, options):
    if not (isinstance(actual, (int, float)) and isinstance(expected, (int, float))):
        raise _Unsupported
    rtol, atol = _tolerances([_NUMBER_DTYPES[type(v)] for v in (actual, expected)], options["rtol"],
                             options["atol"], path)
    return lambda: _compare_numbers(actual, expected, rtol, atol, path, options)


def _compare_numbers(actual, expected, rtol, atol, path, options):
    if options["check_dtype"] and type(actual) is not type(expected):
        raise _Mismatch(AssertionError, f"The (d)types do not match: {type(actual)} != {type(expected)}.", path)
    if actual == expected:
        return
    if options["equal_nan"] and math.isnan(actual) and math.isnan(expected):
        return
    abs_diff = abs(actual - expected)
    if math.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    raise _Mismatch(AssertionError, _scalar_mismatch(actual, expected, rtol, atol), path)


def _as_tensor(value):
    if isinstance(value, torch.Tensor):
        return value
    try:
        return torch.as_tensor(value)
    except Exception:
        raise _Unsupported


def _tensor_like_pair(actual, expected, path, options):
    if not (isinstance(actual, type(expected)) or isinstance(expected, type(actual))):
        raise _Unsupported
    if not options["allow_subclasses"] and type(actual) is not type(expected):
        raise _Unsupported
    actual, expected = _as_tensor(actual), _as_tensor(expected)
    rtol, atol = _tolerances([actual.dtype, expected.dtype], options["rtol"], options["atol"], path)
    return lambda: _compare_tensors(actual, expected, rtol, atol, path, options)


def _compare_tensors(actual, expected, rtol, atol, path, options):
    def attribute_mismatch(name, mine, theirs):
        return _Mismatch(AssertionError, f"The values for attribute '{name}' do not match: {mine} != {theirs}.", path)

    if actual.shape != expected.shape:
        raise attribute_mismatch("shape", actual.shape, expected.shape)
    if options["check_stride"] and actual.stride() != expected.stride():
        raise attribute_mismatch("stride()", actual.stride(), expected.stride())
    if options["check_device"] and actual.device != expected.device:
        raise attribute_mismatch("device", actual.device, expected.device)
    if options["check_dtype"] and actual.dtype != expected.dtype:
        raise attribute_mismatch("dtype", actual.dtype, expected.dtype)
    if actual.dtype != expected.dtype:
        common = torch.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(common), expected.to(common)
    matches = torch.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=options["equal_nan"])
    if torch.all(matches):
        return
    if actual.shape == torch.Size([]):
        message = _scalar_mismatch(actual.item(), expected.item(), rtol, atol)
    else:
        message = _tensor_mismatch(actual, expected, matches, rtol, atol)
    raise _Mismatch(AssertionError, message, path)


_PAIR_KINDS = (_none_pair, _boolean_pair, _number_pair, _tensor_like_pair)


def _pairs(actual, expected, path, options):
    # Sequences and mappings are paired item by item; the first pair kind that takes two leaves
    # pairs them.
    def is_sequence(value):
        return isinstance(value, collections.abc.Sequence) and not isinstance(value, str)

    if is_sequence(actual) and is_sequence(expected):
        if len(actual) != len(expected):
            raise _Mismatch(AssertionError, f"The length of the sequences mismatch: {len(actual)} != {len(expected)}",
                            path)
        return [pair for i in range(len(actual)) for pair in _pairs(actual[i], expected[i], path + (i,), options)]
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        actual_keys, expected_keys = set(actual.keys()), set(expected.keys())
        if actual_keys != expected_keys:
            raise _Mismatch(AssertionError, "The keys of the mappings do not match:\n"
                            f"Missing keys in the actual mapping: {sorted(expected_keys - actual_keys)}\n"
                            f"Additional keys in the actual mapping: {sorted(actual_keys - expected_keys)}", path)
        try:
            keys = sorted(actual_keys)
        except Exception:
            keys = list(actual_keys)
        return [pair for key in keys for pair in _pairs(actual[key], expected[key], path + (key,), options)]
    for pair_kind in _PAIR_KINDS:
        try:
            return [pair_kind(actual, expected, path, options)]
        except _Unsupported:
            continue
    raise _Mismatch(TypeError,
                    f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}.", path)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False, check_device=True,
                 check_dtype=True, check_layout=True, check_stride=False, msg=None):
    options = {"allow_subclasses": allow_subclasses, "rtol": rtol, "atol": atol, "equal_nan": equal_nan,
               "check_device": check_device, "check_dtype": check_dtype, "check_stride": check_stride}
    try:
        for compare in _pairs(actual, expected, (), options):
            compare()
    except _Mismatch as mismatch:
        raise mismatch.to_error(msg) from None
