# Convolutions (1d/2d/3d, stride, padding incl. "same", dilation, groups, no bias, unbatched),
# batch norm in training and eval (running statistics, num_batches_tracked), 2d max/avg/adaptive
# pooling with their gradients, and the errors PyTorch raises for bad shapes.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
conv = nn.Conv2d(3, 4, 3, padding=1)
print(conv, conv.weight.shape, f"{conv.weight.sum().item():.4f}", f"{conv.bias.sum().item():.4f}")
x = torch.randn(2, 3, 6, 5, requires_grad=True)
y = conv(x)
print(y.shape, y.grad_fn.name(), f"{y.sum().item():.4f}", y[1, 2, 3])
(y * y).sum().backward()
print(f"{x.grad.abs().sum().item():.4f}", f"{conv.weight.grad.norm().item():.4f}", conv.bias.grad)

strided = nn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2, bias=False)
print(strided, strided(y).shape, f"{strided(y).mean().item():.5f}")
print(nn.Conv2d(3, 2, 3, padding="same")(x).shape, nn.Conv2d(3, 2, 4, padding="same")(x)[0, 0, 0])
c1 = nn.Conv1d(2, 3, 3, stride=2)
print(c1, c1(torch.randn(4, 2, 9)).shape, c1(torch.randn(2, 9)).shape)
c3 = nn.Conv3d(1, 2, 2)
print(c3(torch.randn(1, 1, 3, 3, 3)).flatten()[:4])
xd = torch.randn(1, 2, 5, 5, dtype=torch.float64, requires_grad=True)
wd = torch.randn(3, 2, 3, 3, dtype=torch.float64, requires_grad=True)
out = F.conv2d(xd, wd, stride=2, padding=1)
out.sum().backward()
print(out.dtype, out[0, 1], wd.grad[2, 1])

bn = nn.BatchNorm2d(4)
print(bn, bn.running_mean, bn.num_batches_tracked)
z = bn(y)
print(abs(z.mean().item()) < 1e-5, f"{z.std().item():.4f}", bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(y)[0, 0, 0])
bn1 = nn.BatchNorm1d(3, momentum=None, affine=False)
for _ in range(2):
    bn1(torch.randn(5, 3) * 2 + 1)
print(bn1, bn1.running_mean, bn1.running_var, bn1.num_batches_tracked)
print(F.batch_norm(torch.randn(4, 2, 3), torch.zeros(2), torch.ones(2), training=True)[0])

gn = nn.GroupNorm(2, 4)
g = gn(y.detach())
g.pow(2).sum().backward()
print(gn, g[1, 3, 0], [f"{v:.2f}" for v in gn.weight.grad.tolist()], F.group_norm(torch.randn(2, 6, 3), 3, eps=1e-3)[1, 4])

p = torch.randn(1, 2, 5, 6, requires_grad=True)
mp = nn.MaxPool2d(2)
print(mp, mp(p))
values, indices = F.max_pool2d(p, 3, stride=2, padding=1, ceil_mode=True, return_indices=True)
print(values.shape, indices[0, 1], values.grad_fn.name())
values.sum().backward()
print(p.grad[0, 0])
ap = nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False)
print(ap, ap(p)[0, 1])
print(F.avg_pool2d(p, 2, ceil_mode=True, divisor_override=3)[0, 0])
aap = nn.AdaptiveAvgPool2d((3, 4))
q = aap(p)
print(aap, q[0, 0], q.grad_fn.name(), nn.AdaptiveAvgPool2d(1)(p).shape, F.adaptive_avg_pool2d(p, (None, 2)).shape)
print(nn.Flatten()(q).shape, nn.Flatten(0, 1)(q).shape)

for bad in [lambda: conv(torch.randn(1, 2, 5, 5)),
            lambda: F.conv2d(torch.randn(1, 3, 2, 2), torch.randn(4, 3, 3, 3)),
            lambda: F.conv2d(torch.randn(1, 2, 4, 4), torch.randn(3, 2, 3, 3, dtype=torch.float64)),
            lambda: F.conv2d(torch.randn(1, 2, 4, 4), torch.randn(3, 2, 3, 3), torch.randn(3, dtype=torch.float64)),
            lambda: bn(torch.randn(3, 4)),
            lambda: F.group_norm(torch.randn(2, 6, 4), 4),
            lambda: nn.BatchNorm1d(2)(torch.randn(1, 2)),
            lambda: F.max_pool2d(torch.randn(1, 1, 2, 2), 3, padding=2),
            lambda: F.max_pool2d(torch.randn(1, 1, 2, 2), 3)]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
