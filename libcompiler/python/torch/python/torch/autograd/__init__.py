# torch.autograd: backward() over the native engine, shaped as PyTorch's (its tensors pass
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


from torch.autograd.gradcheck import gradcheck  # noqa: E402  (it uses backward above)
from torch.autograd.function import Function  # noqa: E402
import torch.autograd.function as function  # noqa: E402
