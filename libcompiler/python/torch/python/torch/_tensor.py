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


def register_post_accumulate_grad_hook(self, hook):
    return _TensorHookHandle(self, torch._register_post_accumulate_grad_hook(self, hook))


torch._add_tensor_method("register_post_accumulate_grad_hook", register_post_accumulate_grad_hook)


# Tensor methods of the functions torch._composites makes.
for _name in ("floor", "trunc", "ceil", "frac", "narrow", "unbind", "movedim", "roll", "outer", "sort", "argsort", "msort",
              "logsumexp", "lerp", "nan_to_num", "count_nonzero", "aminmax", "median", "kthvalue", "diff", "diag",
              "trace", "nonzero", "argwhere", "unique", "bincount", "masked_select"):
    torch._add_tensor_method(_name, getattr(torch, _name))
torch._add_tensor_method("moveaxis", torch.movedim)
torch._add_tensor_method("fix", torch.trunc)


def _in_place(function):
    # The in-place method of an out-of-place function: the result copied into self (autograd sees a
    # copy_ of the function's result, as it sees an in-place op's history).
    def method(self, *args, **kwargs):
        return self.copy_(function(self, *args, **kwargs))
    return method


torch._add_tensor_method("scatter", torch.scatter)
for _name in ("scatter_reduce", "baddbmm", "addbmm", "addmv", "index_put", "any", "all"):
    torch._add_tensor_method(_name, getattr(torch, _name))
torch._add_tensor_method("index_fill", torch.index_fill)
torch._add_tensor_method("index_copy", torch.index_copy)
for _name, _function in (("index_add_", torch.index_add), ("scatter_", torch.scatter), ("scatter_add_", torch.scatter_add),
                         ("index_fill_", torch.index_fill), ("index_copy_", torch.index_copy),
                         ("scatter_reduce_", torch.scatter_reduce), ("baddbmm_", torch.baddbmm), ("addbmm_", torch.addbmm),
                         ("addmv_", torch.addmv), ("floor_", torch.floor), ("ceil_", torch.ceil), ("trunc_", torch.trunc),
                         ("fix_", torch.trunc), ("frac_", torch.frac)):
    torch._add_tensor_method(_name, _in_place(_function))


def expand_as(self, other):
    return self.expand(other.size())


torch._add_tensor_method("expand_as", expand_as)
