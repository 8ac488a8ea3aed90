# The Python half of `torch`; the native half (Tensor, dtypes, factories, ops of the table,
# autograd, RNG) is installed into this module by kiln before this code runs.


class no_grad:
    def __enter__(self):
        self.prev = is_grad_enabled()
        _set_grad_enabled(False)

    def __exit__(self, exc_type, exc_value, traceback):
        _set_grad_enabled(self.prev)
        return False

    def __call__(self, fn):
        def wrapper(*args, **kwargs):
            with no_grad():
                return fn(*args, **kwargs)
        return wrapper


class enable_grad(no_grad):
    def __enter__(self):
        self.prev = is_grad_enabled()
        _set_grad_enabled(True)


class set_grad_enabled(no_grad):
    def __init__(self, mode):
        self.prev = is_grad_enabled()
        self.mode = mode
        _set_grad_enabled(mode)

    def __enter__(self):
        _set_grad_enabled(self.mode)


class inference_mode(no_grad):
    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        self.prev = is_grad_enabled()
        _set_grad_enabled(not self.mode)


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,
            disable=False):
    if model is None:
        def decorate(model):
            if model is None:
                raise RuntimeError("Model can't be None")
            return compile(model, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode, options=options,
                           disable=disable)
        return decorate
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified at the same time.")
    if mode is None and options is None:
        mode = "default"
    if backend == "inductor":
        # The inductor checks its mode and options when torch.compile is called; other backends
        # receive them as they are.
        torch._inductor.list_mode_options(mode)
        torch._inductor.config._check_options(options)
    if disable:
        return model
    return torch._dynamo.optimize(model, backend=backend, fullgraph=fullgraph, dynamic=dynamic, mode=mode,
                                  options=options)


# Closeness as PyTorch defines it: equal values (infinities included), or |a - b| <= atol + rtol·|b|;
# NaNs only with equal_nan. The two tensors must have one dtype.
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    if input.dtype != other.dtype:
        raise RuntimeError(typename(input)[6:-6] + " did not match " + typename(other)[6:-6])
    close = (input == other).logical_or((input - other).abs() <= atol + rtol * other.abs())
    if equal_nan:
        close = close.logical_or(input.isnan().logical_and(other.isnan()))
    return close


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return isclose(input, other, rtol, atol, equal_nan).all().item()


# On input's device unless told otherwise, drawing from that device's generator.
def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return torch.randn(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return torch.rand(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def equal(input, other):
    return input.shape == other.shape and (input == other).all().item()


# torch.cond runs the branch the predicate picks (what it computes, eagerly).
import torch as _this_module  # the module being initialised: its attributes reach the table's ops

_einsum_of_list = _this_module.einsum  # the table's op: the operands as one list


def einsum(*args):
    # torch.functional.einsum: the operands as arguments (or one list of them) after the equation.
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], Tensor):
        raise NotImplementedError("kiln: einsum's sublist format (operand, subscripts, ...) is not implemented")
    equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    return _einsum_of_list(equation, list(operands))


def meshgrid(*tensors, indexing=None):
    # torch.functional.meshgrid: each 1-d input viewed along its own dim and expanded to the grid
    # (indexing "ij"); "xy" swaps the first two inputs, and the first two grids back.
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        import warnings
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.")
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", but received: ' + str(indexing))
    if len(tensors) == 0:
        raise RuntimeError("torch.meshgrid: Expected at least one tensor")
    for t in tensors:
        if t.dtype != tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        if t.dim() > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a tensor of "
                               f"{t.dim()} dims")
    swap = indexing == "xy" and len(tensors) >= 2
    ordered = [tensors[1], tensors[0], *tensors[2:]] if swap else list(tensors)
    shape = [t.numel() for t in ordered]
    grids = []
    for i, t in enumerate(ordered):
        view_shape = [1] * len(ordered)
        view_shape[i] = -1
        grids.append(t.view(view_shape).expand(shape))
    if swap:
        grids = [grids[1], grids[0], *grids[2:]]
    return tuple(grids)


def cond(pred, true_fn, false_fn, operands=()):
    if pred:
        return true_fn(*operands)
    return false_fn(*operands)


from torch._composites import (finfo, iinfo, floor, trunc, ceil, frac, narrow, unbind, movedim, roll, outer, sort, argsort,
                               msort, logsumexp, lerp, nan_to_num, count_nonzero, aminmax, std_mean, median, kthvalue,
                               diff, diag, trace, cdist, searchsorted, bucketize, nonzero, argwhere, unique, bincount,
                               masked_select, where, scatter, scatter_reduce, baddbmm, addbmm, addmv, index_put, any, all, index_fill, index_copy, bernoulli, normal,
                               broadcast_shapes, broadcast_tensors, _amp_update_scale_)
import torch._tensor
import torch.autograd
import torch.nn
import torch.linalg
import torch.utils
import torch._C
import torch.optim
import torch.compiler
import torch._dynamo
import torch._inductor
import torch._higher_order_ops
import torch.testing
import torch.distributions
import torch.special
from torch.serialization import save, load
import torch.amp
from torch.nn.transformer import _transformer_encoder_layer_fwd
import torch.cpu
import torch.cuda
import torch.distributed
from torch.amp import autocast
from torch.amp.autocast_mode import (clear_autocast_cache, get_autocast_cpu_dtype, get_autocast_dtype,
                                     is_autocast_cache_enabled, is_autocast_cpu_enabled, is_autocast_enabled,
                                     set_autocast_cache_enabled, set_autocast_dtype, set_autocast_enabled)

import collections.abc as _abc

_abc.Sequence.register(Size)  # a tuple subclass in PyTorch
