# F.interpolate and nn.Upsample: nearest, nearest-exact, linear, bilinear, trilinear, area, sizes
# and scale factors, align_corners, gradients, and the argument errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(1, 2, 3, 4, requires_grad=True)
cases = [
    dict(scale_factor=2, mode="nearest"),
    dict(size=(5, 7), mode="nearest"),
    dict(scale_factor=1.5, mode="nearest"),
    dict(scale_factor=(0.5, 1.7), mode="nearest"),
    dict(size=(5, 7), mode="nearest-exact"),
    dict(scale_factor=2, mode="bilinear"),
    dict(size=(5, 7), mode="bilinear", align_corners=False),
    dict(size=(5, 7), mode="bilinear", align_corners=True),
    dict(scale_factor=1.5, mode="bilinear", align_corners=True),
    dict(scale_factor=2.5, mode="bilinear", recompute_scale_factor=True),
    dict(size=(2, 2), mode="area"),
    dict(size=1, mode="bilinear"),
]
for kwargs in cases:
    y = F.interpolate(x, **kwargs)
    x.grad = None
    (y * (torch.arange(y.numel()) % 5 - 2).reshape(y.shape)).sum().backward()
    print(kwargs, tuple(y.shape))
    # Linear modes agree with PyTorch's kernels to float32 rounding (kiln computes what PyTorch's
    # decomposition computes); four decimals show them equal.
    print(y.detach().mul(1e4).round().div(1e4))
    print(x.grad.mul(1e4).round().div(1e4))

s = torch.randn(2, 3, 5)
print(F.interpolate(s, scale_factor=2, mode="linear").mul(1e4).round().div(1e4))
print(F.interpolate(s, size=8, mode="nearest"))
v = torch.randn(1, 1, 2, 3, 2)
print(F.interpolate(v, scale_factor=2, mode="trilinear", align_corners=True).mul(1e4).round().div(1e4))
print(F.interpolate(v, size=(3, 4, 3), mode="nearest"))
print(F.interpolate(torch.arange(6, dtype=torch.float64).reshape(1, 1, 2, 3), scale_factor=2, mode="bilinear"))

up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
print(up, nn.Upsample(size=(4, 4)), nn.UpsamplingNearest2d(scale_factor=3), nn.UpsamplingBilinear2d(size=5))
print(up(x).shape, nn.UpsamplingBilinear2d(scale_factor=2)(x)[0, 0, 0].detach().mul(1e4).round().div(1e4))

for kwargs in [dict(size=4, scale_factor=2), dict(), dict(size=4, mode="nearest", align_corners=True),
               dict(size=(4,)), dict(scale_factor=(2, 2, 2)), dict(size=4, mode="linear"),
               dict(size=4, mode="trilinear"), dict(size=(4, 4.0)), dict(size=4, recompute_scale_factor=True),
               dict(size=4, mode="bogus")]:
    try:
        F.interpolate(x, **kwargs)
    except Exception as error:
        print(type(error).__name__, error)
