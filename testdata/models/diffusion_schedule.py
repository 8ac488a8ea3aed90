# A denoising diffusion model on 2-D points: a linear beta schedule, alpha-bar by cumprod, noisy
# samples q(x_t | x_0) built with gather'ed schedule entries, a sinusoidal timestep embedding, an
# MLP noise predictor trained on MSE with compiled steps, and a few deterministic DDIM-style
# denoising steps at the end.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

steps = 50
betas = torch.linspace(1e-4, 0.05, steps)
alphas = 1.0 - betas
alpha_bar = torch.cumprod(alphas, dim=0)
sqrt_ab = alpha_bar.sqrt()
sqrt_one_minus_ab = (1.0 - alpha_bar).sqrt()


def timestep_embedding(t, dim=8):
    half = dim // 2
    freqs = torch.exp(-math.log(1000.0) * torch.arange(half, dtype=torch.float32) / half)
    angles = t.float().unsqueeze(-1) * freqs.unsqueeze(0)
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=-1)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 + 8, 32), nn.SiLU(), nn.Linear(32, 32), nn.SiLU(), nn.Linear(32, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, timestep_embedding(t)], dim=-1))


def q_sample(x0, t, noise):
    a = sqrt_ab.gather(0, t).unsqueeze(-1)
    b = sqrt_one_minus_ab.gather(0, t).unsqueeze(-1)
    return a * x0 + b * noise


torch.manual_seed(6)
angle = torch.rand(64) * 2 * math.pi
data = torch.stack([angle.cos(), angle.sin()], dim=1)
model = Denoiser()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
predict = torch.compile(model)
print(f"alpha_bar[-1] {alpha_bar[-1].item():.6f}")
for it in range(5):
    t = torch.randint(0, steps, (64,))
    noise = torch.randn_like(data)
    loss = F.mse_loss(predict(q_sample(data, t, noise), t), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.4f}")
x = torch.randn(4, 2)
with torch.no_grad():
    for step in [49, 30, 10, 0]:
        t = torch.full((4,), step, dtype=torch.long)
        eps = predict(x, t)
        x0 = (x - sqrt_one_minus_ab[step] * eps) / sqrt_ab[step]
        x = x0 if step == 0 else sqrt_ab[max(step - 20, 0)] * x0 + sqrt_one_minus_ab[max(step - 20, 0)] * eps
print([[round(v, 3) for v in row] for row in x.tolist()])
