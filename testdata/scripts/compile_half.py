# torch.compile of float16 code on the CPU: Inductor computes half values in float32 and rounds
# where it stores or converts; the compiled results equal eager's where a single op's rounding is
# the same (one op a kernel), and stay within a half's precision of eager's in fused chains.
import torch

torch.manual_seed(0)
x = torch.randn(6, 8).half()
y = torch.randn(6, 8).half()
w = torch.randn(8).half()


@torch.compile
def single(a):
    return a * 3


@torch.compile
def fused(a, b, weight):
    z = (a * 1.5 + b).relu() * weight
    return z, z.sum(-1), z.float() * 2, torch.softmax(z.float(), -1).half()


print(torch.equal(single(x), x * 3), single(x).dtype)
got = fused(x, y, w)
z = (x.float() * 1.5 + y.float()).relu() * w.float()
expected = (z, z.sum(-1), z.half().float() * 2, torch.softmax(z.half().float(), -1))
for name, g, e in zip(("pointwise", "sum", "widened", "softmax"), got, expected):
    error = ((g.float() - e).abs() / (e.abs() + 1)).max().item()
    print(name, g.dtype, tuple(g.shape), error < 2 ** -10)
print(got[0][0, :4].tolist())
x.requires_grad_()
loss = fused(x, y, w)[1].float().sum()
loss.backward()
print(x.grad.dtype, x.grad[0, :4].tolist())
