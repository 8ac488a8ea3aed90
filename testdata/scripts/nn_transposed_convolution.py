# Transposed convolutions: ConvTranspose1d/2d/3d (stride, padding, output_padding, dilation, groups,
# bias), output_size, unbatched inputs, F.conv_transpose2d, float64 gradients against gradcheck,
# the modules' repr and init; plus softplus, kl_div and xlogy.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
up = nn.ConvTranspose2d(4, 2, kernel_size=3, stride=2, padding=1, output_padding=1)
print(up)
print(up.weight.shape, up.bias.shape)
x = torch.randn(2, 4, 5, 5)
y = up(x)
print(y.shape, y[0, 0, :2, :4])
print(up(x, output_size=[9, 9]).shape, up(x[0]).shape)
g = nn.ConvTranspose2d(4, 6, kernel_size=(2, 3), stride=(2, 1), padding=(0, 1), groups=2, bias=False, dilation=(1, 2))
print(g, g(x).shape, g(x).sum().item())
one = nn.ConvTranspose1d(3, 2, 4, stride=2)
print(one(torch.randn(2, 3, 6))[1, 1, :5])
three = nn.ConvTranspose3d(2, 1, 2, stride=2)
print(three(torch.randn(1, 2, 2, 2, 2)).shape)
w = torch.randn(4, 3, 2, 2)
print(F.conv_transpose2d(x, w, stride=2).shape, F.conv_transpose2d(x, w, torch.ones(3), padding=1)[0, 2, 0, :3])
loss = up(x).pow(2).mean()
loss.backward()
print(up.weight.grad.shape, f"{up.weight.grad.abs().sum().item():.4f}", f"{up.bias.grad.sum().item():.4f}")
x64 = torch.randn(1, 2, 3, 3, dtype=torch.float64, requires_grad=True)
w64 = torch.randn(2, 2, 3, 3, dtype=torch.float64, requires_grad=True)
b64 = torch.randn(4, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda a, b, c: F.conv_transpose2d(a, b, c, stride=2, padding=1, groups=2), (x64, w64, b64)))
print(F.conv_transpose2d(x64, w64, b64, stride=2, padding=1, groups=2).grad_fn.name())
for bad in [lambda: F.conv_transpose2d(x, torch.randn(3, 2, 3, 3)),
            lambda: F.conv_transpose2d(x, w, torch.ones(4)),
            lambda: F.conv_transpose2d(x, w, stride=1, output_padding=1),
            lambda: F.conv_transpose2d(torch.randn(4, 5), w),
            lambda: up(x, output_size=[20, 20]),
            lambda: nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect")]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)

z = torch.linspace(-30, 30, 7)
print(F.softplus(z), F.softplus(z, beta=2, threshold=5))
print(nn.Softplus(beta=0.5), nn.Softplus()(torch.tensor([0.0, 1.0])))
s = torch.tensor([-1.0, 0.5, 3.0], requires_grad=True)
F.softplus(s, beta=2.0).sum().backward()
print(s.grad, F.softplus(s).grad_fn.name())
p = torch.tensor([0.0, 0.5, 2.0, float("nan"), 0.0])
q = torch.tensor([0.0, 0.5, 0.0, 1.0, float("nan")])
print(torch.xlogy(p, q), torch.xlogy(torch.tensor([0, 2]), torch.tensor([3, 4])))
logits = torch.randn(4, 5)
target = F.softmax(torch.randn(4, 5), dim=-1)
log_probs = F.log_softmax(logits, dim=-1)
for reduction in ["batchmean", "sum", "none"]:
    print(reduction, F.kl_div(log_probs, target, reduction=reduction))
print(F.kl_div(log_probs, target.log(), reduction="batchmean", log_target=True))
print(nn.KLDivLoss(reduction="batchmean")(log_probs, target), nn.LogSoftmax(dim=1)(logits)[0])
logits.requires_grad_()
F.kl_div(F.log_softmax(logits, -1), target, reduction="batchmean").backward()
print(logits.grad[0])
