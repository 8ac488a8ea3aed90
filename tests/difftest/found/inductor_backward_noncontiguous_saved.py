# kiln inductor: the compiled backward reads a non-contiguous tensor saved by the forward as if it
# were contiguous, so gradients come out in the wrong element order: exp of a transposed input
# keeps the transposed layout (exp saves its result); leaky_relu of a transposed input saves it.
# PyTorch (and kiln eager / aot_eager) print:
#   [0.0, 5.4366, 29.5562, 20.0855, 163.7945, 742.0658]
#   [[0.1, 1.0], [1.0, 1.0], [0.1, 0.1]]
import torch
import torch.nn.functional as F


def h(a):
    return a.transpose(0, 1).exp()


def k(a):
    return F.leaky_relu(a, 0.1)


x = torch.arange(6.0).reshape(2, 3).requires_grad_(True)
torch.compile(h, backend="inductor")(x).backward(torch.arange(6.0).reshape(3, 2))
print([round(v, 4) for v in x.grad.flatten().tolist()])

y = torch.tensor([[-1.0, 2.0, -3.0], [4.0, 5.0, -6.0]]).t().detach().requires_grad_(True)
torch.compile(k, backend="inductor")(y).backward(torch.ones(3, 2))
print([[round(v, 2) for v in row] for row in y.grad.tolist()])
