# torch.memory_format: channels_last and channels_last_3d strides from factories, clone, the
# *_like factories, contiguous, Tensor.to and Module.to (convolution weights), c10's contiguity
# tests, the rank errors, and a channels-last CNN's forward, backward and compiled graphs.
import torch
import torch.nn as nn

for sizes in [(2, 3, 4, 5), (1, 3, 1, 5), (2, 0, 3, 4), (2, 3, 0, 4), (1, 1, 1, 1), (2, 1, 4, 5)]:
    e = torch.empty(*sizes, memory_format=torch.channels_last)
    print(sizes, e.stride(), e.is_contiguous(), e.is_contiguous(memory_format=torch.channels_last))
print(torch.empty(2, 3, 4, 5, 6, memory_format=torch.channels_last_3d).stride())
for make in [lambda: torch.empty(2, 3, memory_format=torch.channels_last),
             lambda: torch.empty(2, 3, 4, 5, 6, memory_format=torch.channels_last),
             lambda: torch.empty(2, 3, 4, 5, memory_format=torch.channels_last_3d),
             lambda: torch.arange(6.0).contiguous(memory_format=torch.channels_last)]:
    try:
        make()
    except RuntimeError as ex:
        print(ex)
x = torch.arange(24.).reshape(1, 2, 3, 4)
print(torch.channels_last, type(torch.channels_last), torch.contiguous_format, torch.preserve_format, torch.channels_last_3d)
y = x.contiguous(memory_format=torch.channels_last)
print(y.contiguous(memory_format=torch.channels_last) is y, y.contiguous() is y, y.to(memory_format=torch.channels_last) is y, x.to(memory_format=torch.contiguous_format) is x)
print(y.to(torch.float64, memory_format=torch.channels_last).stride(), y.to(memory_format=torch.contiguous_format).stride())
print(torch.zeros_like(y, memory_format=torch.channels_last).stride(), torch.ones_like(x, memory_format=torch.channels_last).stride(), torch.empty_like(x, memory_format=torch.preserve_format).stride())
print(y.clone(memory_format=torch.channels_last).stride(), x.clone(memory_format=torch.preserve_format).stride())
print(y.tolist() == x.tolist(), (y * 2).sum().item())
m = torch.nn.Conv2d(2, 3, 1)
m = m.to(memory_format=torch.channels_last)
print(m.weight.stride(), m.bias.stride(), m(y).sum().item() - m(x).sum().item() == 0)

torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, 4, 1))
net = net.to(memory_format=torch.channels_last)
x = torch.randn(2, 3, 6, 6).to(memory_format=torch.channels_last)
x.requires_grad_(True)
y = net(x)
print(tuple(y.shape), round(y.sum().item(), 4))
y.square().mean().backward()
print(round(x.grad.abs().sum().item(), 4), round(net[0].weight.grad.abs().sum().item(), 4))
print(net[0].weight.is_contiguous(memory_format=torch.channels_last), net[1].weight.dim())


def f(t):
    u = t.contiguous(memory_format=torch.channels_last)
    return (u * 2).sum(dim=(2, 3)), u.is_contiguous(memory_format=torch.channels_last)


cf = torch.compile(f)
t = torch.randn(2, 3, 4, 5)
out, flag = cf(t)
print([round(v, 4) for v in out.flatten().tolist()][:6], flag)
g = torch.compile(lambda t: torch.empty_like(t, memory_format=torch.channels_last).fill_(1.0) + t)
print(g(t).stride(), round(g(t).sum().item(), 3))
w = torch.randn(3, 2, 1, 1)
print(w.contiguous(memory_format=torch.channels_last).stride(), w.to(memory_format=torch.channels_last).stride())
print(w.contiguous(memory_format=torch.preserve_format) is w)
try:
    torch.randn(2, 3, 4, 5).permute(0, 2, 3, 1).contiguous(memory_format=torch.preserve_format)
except RuntimeError as ex:
    print(ex)
try:
    w.is_contiguous(memory_format=3)
except TypeError as ex:
    print(ex)


@torch.compile
def to_channels_last(t):
    moved = t.to(memory_format=torch.channels_last)
    return moved * 2, moved.is_contiguous(memory_format=torch.channels_last)


doubled, flag = to_channels_last(t)
print(doubled.stride(), flag, round(doubled.sum().item(), 3))
