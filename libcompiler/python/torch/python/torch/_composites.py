# torch functions that ATen implements with kernels of their own, composed here from the op table
# with the same arithmetic where it matters for the printed values (floor through division by one,
# logsumexp's shifted sum, lerp's two-sided formula); data-dependent ones (nonzero, unique,
# bincount) through boolean-mask indexing and index_add. Their grad_fn names are those of the pieces.
import collections
import math

import torch
from torch.amp.autocast_mode import _float32_under_autocast


def _return_type(name, fields):
    # A torch.return_types.<name> tuple: fields by name and position, printed as PyTorch prints it.
    base = collections.namedtuple(name, fields)

    class ReturnType(base):
        def __repr__(self):
            items = ",\n".join(f"{field}={getattr(self, field)!r}" for field in fields)
            return f"torch.return_types.{name}(\n{items})"

    ReturnType.__name__ = name
    return ReturnType


_sort_result = _return_type("sort", ["values", "indices"])
_aminmax_result = _return_type("aminmax", ["min", "max"])
_median_result = _return_type("median", ["values", "indices"])
_kthvalue_result = _return_type("kthvalue", ["values", "indices"])


class finfo:
    _TABLE = {  # dtype: (bits, eps, max, smallest_normal, resolution)
        torch.float32: (32, 1.1920928955078125e-07, 3.4028234663852886e+38, 1.1754943508222875e-38, 1e-06),
        torch.float64: (64, 2.220446049250313e-16, 1.7976931348623157e+308, 2.2250738585072014e-308, 1e-15),
        torch.float16: (16, 0.0009765625, 65504.0, 6.103515625e-05, 0.001),
        torch.bfloat16: (16, 0.0078125, 3.3895313892515355e+38, 1.1754943508222875e-38, 0.01),
    }

    def __init__(self, type=None):
        type = torch.get_default_dtype() if type is None else type
        if type not in finfo._TABLE:
            raise TypeError(f"finfo() requires a floating point input type. Use iinfo to handle '{type}'")
        self.dtype = str(type).replace("torch.", "")
        self.bits, self.eps, self.max, self.smallest_normal, self.resolution = finfo._TABLE[type]
        self.min = -self.max
        self.tiny = self.smallest_normal

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    _TABLE = {torch.uint8: (8, 0, 255), torch.int8: (8, -128, 127), torch.int16: (16, -32768, 32767),
              torch.int32: (32, -2147483648, 2147483647), torch.int64: (64, -9223372036854775807 - 1, 9223372036854775807),
              torch.bool: (8, 0, 1)}

    def __init__(self, type):
        if type not in iinfo._TABLE:
            raise TypeError(f"iinfo() requires an integer input type. Use finfo to handle '{type}'")
        self.dtype = str(type).replace("torch.", "")
        self.bits, self.min, self.max = iinfo._TABLE[type]

    def __repr__(self):
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"


def floor(input):
    return torch.where(torch.isfinite(input), torch.div(input, 1, rounding_mode="floor"), input)


def trunc(input):
    return torch.where(torch.isfinite(input), torch.div(input, 1, rounding_mode="trunc"), input)


def ceil(input):
    return -floor(-input)


def frac(input):
    return input - trunc(input)


def narrow(input, dim, start, length):
    dim = dim + input.dim() if dim < 0 else dim
    start = start + input.size(dim) if start < 0 else start
    index = [slice(None)] * dim + [slice(start, start + length)]
    return input[tuple(index)]


def unbind(input, dim=0):
    # The slices along dim, each a view; ATen's unbind is select at every index (its grad_fn is
    # UnbindBackward0, kiln's each slice's SelectBackward0).
    return tuple(input.select(dim, i) for i in range(input.size(dim)))


def movedim(input, source, destination):
    sources = [source] if isinstance(source, int) else list(source)
    destinations = [destination] if isinstance(destination, int) else list(destination)
    n = input.dim()
    sources = [s + n if s < 0 else s for s in sources]
    destinations = [d + n if d < 0 else d for d in destinations]
    order = [None] * n
    for s, d in zip(sources, destinations):
        order[d] = s
    rest = iter(d for d in range(n) if d not in sources)
    return input.permute([o if o is not None else next(rest) for o in order])


