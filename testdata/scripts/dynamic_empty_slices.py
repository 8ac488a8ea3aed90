# Slices of a dynamic size (s - 1, (s + 1) // 2) through inductor, with and without elements: the
# contiguous strides of such a size ask only whether it is 0 (c10's max(size, 1)), which a size
# symbol answers without guarding on its value.
import torch


def slices(a):
    return a[:, :-1] * 2, a[:, ::2] + 1


run = torch.compile(slices, backend="inductor")
for n in [5, 7, 9, 2]:
    print(n, [list(t.shape) for t in run(torch.ones(0, n, dtype=torch.float64))])
torch._dynamo.reset()
for n in [5, 7, 9, 2]:
    print(n, [t.tolist() for t in run(torch.arange(2.0 * n, dtype=torch.float64).reshape(2, n))])
