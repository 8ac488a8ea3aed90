# kiln inductor: the weight gradient of torch.mm(a * 0.25, w) -- the mm's left operand computed in
# the graph and saved for the backward -- is wrong: [2.5, 2.5, 2.5, 4.5, 4.5, 4.5] (the saved
# tensor's transpose seems to be read with the wrong layout; torch.mm(a, w) is right).
# PyTorch: [3.0, 3.0, 3.0, 4.0, 4.0, 4.0].
import torch


def f(a, w):
    return torch.mm(a * 0.25, w)


a = torch.arange(8.0).reshape(4, 2).requires_grad_(True)
w = torch.ones(2, 3, requires_grad=True)
torch.compile(f, backend="inductor")(a, w).backward(torch.ones(4, 3))
print(w.grad.flatten().tolist())
