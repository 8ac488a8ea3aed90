# SimCLR-style contrastive learning: two noisy views of each sample, a shared encoder and
# projection head, embeddings L2-normalised, the NT-Xent loss (similarities over a temperature,
# the diagonal masked out, cross entropy against the partner's index); compiled.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, features=12, hidden=32, out=8):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(features, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(hidden, out))

    def forward(self, x):
        return F.normalize(self.head(self.body(x)), dim=1)


def nt_xent(a, b, temperature=0.5):
    z = torch.cat([a, b], dim=0)
    sim = z @ z.t() / temperature
    n = a.shape[0]
    sim = sim.masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


torch.manual_seed(21)
encoder = Encoder()
opt = torch.optim.SGD(encoder.parameters(), lr=0.1, momentum=0.9)
compiled = torch.compile(encoder, backend="aot_eager")
data = torch.randn(16, 12)
for step in range(4):
    view1 = data + 0.1 * torch.randn_like(data)
    view2 = data + 0.1 * torch.randn_like(data)
    loss = nt_xent(compiled(view1), compiled(view2))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
encoder.eval()
with torch.no_grad():
    e = compiled(data[:4])
    print(F.cosine_similarity(e[0:1], e, dim=1))
