# Tensor.floor_ / ceil_ / trunc_ / fix_ / frac_: in place, the values of their
# out-of-place forms, gradients through them (zero for the roundings, one for frac).
import torch

x = torch.tensor([-2.5, -1.5, -0.5, 0.0, 0.4, 1.5, 2.7, float("inf"), float("nan")])
for name in ("floor_", "ceil_", "trunc_", "fix_", "frac_"):
    y = x.clone()
    out = getattr(y, name)()
    print(name, out is y, y.tolist())
ints = torch.tensor([-3, 2, 5])
print(ints.clone().floor_().tolist(), ints.clone().trunc_().tolist())
w = torch.tensor([1.25, -0.75], requires_grad=True)
for name in ("floor_", "frac_"):
    v = w * 1
    getattr(v, name)()
    (v * torch.tensor([1.0, 2.0])).sum().backward()
    print(name, w.grad.tolist())
    w.grad = None
