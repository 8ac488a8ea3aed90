# A small GAN on 2-d points: generator and discriminator MLPs with LeakyReLU, the non-saturating
# loss by BCEWithLogits, the generator's samples detached for the discriminator step, two Adam
# optimizers with betas (0.5, 0.999); both networks compiled.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, noise=4, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(noise, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, 2))

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, hidden), nn.LeakyReLU(0.2))
        self.score = nn.Linear(hidden, 1)

    def forward(self, points):
        return self.score(self.body(points))


torch.manual_seed(11)
generator = Generator()
discriminator = Discriminator()
g_opt = torch.optim.Adam(generator.parameters(), lr=2e-3, betas=(0.5, 0.999))
d_opt = torch.optim.Adam(discriminator.parameters(), lr=2e-3, betas=(0.5, 0.999))
g = torch.compile(generator)
d = torch.compile(discriminator)
bce = nn.BCEWithLogitsLoss()
angles = torch.linspace(0, 6.2831853, 64)
real = torch.stack([angles.cos(), angles.sin()], dim=1)
for step in range(4):
    noise = torch.randn(64, 4)
    fake = g(noise)
    d_loss = bce(d(real), torch.ones(64, 1)) + bce(d(fake.detach()), torch.zeros(64, 1))
    d_opt.zero_grad()
    d_loss.backward()
    d_opt.step()
    g_loss = bce(d(fake), torch.ones(64, 1))
    g_opt.zero_grad()
    g_loss.backward()
    g_opt.step()
    print(step, f"{d_loss.item():.4f}", f"{g_loss.item():.4f}", f"{fake.norm(dim=1).mean().item():.4f}")
with torch.no_grad():
    print(torch.sigmoid(d(real[:4])).squeeze(1))
