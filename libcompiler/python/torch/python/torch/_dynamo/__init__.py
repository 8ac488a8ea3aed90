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


def optimize(model, backend="inductor", fullgraph=False, dynamic=None, mode=None, options=None):
    compiled = _kiln.optimize(model, backend, fullgraph, dynamic, mode, options)
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


class set_stance:
    # The compiler's stance (torch.compiler.set_stance): set as soon as it is made, so that a plain
    # call sets it for good; as a context manager it holds inside the block, as a decorator while
    # the function runs. The stance is read when a compiled function is called.
    def __init__(self, stance="default", *, skip_guard_eval_unsafe=False, force_backend=None):
        if force_backend is not None and stance != "default":
            raise RuntimeError("non-default stance cannot have force_backend set")
        self.stance = (stance, skip_guard_eval_unsafe, force_backend)
        self.prev = _kiln.set_stance(*self.stance)

    def __call__(self, fn):
        _kiln.set_stance(*self.prev)

        def stance_wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)
        return stance_wrapper

    def __enter__(self):
        _kiln.set_stance(*self.stance)

    def __exit__(self, exc_type, exc_value, traceback):
        _kiln.set_stance(*self.prev)

    def clone(self):
        # As PyTorch's: a decorated function's stance keeps its name and backend only.
        return self.__class__(self.stance[0], force_backend=self.stance[2])


class _ErrorOnGraphBreak:
    # Sets whether a graph break raises (as fullgraph=True would) while frames are compiled inside
    # the block or the decorated function.
    def __init__(self, error_on_graph_break):
        self.error_on_graph_break = error_on_graph_break

    def __call__(self, fn):
        def error_on_graph_break_wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return error_on_graph_break_wrapper

    def __enter__(self):
        self.prev_error_on_graph_break = _kiln.set_error_on_graph_break(self.error_on_graph_break)

    def __exit__(self, exc_type, exc_value, traceback):
        _kiln.set_error_on_graph_break(self.prev_error_on_graph_break)


def error_on_graph_break(error_on_graph_break):
    return _ErrorOnGraphBreak(error_on_graph_break)


class FrameSummary:
    # traceback.FrameSummary: where a break happened.
    def __init__(self, filename, lineno, name, line):
        self.filename = filename
        self.lineno = lineno
        self.name = name
        self.line = line

    def __repr__(self):
        return f"<FrameSummary file {self.filename}, line {self.lineno} in {self.name}>"


class GraphCompileReason:
    # Why a graph ended: a break's reason and the user frames it happened in.
    def __init__(self, reason, user_stack, graph_break=True):
        self.reason = reason
        self.user_stack = user_stack
        self.graph_break = graph_break


class _Guard:
    # A guard of explain()'s out_guards: str() gives its fields, one per line.
    def __init__(self, text):
        self._text = text

    def __str__(self):
        return self._text


class ExplainOutput:
    # What explain() returns: its fields, and its report as PyTorch prints it.
    def __init__(self, report, graphs):
        self.graphs = graphs
        self.graph_count = report["graph_count"]
        self.graph_break_count = report["graph_break_count"]
        self.op_count = report["op_count"]
        self.break_reasons = [GraphCompileReason(reason, [FrameSummary(*frame) for frame in stack])
                              for reason, stack in report["break_reasons"]]
        self.ops_per_graph = report["ops_per_graph"]
        self.out_guards = [_Guard(text) for text in report["out_guards"]]
        self.compile_times = report["compile_times"]
        self._op_reprs = report["op_reprs"]

    def __str__(self):
        output = f"Graph Count: {self.graph_count}\n"
        output += f"Graph Break Count: {self.graph_break_count}\n"
        output += f"Op Count: {self.op_count}\n"
        output += "Break Reasons:\n"
        for idx, break_reason in enumerate(self.break_reasons):
            output += f"  Break Reason {idx + 1}:\n"
            output += f"    Reason: {break_reason.reason}\n"
            output += "    User Stack:\n"
            for frame_summary in break_reason.user_stack:
                output += f"      {frame_summary}\n"
        output += "Ops per Graph:\n"
        for idx, reprs in enumerate(self._op_reprs):
            output += f"  Ops {idx + 1}:\n"
            for op in reprs:
                output += f"    {op}\n"
        output += "Out Guards:\n"
        for i, guard in enumerate(self.out_guards):
            output += f"  Guard {i + 1}:\n"
            output += f"    {str(guard)}"
        output += f"Compile Times: {self.compile_times}\n"
        return output


def explain(f, *extra_args, **extra_kwargs):
    def inner(*args, **kwargs):
        graphs = []

        def accumulate_graphs(gm, example_inputs):
            graphs.append(gm)
            return gm.forward

        return ExplainOutput(_kiln.explain(f, args, kwargs, accumulate_graphs), graphs)
    if extra_args or extra_kwargs:
        return inner(*extra_args, **extra_kwargs)
    return inner
