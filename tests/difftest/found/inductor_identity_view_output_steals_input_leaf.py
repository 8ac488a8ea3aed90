# kiln inductor: a compiled function returning an identity view of its input (permute(0, 1))
# turns the caller's leaf tensor into a non-leaf: after the call x.is_leaf is False and x.grad
# stays None after backward (with "The .grad attribute of a Tensor that is not a leaf Tensor is
# being accessed"). PyTorch prints "True [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]".
import torch


def f(a):
    return torch.permute(a, (0, 1))


x = torch.ones(2, 3, requires_grad=True)
out = torch.compile(f, backend="inductor")(x)
(out * 1.0).sum().backward()
print(x.is_leaf, None if x.grad is None else x.grad.flatten().tolist())
