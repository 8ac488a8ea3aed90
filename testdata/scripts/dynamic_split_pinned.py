# A dynamic graph splitting a symbolic length into pieces of 1 is pinned to its captured sizes
# (the number of pieces depends on them); AOT does not retrace it at other sizes, where the split
# would make one output per element (difftest seed 11698 hung there).
import torch
import torch.nn.functional as F
def f(a0, a1):
    v4 = torch.split(a1.flatten(0, 2), 1, dim=0)[0]
    v6 = F.log_softmax(a0.double(), dim=0)
    return torch.minimum(v6, a0), v4, a0.shape[0]
for backend in ["aot_eager", "inductor"]:
    g = torch.compile(f, backend=backend, dynamic=True)
    for n in [3, 5, 4]:
        a0 = torch.arange(20.0 * n).reshape(4, 5, n).transpose(1, 2).div(7).requires_grad_()
        a1 = torch.arange(5.0 * n).reshape(1, n, 5).requires_grad_()
        out = g(a0, a1)
        (out[0].sum() + out[1].sum()).backward()
        print(backend, n, out[0].sum().item(), out[1].tolist(), out[2], round(a0.grad.abs().sum().item(), 3), a1.grad.sum().item())
    torch._dynamo.reset()
