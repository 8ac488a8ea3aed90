# Index arithmetic of dynamic views divides by sizes that may be 0 (v[2:5] of a length s: s - 2 at
# s = 2) or are positive only by their own bound ((2*s - 2)//s): inductor compiles both (it raised
# 'index modulo by s - 2, not known positive'; difftest seeds 13853, 15816).
import torch
def f(a0, a1):
    v1 = torch.log_softmax(a0, dim=-1)
    v3 = torch.sub(a1, v1)
    v4 = torch.cond(v3.sum() > 0.123, lambda x: x.sin() + 1, lambda x: x.cos() * 2, (v3,))
    return v3[2:5]
g = torch.compile(f, backend="inductor")
for n in [6, 8, 10, 5]:
    print(g(torch.arange(n * 1.0), torch.tensor(2.0)))
def h(a0):
    v2 = a0[:, 1::2]
    return v2.softmax(1), v2
g = torch.compile(h, backend="inductor", dynamic=True)
for n in [3, 5, 7, 0, 6]:
    print([t.shape for t in g(torch.ones(n, 2))])
