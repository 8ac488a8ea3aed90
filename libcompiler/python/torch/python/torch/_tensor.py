# Tensor methods written in Python, as in PyTorch's torch/_tensor.py.
import torch


def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    torch.autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)


torch._add_tensor_method("backward", backward)
torch._add_tensor_method("isclose", torch.isclose)
torch._add_tensor_method("allclose", torch.allclose)
torch._add_tensor_method("equal", torch.equal)
