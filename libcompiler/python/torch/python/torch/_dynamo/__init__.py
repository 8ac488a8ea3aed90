# torch._dynamo: torch.compile's capture stage, implemented natively (torch._dynamo._kiln), with
# its configuration, exceptions and explain().
import torch
import torch._dynamo.config as config
import torch._dynamo.exc as exc
import torch._dynamo._kiln as _kiln
import torch._dynamo.utils as utils


class OptimizedModule:
    # What torch.compile(module) returns: calls run compiled; attributes are the module's.
    def __init__(self, mod, compiled_call):
        object.__setattr__(self, "_orig_mod", mod)
        object.__setattr__(self, "_compiled_call", compiled_call)

    def __call__(self, *args, **kwargs):
        return self._compiled_call(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._orig_mod, name)


def optimize(model, backend="inductor", fullgraph=False, dynamic=None, mode=None):
    compiled = _kiln.optimize(model, backend, fullgraph, dynamic, mode)
    if isinstance(model, torch.nn.Module):
        return OptimizedModule(model, compiled)
    return compiled


def reset():
    _kiln.reset()


def list_backends():
    return _kiln.list_backends()


def disable(fn=None, recursive=True):
    return torch.compiler.disable(fn, recursive)


def graph_break():
    pass


class ExplainOutput:
    def __init__(self, report):
        self.graph_count = report["graph_count"]
        self.graph_break_count = report["graph_break_count"]
        self.op_count = report["op_count"]
        self._text = report["text"]

    def __str__(self):
        return self._text


def explain(f, *extra_args, **extra_kwargs):
    def inner(*args, **kwargs):
        return ExplainOutput(_kiln.explain(f, args, kwargs))
    if extra_args or extra_kwargs:
        return inner(*extra_args, **extra_kwargs)
    return inner