def roll(input, shifts, dims=None):
    if dims is None:
        return roll(input.flatten(), shifts, 0).view(input.shape)
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    dims = [dims] if isinstance(dims, int) else list(dims)
    out = input
    for shift, dim in zip(shifts, dims):
        size = out.size(dim)
        if size == 0:
            continue
        shift %= size
        if shift:
            out = torch.cat([narrow(out, dim, size - shift, shift), narrow(out, dim, 0, size - shift)], dim)
    return out


def outer(input, vec2):
    return input.unsqueeze(-1) * vec2.unsqueeze(0)


def sort(input, dim=-1, descending=False, stable=False):
    values, indices = torch.topk(input, input.size(dim) if input.dim() else 1, dim, largest=descending, sorted=True)
    return _sort_result(values, indices)


def argsort(input, dim=-1, descending=False, stable=False):
    return sort(input, dim, descending, stable).indices


def msort(input):
    return sort(input, 0).values


def logsumexp(input, dim, keepdim=False):
    with _float32_under_autocast(("cuda",), input) as (input,):
        dims = [dim] if isinstance(dim, int) else list(dim)
        maxes = torch.amax(input, dims, True)
        maxes = torch.where(maxes.abs() == math.inf, torch.zeros_like(maxes), maxes)
        result = torch.log(torch.sum(torch.exp(input - maxes), dims, keepdim))
        if not keepdim:
            for d in sorted((d + input.dim() if d < 0 else d for d in dims), reverse=True):
                maxes = maxes.squeeze(d)
        return result + maxes


def lerp(input, end, weight):
    difference = end - input
    if isinstance(weight, torch.Tensor):
        return torch.where(weight.abs() < 0.5, input + weight * difference, end - difference * (1 - weight))
    return input + weight * difference if abs(weight) < 0.5 else end - difference * (1 - weight)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    if not input.is_floating_point():
        return input.clone()
    info = finfo(input.dtype)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    out = torch.where(torch.isnan(input), torch.full_like(input, nan), input)
    out = torch.where(out == math.inf, torch.full_like(input, posinf), out)
    return torch.where(out == -math.inf, torch.full_like(input, neginf), out)


def count_nonzero(input, dim=None):
    return (input != 0).sum() if dim is None else (input != 0).sum(dim)


def aminmax(input, *, dim=None, keepdim=False):
    if dim is None:
        return _aminmax_result(torch.amin(input), torch.amax(input))
    return _aminmax_result(torch.amin(input, dim, keepdim), torch.amax(input, dim, keepdim))


def std_mean(input, dim=None, *, correction=1, keepdim=False):
    var, mean = torch.var_mean(input, dim, correction=correction, keepdim=keepdim)
    return torch.sqrt(var), mean


def median(input, dim=None, keepdim=False):
    if dim is None:
        flat = input.flatten()
        return sort(flat).values[(flat.numel() - 1) // 2]
    values, indices = sort(input, dim)
    k = (input.size(dim) - 1) // 2
    pick = narrow(values, dim, k, 1), narrow(indices, dim, k, 1)
    if not keepdim:
        pick = pick[0].squeeze(dim), pick[1].squeeze(dim)
    return _median_result(*pick)


def kthvalue(input, k, dim=-1, keepdim=False):
    values, indices = sort(input, dim)
    pick = narrow(values, dim, k - 1, 1), narrow(indices, dim, k - 1, 1)
    if not keepdim:
        pick = pick[0].squeeze(dim), pick[1].squeeze(dim)
    return _kthvalue_result(*pick)


def diff(input, n=1, dim=-1, prepend=None, append=None):
    if prepend is not None:
        input = torch.cat([prepend, input], dim)
    if append is not None:
        input = torch.cat([input, append], dim)
    for _ in range(n):
        size = input.size(dim)
        input = narrow(input, dim, 1, size - 1) - narrow(input, dim, 0, size - 1)
    return input


def diag(input, diagonal=0):
    if input.dim() == 1:
        n = input.numel() + abs(diagonal)
        rows = torch.arange(input.numel()) + max(-diagonal, 0)
        return torch.zeros(n * n, dtype=input.dtype).index_add(0, rows * n + rows + diagonal, input).view(n, n)
    if input.dim() != 2:
        raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + str(input.dim()) + "D")
    rows, cols = input.shape
    length = max(0, min(rows + min(diagonal, 0), cols - max(diagonal, 0)))
    start_row, start_col = max(-diagonal, 0), max(diagonal, 0)
    index = torch.arange(length)
    return input[index + start_row, index + start_col]


