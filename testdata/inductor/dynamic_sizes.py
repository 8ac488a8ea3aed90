# torch.compile(dynamic=True) on three functions, each called at four sizes: one compile per
# function serves every size. Each result is checked against a float64 eager run.
import torch


@torch.compile(dynamic=True)
def pointwise(x):
    return torch.sigmoid(x) * 2 + x


@torch.compile(dynamic=True)
def softmax_rows(x):
    return torch.softmax(x, dim=-1)


@torch.compile(dynamic=True)
def centered(x):
    m = x.mean(dim=1, keepdim=True)
    return (x - m) * x.sum(dim=0)


def reference_pointwise(x):
    return torch.sigmoid(x) * 2 + x


def reference_centered(x):
    return (x - x.mean(dim=1, keepdim=True)) * x.sum(dim=0)


cases = [
    ("pointwise", pointwise, reference_pointwise),
    ("softmax_rows", softmax_rows, lambda x: torch.softmax(x, dim=-1)),
    ("centered", centered, reference_centered),
]
torch.manual_seed(0)
for n, m in [(3, 5), (8, 16), (17, 2), (64, 33)]:
    x = torch.randn(n, m)
    for name, fn, reference in cases:
        got = fn(x)
        want = reference(x.double())
        err = (got.double() - want).abs().max().item() / max(want.abs().max().item(), 1e-12)
        print(name, n, m, "ok" if err < 1e-5 else "bad " + str(err))
