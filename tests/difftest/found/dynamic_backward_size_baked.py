# kiln (aot_eager and the other AOT backends): the compiled backward of a graph made dynamic by the
# second call's new size bakes that call's size in: the gradient of a.mean() stays 1/6 for n=8 and
# n=10 (PyTorch: 0.125, 0.1); other graphs fail instead with "The size of tensor a (8) must match
# the size of tensor b (6)". Sizes only grow here.
import torch


def f(a):
    return a.mean()


cf = torch.compile(f, backend="aot_eager")
for n in [4, 6, 8, 10]:
    a = torch.ones(n, requires_grad=True)
    cf(a).backward()
    print(n, round(a.grad[0].item(), 4))