def trace(input):
    if input.dim() != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim " + str(input.dim()))
    with _float32_under_autocast(("cpu",), input) as (input,):
        return diag(input).sum()


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    with _float32_under_autocast(("cpu", "cuda"), x1, x2) as (x1, x2):
        difference = (x1.unsqueeze(-2) - x2.unsqueeze(-3)).abs()
        if p == 0:
            return (difference != 0).sum(-1).to(x1.dtype)
        if p == math.inf:
            return difference.amax(-1)
        if p == 1:
            return difference.sum(-1)
        if p == 2:
            return (difference * difference).sum(-1).sqrt()
        return (difference ** p).sum(-1) ** (1.0 / p)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    if side is not None:
        right = side == "right"
    if sorter is not None:
        sorted_sequence = sorted_sequence.gather(-1, sorter)
    scalar = not isinstance(input, torch.Tensor)
    values = torch.tensor(input) if scalar else input
    expanded = values.unsqueeze(-1)
    below = sorted_sequence.unsqueeze(-2) <= expanded if right else sorted_sequence.unsqueeze(-2) < expanded
    if sorted_sequence.dim() == 1:
        below = sorted_sequence <= expanded if right else sorted_sequence < expanded
    result = below.sum(-1)
    return result.to(torch.int32) if out_int32 else result


def bucketize(input, boundaries, *, out_int32=False, right=False):
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


def nonzero(input, *, as_tuple=False):
    mask = input != 0
    columns = []
    for dim in range(input.dim()):
        shape = [1] * input.dim()
        shape[dim] = -1
        columns.append(torch.arange(input.size(dim)).view(shape).expand(input.shape)[mask])
    if as_tuple:
        return tuple(columns) if columns else (torch.zeros(int(mask.item()), dtype=torch.int64),)
    if not columns:
        return torch.zeros(int(mask.item()), 0, dtype=torch.int64)
    return torch.stack(columns, 1)


def argwhere(input):
    return nonzero(input)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    if dim is not None:
        raise NotImplementedError("kiln's torch.unique does not implement dim=")
    flat = input.flatten()
    values, order = sort(flat)
    if flat.numel() == 0:
        starts = torch.zeros(0, dtype=torch.bool)
    else:
        starts = torch.cat([torch.ones(1, dtype=torch.bool), values[1:] != values[:-1]])
    result = [values[starts]]
    group = torch.cumsum(starts.to(torch.int64), 0) - 1
    if return_inverse:
        inverse = torch.zeros(flat.numel(), dtype=torch.int64).index_add(0, order, group)
        result.append(inverse.view(input.shape))
    if return_counts:
        counts = torch.zeros(int(starts.sum()), dtype=torch.int64).index_add(0, group, torch.ones_like(group))
        result.append(counts)
    return result[0] if len(result) == 1 else tuple(result)


def bincount(input, weights=None, minlength=0):
    if input.dim() != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if input.numel() and int(input.min()) < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    length = max(minlength, int(input.max()) + 1 if input.numel() else 0)
    if weights is None:
        return torch.zeros(length, dtype=torch.int64).index_add(0, input, torch.ones_like(input))
    dtype = weights.dtype if weights.is_floating_point() else torch.float64
    return torch.zeros(length, dtype=dtype).index_add(0, input, weights.to(dtype))


def broadcast_shapes(*shapes):
    from torch.nn.functional import _broadcast_shape
    result = []
    for i, shape in enumerate(shapes):
        shape = [shape] if isinstance(shape, int) else list(shape)
        try:
            result = _broadcast_shape(result, shape)
        except RuntimeError:
            raise RuntimeError("Shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
                               f"arg {max(i - 1, 0)} and arg {i}.") from None
    return torch.Size(result)


