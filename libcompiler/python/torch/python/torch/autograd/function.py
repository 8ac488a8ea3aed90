# torch.autograd.Function: custom forward/backward pairs. apply runs forward under no_grad, then
# gives the outputs one backward node (named <Class>Backward, as PyTorch names it) that calls the
# class's backward with the context. Both ways of writing forward are accepted: forward(ctx, ...)
# and forward(...) with setup_context(ctx, inputs, output).
import functools

import torch
import torch.compiler


class FunctionCtx:
    def __init__(self):
        self.to_save = ()
        self.non_differentiable = ()
        self.dirty_tensors = ()
        self.materialize_grads = True
        self.needs_input_grad = ()

    def save_for_backward(self, *tensors):
        self.to_save = tensors

    @property
    def saved_tensors(self):
        return self.to_save

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def mark_dirty(self, *args):
        self.dirty_tensors = args

    def set_materialize_grads(self, value):
        self.materialize_grads = value


class Function:
    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use new-style "
                           "autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    # Kiln's capture does not trace custom functions: compiled code breaks the graph around them.
    @classmethod
    @torch.compiler.disable
    def apply(cls, *args, **kwargs):
        ctx = FunctionCtx()
        ctx.needs_input_grad = tuple(isinstance(a, torch.Tensor) and a.requires_grad for a in args)
        separate_setup = cls.setup_context is not Function.setup_context
        with torch.no_grad():
            output = cls.forward(*args, **kwargs) if separate_setup else cls.forward(ctx, *args, **kwargs)
        if separate_setup:
            cls.setup_context(ctx, args, output)
        if not (torch.is_grad_enabled() and any(ctx.needs_input_grad)):
            return output
        outputs = output if isinstance(output, tuple) else (output,)
        # backward takes one gradient per output: the node's own for the differentiable ones, None
        # (zeros once materialized) for the others.
        is_differentiable = [isinstance(o, torch.Tensor) and o.is_floating_point()
                             and not any(o is n for n in ctx.non_differentiable) for o in outputs]
        differentiable = [o for o, d in zip(outputs, is_differentiable) if d]
        # The node must not hold its own outputs (output -> node -> output would never be freed):
        # it keeps their shapes, and the outputs saved for backward as detached aliases.
        metas = [(o.shape, o.dtype) if isinstance(o, torch.Tensor) else None for o in outputs]
        ctx.to_save = tuple(t.detach() if any(t is o for o in outputs) else t for t in ctx.to_save)
        name = cls.__name__ + "Backward"
        count = len(args)

        def backward(*node_grads):
            node_grads = iter(node_grads)
            grads = [next(node_grads) if d else None for d in is_differentiable]
            if ctx.materialize_grads:
                grads = [torch.zeros(m[0], dtype=m[1]) if g is None and m is not None else g for g, m in zip(grads, metas)]
            result = cls.backward(ctx, *grads)
            result = result if isinstance(result, tuple) else (result,)
            if len(result) != count:
                # PyTorch allows extra trailing Nones.
                if len(result) > count and all(g is None for g in result[count:]):
                    result = result[:count]
                else:
                    raise RuntimeError(f"function {name} returned an incorrect number of gradients (expected {count}, "
                                       f"got {len(result)})")
            return result

        torch._record_custom_function(name, backward, args, differentiable)
        return output


def once_differentiable(fn):
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with torch.no_grad():
            return fn(ctx, *args)
    return wrapper
