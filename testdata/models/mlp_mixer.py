# MLP-Mixer on token sequences: token-mixing MLPs across the sequence (by transposes) and
# channel-mixing MLPs across features, LayerNorm and GELU, mean pooling; trained compiled.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MixerBlock(nn.Module):
    def __init__(self, tokens, dim, token_hidden=16, channel_hidden=32):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.tokens = nn.Sequential(nn.Linear(tokens, token_hidden), nn.GELU(), nn.Linear(token_hidden, tokens))
        self.norm2 = nn.LayerNorm(dim)
        self.channels = nn.Sequential(nn.Linear(dim, channel_hidden), nn.GELU(), nn.Linear(channel_hidden, dim))

    def forward(self, x):
        x = x + self.tokens(self.norm1(x).transpose(1, 2)).transpose(1, 2)
        return x + self.channels(self.norm2(x))


class Mixer(nn.Module):
    def __init__(self, vocab=20, tokens=10, dim=16, depth=2, classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList([MixerBlock(tokens, dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, ids):
        x = self.embed(ids)
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x).mean(dim=1))


torch.manual_seed(4)
model = Mixer()
opt = torch.optim.RMSprop(model.parameters(), lr=1e-3)
compiled = torch.compile(model, backend="aot_eager_decomp_partition")
ids = torch.randint(0, 20, (8, 10))
labels = ids[:, 0] % 3
for step in range(4):
    loss = F.cross_entropy(compiled(ids), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