def broadcast_tensors(*tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = broadcast_shapes(*[t.shape for t in tensors])
    return tuple(t if t.shape == shape else t.expand(shape) for t in tensors)


_bernoulli = torch.bernoulli


def bernoulli(input, p=None, *, generator=None):
    # bernoulli(input): input holds the probabilities; each draw is one uniform of input's dtype
    # compared with them, which is how ATen's CPU kernel draws too.
    if p is not None:
        return _bernoulli(input, p)
    return (torch.rand(input.shape, dtype=input.dtype) < input).to(input.dtype)


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None):
    # ATen: a standard normal sample of the broadcast shape, then scaled by std and shifted by mean.
    if not isinstance(mean, torch.Tensor) and not isinstance(std, torch.Tensor):
        return torch.empty(size, dtype=dtype).normal_(mean, std)
    shape = torch.broadcast_shapes(*[t.shape for t in (mean, std) if isinstance(t, torch.Tensor)])
    like = mean if isinstance(mean, torch.Tensor) else std
    return torch.empty(shape, dtype=like.dtype).normal_(0.0, 1.0).mul(std).add(mean)


_where = torch.where


def where(condition, input=None, other=None):
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    return _where(condition, input, other)


def _written(self, dim, index):
    # Where scatter writes: a boolean mask of self's shape.
    return torch.zeros(self.shape, dtype=torch.bool).scatter(dim, index, True)


def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    if src is None:
        src = value
    if reduce is not None:
        if reduce not in ("add", "multiply"):
            raise RuntimeError("reduce argument must be either add or multiply.")
        if not isinstance(src, torch.Tensor):
            src = torch.full(index.shape, src, dtype=input.dtype)
        return scatter_reduce(input, dim, index, src, "sum" if reduce == "add" else "prod")
    if not isinstance(src, torch.Tensor):
        return _scatter_value(input, dim, index, src)
    return torch.where(_written(input, dim, index), torch.zeros_like(input), input).scatter_add(dim, index, src)


_SCATTER_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


def _scatter_reduce_dense(input, dim, index, src, reduce, include_self):
    # prod, amax and amin have no scatter kernel: each target slot k reduces the sources whose index
    # is k, over a (..., K, M) comparison of the index (moved last) with every slot (moved last).
    slots = input.size(dim)
    index_last = index.movedim(dim, -1)
    src_last = src
    for d in range(src.dim()):
        src_last = src_last.narrow(d, 0, index.size(d))
    src_last = src_last.movedim(dim, -1)
    hits = index_last.unsqueeze(-2) == torch.arange(slots).view(slots, 1)
    neutral = {"prod": 1, "amax": -math.inf, "amin": math.inf}[reduce]
    if not input.dtype.is_floating_point and reduce != "prod":
        neutral = iinfo(input.dtype).min if reduce == "amax" else iinfo(input.dtype).max
    candidates = torch.where(hits, src_last.unsqueeze(-2), torch.full((), neutral, dtype=input.dtype))
    reduced = {"prod": lambda t: t.prod(-1), "amax": lambda t: t.amax(-1), "amin": lambda t: t.amin(-1)}[reduce](candidates)
    target = input
    for d in range(input.dim()):
        if d != dim:
            target = target.narrow(d, 0, index.size(d))
    target = target.movedim(dim, -1)
    if include_self:
        combined = {"prod": torch.mul, "amax": torch.maximum, "amin": torch.minimum}[reduce](reduced, target)
    else:
        combined = reduced
    updated = torch.where(hits.any(-1), combined, target).movedim(-1, dim)
    out = input.clone()
    region = out
    for d in range(input.dim()):
        if d != dim:
            region = region.narrow(d, 0, index.size(d))
    region.copy_(updated)
    return out


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    if reduce not in _SCATTER_REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    dim = dim + input.dim() if dim < 0 else dim
    if reduce in ("sum", "mean"):
        base = input if include_self else torch.where(_written(input, dim, index), torch.zeros_like(input), input)
        total = base.scatter_add(dim, index, src)
        if reduce == "sum":
            return total
        counts = torch.ones_like(input) if include_self else torch.zeros_like(input)
        counts = counts.scatter_add(dim, index, torch.ones_like(src))
        counts = torch.where(counts == 0, torch.ones_like(counts), counts)
        if input.dtype.is_floating_point:
            return total / counts
        return torch.div(total, counts, rounding_mode="floor")
    return _scatter_reduce_dense(input, dim, index, src, reduce, include_self)


