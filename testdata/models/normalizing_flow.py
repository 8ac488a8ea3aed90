# A RealNVP-style normalizing flow on 2-d data: affine coupling layers with alternating binary
# masks, scales bounded by tanh, the log-determinant summed, negative log-likelihood under a
# standard normal base; trained compiled, then sampled by inverting the layers.
import math
import torch
import torch.nn as nn


class Coupling(nn.Module):
    def __init__(self, mask, hidden=32):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.ReLU(), nn.Linear(hidden, 4))

    def forward(self, x):
        kept = x * self.mask
        scale, shift = self.net(kept).chunk(2, dim=1)
        scale = torch.tanh(scale) * (1 - self.mask)
        shift = shift * (1 - self.mask)
        return kept + (1 - self.mask) * (x * torch.exp(scale) + shift), scale.sum(dim=1)

    def inverse(self, y):
        kept = y * self.mask
        scale, shift = self.net(kept).chunk(2, dim=1)
        scale = torch.tanh(scale) * (1 - self.mask)
        return kept + (1 - self.mask) * ((y - shift) * torch.exp(-scale))


class Flow(nn.Module):
    def __init__(self, layers=4):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]) if i % 2 == 0 else torch.tensor([0.0, 1.0]) for i in range(layers)]
        self.layers = nn.ModuleList(Coupling(m) for m in masks)

    def forward(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        log_prob = -0.5 * (x ** 2).sum(dim=1) - math.log(2 * math.pi)
        return -(log_prob + log_det).mean()

    def sample(self, z):
        for layer in reversed(self.layers):
            z = layer.inverse(z)
        return z


torch.manual_seed(13)
flow = Flow()
opt = torch.optim.Adam(flow.parameters(), lr=1e-2)
nll = torch.compile(flow, backend="aot_eager")
data = torch.randn(128, 2) * torch.tensor([2.0, 0.5]) + torch.tensor([1.0, -1.0])
for step in range(4):
    loss = nll(data)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
with torch.no_grad():
    print(flow.sample(torch.randn(3, 2)))
