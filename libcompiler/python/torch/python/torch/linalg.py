# torch.linalg: vector_norm composed of table ops (PyTorch's is one kernel, so a compiled graph
# records kiln's composition rather than torch.linalg.vector_norm; the values agree to rounding).
import math

import torch


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    if out is not None:
        raise NotImplementedError("kiln's torch.linalg.vector_norm does not take out=")
    if dtype is not None:
        x = x.to(dtype)
    if not x.is_floating_point():
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {x.dtype}")
    dims = [] if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    magnitude = x.abs()
    if ord == math.inf:
        return magnitude.amax(dims, keepdim)
    if ord == -math.inf:
        return magnitude.amin(dims, keepdim)
    if ord == 0:
        return (magnitude != 0).to(x.dtype).sum(dims, keepdim)
    if ord == 1:
        return magnitude.sum(dims, keepdim)
    if ord == 2:
        return (magnitude * magnitude).sum(dims, keepdim).sqrt()
    return (magnitude ** ord).sum(dims, keepdim) ** (1.0 / ord)
