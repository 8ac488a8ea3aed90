# torch.cond compiled by inductor against a float64 eager reference: one compile, then both
# branches run from it. Prints "<branch> ok" when the largest error relative to the reference's
# largest magnitude is below 1e-5.
import torch


def fn(x, y):
    return torch.cond(x.sum() > 0, lambda x, y: torch.tanh(x) * y + x.sum(-1, keepdim=True), lambda x, y: (x - y).exp() / x.mean(0), (x, y))


torch.manual_seed(0)
compiled = torch.compile(fn)
y = torch.randn(8)
for name, x in [("true_branch", torch.randn(4, 8).abs()), ("false_branch", -torch.randn(4, 8).abs())]:
    out = compiled(x, y)
    ref = fn(x.double(), y.double())
    err = (out.double() - ref).abs().max().item() / max(ref.abs().max().item(), 1e-12)
    print(name, "ok" if err < 1e-5 else "error %g" % err)
