# A keyword spotter on toy audio features: a Conv1d front end over time, a bidirectional GRU, the
# final hidden states of both directions concatenated into a classifier; label-smoothed cross
# entropy, gradient-norm clipping, Adam with a OneCycle schedule. Compiled, but Dynamo does not
# trace the GRU: the forward, whose first statement calls it, runs eagerly.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Spotter(nn.Module):
    def __init__(self, features=8, channels=12, hidden=16, keywords=4):
        super().__init__()
        self.front = nn.Conv1d(features, channels, kernel_size=3, padding=1)
        self.gru = nn.GRU(channels, hidden, batch_first=True, bidirectional=True)
        self.classify = nn.Linear(2 * hidden, keywords)

    def forward(self, frames):
        _, h = self.gru(F.relu(self.front(frames.transpose(1, 2))).transpose(1, 2))
        return self.classify(torch.cat([h[0], h[1]], dim=-1))


torch.manual_seed(14)
model = Spotter()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=5)
compiled = torch.compile(model, backend="aot_eager")
frames = torch.randn(6, 10, 8)
labels = torch.tensor([0, 1, 2, 3, 1, 2])
for step in range(4):
    loss = F.cross_entropy(compiled(frames), labels, label_smoothing=0.05)
    opt.zero_grad()
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    print(step, f"{loss.item():.4f}", f"{norm.item():.4f}", f"{sched.get_last_lr()[0]:.6f}")
