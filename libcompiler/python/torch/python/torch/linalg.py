# torch.linalg: vector_norm is the table's linalg_vector_norm, a composite of table ops (PyTorch's
# is one kernel, so a compiled graph records kiln's composition rather than
# torch.linalg.vector_norm; the values agree to rounding).
import torch


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    if out is not None:
        raise NotImplementedError("kiln's torch.linalg.vector_norm does not take out=")
    dims = None if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    return torch.linalg_vector_norm(x, ord, dims, keepdim, dtype=dtype)
