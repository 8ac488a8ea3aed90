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


# Until graph capture lands, torch.compile gives back what it was given, so scripts run eagerly.
def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,
            disable=False):
    if model is None:
        def decorate(fn):
            return fn
        return decorate
    return model


# torch.cond runs the branch the predicate picks (what it computes, eagerly).
def cond(pred, true_fn, false_fn, operands=()):
    if pred:
        return true_fn(*operands)
    return false_fn(*operands)


import torch.nn
import torch.optim
import torch.compiler
import torch._dynamo
import torch._inductor
