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


def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return torch.randn(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return torch.rand(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def equal(input, other):
    return input.shape == other.shape and (input == other).all().item()


# torch.cond runs the branch the predicate picks (what it computes, eagerly).
def cond(pred, true_fn, false_fn, operands=()):
    if pred:
        return true_fn(*operands)
    return false_fn(*operands)


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
