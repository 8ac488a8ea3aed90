# A graph pinned to its captured sizes (a slice whose bounds clamp differently at other sizes) is
# compiled for each size it is called with, and not served from the AOT autograd cache, whose key
# holds no sizes: the n = 7 call got the n = 5 graph from it and raised a size mismatch.
import torch
def f(a0):
    v8 = a0[:, 2:5]
    return v8.round(), v8 * 2
g = torch.compile(f, backend="inductor")
for n in [3, 5, 7, 4, 2, 6]:
    a = torch.arange(3.0 * n).reshape(3, n) / 3
    print(n, [t.tolist() for t in g(a)], [t.tolist() for t in g(a.t().contiguous().t())])
