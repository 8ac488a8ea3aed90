# torch.autograd: backward() and grad() over the native engine, shaped as PyTorch's (its tensors pass
# through typing.cast, a frame torch.compile catches, as PyTorch's does).
from typing import cast, Union

import torch


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    if isinstance(tensors, torch.Tensor):
        tensors = cast(Union[tuple, tuple], (tensors,))
    else:
        tensors = tuple(tensors)
    if grad_tensors is None or isinstance(grad_tensors, torch.Tensor):
        grad_tensors = (grad_tensors,) * len(tensors)
    if retain_graph is None:
        retain_graph = create_graph
    torch._run_backward(tensors, tuple(grad_tensors), retain_graph, create_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    if is_grads_batched:
        raise NotImplementedError("kiln's torch.autograd.grad does not implement is_grads_batched=True")
    outputs = (outputs,) if isinstance(outputs, torch.Tensor) else tuple(outputs)
    single_input = isinstance(inputs, torch.Tensor)
    inputs = (inputs,) if single_input else tuple(inputs)
    if grad_outputs is None or isinstance(grad_outputs, torch.Tensor):
        grad_outputs = (grad_outputs,) * len(outputs)
    grad_outputs = tuple(grad_outputs)
    if allow_unused is None:
        allow_unused = materialize_grads
    if retain_graph is None:
        retain_graph = create_graph
    result = torch._run_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused)
    if materialize_grads:
        result = tuple(torch.zeros_like(i) if g is None else g for i, g in zip(inputs, result))
    return result


from torch.autograd.gradcheck import gradcheck  # noqa: E402  (it uses backward above)
from torch.autograd.function import Function  # noqa: E402
import torch.autograd.function as function  # noqa: E402
