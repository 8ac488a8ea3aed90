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


def _new_factory(factory):
    # Tensor.new_zeros/new_ones/new_empty: a new tensor of the given size with self's dtype
    # unless dtype= says otherwise.
    def new(self, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
        if len(size) == 1 and isinstance(size[0], (tuple, list, torch.Size)):
            size = tuple(size[0])
        return factory(size, dtype=dtype or self.dtype, requires_grad=requires_grad)
    return new


def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    return torch.full(tuple(size), fill_value, dtype=dtype or self.dtype, requires_grad=requires_grad)


def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    if isinstance(data, torch.Tensor):
        return data.detach().clone().to(dtype or self.dtype).requires_grad_(requires_grad)
    return torch.tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)


torch._add_tensor_method("new_zeros", _new_factory(torch.zeros))
torch._add_tensor_method("new_ones", _new_factory(torch.ones))
torch._add_tensor_method("new_empty", _new_factory(torch.empty))
torch._add_tensor_method("new_full", new_full)
torch._add_tensor_method("new_tensor", new_tensor)


class _TensorHookHandle:
    # What Tensor.register_hook returns (PyTorch's RemovableHandle): remove() takes the hook out.
    def __init__(self, tensor, hook_id):
        self._tensor, self.id = tensor, hook_id

    def remove(self):
        if self._tensor is not None:
            torch._remove_grad_hook(self._tensor, self.id)
            self._tensor = None

    def __enter__(self):
        return self

    def __exit__(self, type, value, tb):
        self.remove()


def register_hook(self, hook):
    return _TensorHookHandle(self, torch._register_grad_hook(self, hook))


torch._add_tensor_method("register_hook", register_hook)
