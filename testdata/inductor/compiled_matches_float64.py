# Compiled (inductor) results against a float64 eager reference: prints one line per function,
# "<name> ok" when the largest error relative to the reference's largest magnitude is below 1e-5.
import torch
import torch.nn.functional as F

def pointwise(x, y):
    return torch.relu(x * 2 + y) - torch.tanh(x) / (y.abs() + 1)
def reductions(x, y):
    return x.sum(dim=-1) + x.mean() + x.amax(dim=0).sum() + y.sum()
def softmax_family(x, y):
    return torch.softmax(x, -1) + torch.log_softmax(x, 0)
def layer_norm(x, y):
    return F.layer_norm(x, (64,), y, y * 0.5).relu()
def views(x, y):
    return x.t().reshape(16, 128).sum(dim=0) + x[2:10, ::2].sum() + x.view(2, 16, 64).permute(2, 0, 1).mean(dim=-1).sum()
def matmul_gelu(x, y):
    return F.gelu(x @ x.t()) + F.linear(x, x, y[:32])
def comparisons(x, y):
    return torch.where(x > y, x, y * 3) + (x < 0).float()
def exp_log_sigmoid(x, y):
    return torch.exp(x) + torch.log(x.abs() + 1e-3) + torch.sigmoid(y) + torch.sqrt(x * x + 1) + torch.erf(x)

torch.manual_seed(0)
x = torch.randn(32, 64)
y = torch.randn(64)
for fn in [pointwise, reductions, softmax_family, layer_norm, views, matmul_gelu, comparisons, exp_log_sigmoid]:
    out = torch.compile(fn)(x, y)
    ref = fn(x.double(), y.double())
    err = (out.double() - ref).abs().max().item() / max(ref.abs().max().item(), 1e-12)
    print(fn.__name__, "ok" if err < 1e-5 else "error %g" % err)
