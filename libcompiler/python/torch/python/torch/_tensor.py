# Tensor methods written in Python, as in PyTorch's torch/_tensor.py.
import torch


def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    torch.autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)


torch._add_tensor_method("backward", backward)
torch._add_tensor_method("isclose", torch.isclose)
torch._add_tensor_method("allclose", torch.allclose)
torch._add_tensor_method("equal", torch.equal)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    # The vector norm of the elements ("fro" is the 2-norm of them all), as torch.norm computes it
    # for the p and dim it is mostly called with; matrix norms (p="nuc", ord of a 2-d dim) are not.
    if p == "nuc":
        raise NotImplementedError("kiln's torch.norm does not compute the nuclear norm")
    return torch.linalg.vector_norm(input, 2 if p == "fro" else p, dim, keepdim, dtype=dtype)


torch.norm = norm
torch._add_tensor_method("norm", norm)


def unflatten(self, dim, sizes):
    # Tensor.unflatten: dim split into sizes (one of them may be -1), as a view.
    if len(sizes) == 0:
        raise RuntimeError("unflatten: sizes must be non-empty")
    dim = dim + self.dim() if dim < 0 else dim
    return self.view(*self.shape[:dim], *sizes, *self.shape[dim + 1:])


torch._add_tensor_method("unflatten", unflatten)