_any_of_all = torch.any
_all_of_all = torch.all


def _reduce_bool(full, input, dim, keepdim, test):
    if dim is None:
        return full(input)
    return test((input != 0).sum(dim, keepdim=keepdim))


def any(input, dim=None, keepdim=False):
    return _reduce_bool(_any_of_all, input, dim, keepdim, lambda set_count: set_count > 0)


def all(input, dim=None, keepdim=False):
    size = 1
    for d in ([dim] if isinstance(dim, int) else (dim or [])):
        size *= input.size(d)
    return _reduce_bool(_all_of_all, input, dim, keepdim, lambda set_count: set_count == size)


def _scaled_sum(input, product, beta, alpha):
    # beta * input + alpha * product, the scalings skipped where they are one (and input where
    # beta is zero), as the BLAS-backed ops do.
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return product
    return (input if beta == 1 else input * beta) + product


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    return _scaled_sum(input, torch.bmm(batch1, batch2), beta, alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    return _scaled_sum(input, torch.bmm(batch1, batch2).sum(0), beta, alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    return _scaled_sum(input, torch.mv(mat, vec), beta, alpha)


def index_put(input, indices, values, accumulate=False):
    return input.clone().index_put_(indices, values, accumulate)


_scatter_value = torch.scatter


def index_fill(input, dim, index, value):
    dim = dim + input.dim() if dim < 0 else dim
    shape = [1] * input.dim()
    shape[dim] = -1
    mask = torch.zeros(input.size(dim), dtype=torch.int64).index_add(0, index, torch.ones_like(index)) > 0
    return torch.where(mask.view(shape), torch.full_like(input, value) if not isinstance(value, torch.Tensor) else value,
                       input)


def index_copy(input, dim, index, source):
    dim = dim + input.dim() if dim < 0 else dim
    shape = [1] * source.dim()
    shape[dim] = -1
    expanded = index.view(shape).expand(source.shape)
    return scatter(input, dim, expanded, source)


def masked_select(input, mask):
    shape = broadcast_shapes(input.shape, mask.shape)
    return input.expand(shape)[mask.expand(shape)]


__all__ = ["finfo", "iinfo", "floor", "trunc", "ceil", "frac", "narrow", "movedim", "roll", "outer", "sort", "argsort",
           "msort", "logsumexp", "lerp", "nan_to_num", "count_nonzero", "aminmax", "std_mean", "median", "kthvalue",
           "diff", "diag", "trace", "cdist", "searchsorted", "bucketize", "nonzero", "argwhere", "unique", "bincount",
           "masked_select", "where", "scatter", "scatter_reduce", "baddbmm", "addbmm", "addmv", "index_put", "any", "all", "index_fill", "index_copy", "bernoulli", "normal", "broadcast_shapes", "broadcast_tensors"]


def _amp_update_scale_(scale, growth_tracker, found_inf, scale_growth_factor, scale_backoff_factor, growth_interval):
    # A step that found an inf backs the scale off and restarts the count of good steps; the
    # growth_interval-th good step in a row grows it (unless that would make it inf).
    found = found_inf > 0
    successful = growth_tracker + 1
    grown = scale * scale_growth_factor
    grow = (~found) & (successful == growth_interval) & torch.isfinite(grown)
    new_scale = torch.where(found, scale * scale_backoff_factor, torch.where(grow, grown, scale))
    growth_tracker.copy_(torch.where(found | (successful == growth_interval), torch.zeros_like(successful), successful))
    scale.copy_(new_scale)
    return scale
