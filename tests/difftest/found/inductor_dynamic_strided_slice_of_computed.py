# kiln inductor, dynamic shapes (second call recompiles with a symbolic size): a step slice of a
# computed value, (-a)[::2], fails with "index modulo by ((s0 + 1)//2), not known positive"
# (a[::2] + 1 works). PyTorch prints [-0.0, -2.0] / [-0.0, -2.0, -4.0] / [-0.0, -2.0, -4.0, -6.0].
import torch


def f(a):
    return (-a)[::2]


cf = torch.compile(f, backend="inductor")
for n in [3, 5, 7]:
    print(n, cf(torch.arange(float(n))).tolist())
