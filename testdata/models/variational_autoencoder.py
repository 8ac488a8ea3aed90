# A variational autoencoder on synthetic binary images: an MLP encoder to mean and log-variance,
# the reparameterisation trick with torch.randn_like, a sigmoid decoder scored by binary cross
# entropy (summed) plus the analytic KL term, Adam, compiled with aot_eager so the noise is
# drawn by the eager generator, then decoding of prior samples.
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, pixels=36, hidden=24, latent=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(pixels, hidden), nn.ReLU())
        self.mean = nn.Linear(hidden, latent)
        self.log_var = nn.Linear(hidden, latent)
        self.decoder = nn.Sequential(nn.Linear(latent, hidden), nn.ReLU(), nn.Linear(hidden, pixels), nn.Sigmoid())

    def forward(self, x):
        h = self.encoder(x)
        mu, log_var = self.mean(h), self.log_var(h)
        std = torch.exp(0.5 * log_var)
        z = mu + std * torch.randn_like(std)
        return self.decoder(z), mu, log_var


def loss_fn(reconstruction, x, mu, log_var):
    bce = F.binary_cross_entropy(reconstruction, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + log_var - mu.pow(2) - log_var.exp())
    return (bce + kld) / x.size(0), bce, kld


torch.manual_seed(4)
images = (torch.rand(16, 36) > 0.6).float()
model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
compiled = torch.compile(model, backend="aot_eager")
for epoch in range(5):
    reconstruction, mu, log_var = compiled(images)
    loss, bce, kld = loss_fn(reconstruction, images, mu, log_var)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, f"{loss.item():.4f}", f"{bce.item():.3f}", f"{kld.item():.4f}")
with torch.no_grad():
    samples = model.decoder(torch.randn(3, 4))
print((samples > 0.5).int().sum(dim=1).tolist())
