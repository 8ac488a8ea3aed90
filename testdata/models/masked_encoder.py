# A BERT-style encoder written out by hand: token and position embeddings, multi-head attention
# with a key-padding mask applied by masked_fill before the softmax, dropout in training, pre-norm
# residual blocks, a masked-token objective whose ignored positions use ignore_index, AdamW, and
# evaluation in eval mode under torch.no_grad; compiled by aot_eager_decomp_partition, whose dropout
# draws from the eager generator as PyTorch's does (inductor's own random numbers are not kiln's).
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, width, heads, dropout):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, padding):
        b, t, c = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (z.reshape(b, t, self.heads, c // self.heads).permute(0, 2, 1, 3) for z in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(c // self.heads)
        scores = scores.masked_fill(padding[:, None, None, :], float("-inf"))
        weights = self.drop(torch.softmax(scores, dim=-1))
        return self.out((weights @ v).permute(0, 2, 1, 3).reshape(b, t, c))


class EncoderBlock(nn.Module):
    def __init__(self, width, heads, dropout):
        super().__init__()
        self.norm1 = nn.LayerNorm(width)
        self.attn = SelfAttention(width, heads, dropout)
        self.norm2 = nn.LayerNorm(width)
        self.ff = nn.Sequential(nn.Linear(width, 2 * width), nn.GELU(), nn.Dropout(dropout), nn.Linear(2 * width, width))

    def forward(self, x, padding):
        x = x + self.attn(self.norm1(x), padding)
        return x + self.ff(self.norm2(x))


class Encoder(nn.Module):
    def __init__(self, vocab=30, width=24, heads=3, depth=2, length=10, dropout=0.1):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width, padding_idx=0)
        self.positions = nn.Embedding(length, width)
        self.blocks = nn.ModuleList([EncoderBlock(width, heads, dropout) for _ in range(depth)])
        self.norm = nn.LayerNorm(width)
        self.predict = nn.Linear(width, vocab)

    def forward(self, ids):
        padding = ids == 0
        x = self.tokens(ids) + self.positions(torch.arange(ids.size(1)))
        for block in self.blocks:
            x = block(x, padding)
        return self.predict(self.norm(x))


torch.manual_seed(2)
model = Encoder()
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
ids = torch.randint(1, 30, (4, 10))
ids[0, 7:] = 0
ids[2, 5:] = 0
targets = ids.clone()
hidden = torch.rand(ids.shape) < 0.3
targets[~hidden | (ids == 0)] = -100
inputs = ids.masked_fill(hidden & (ids != 0), 1)
compiled = torch.compile(model, backend="aot_eager_decomp_partition")
for step in range(4):
    model.train()
    logits = compiled(inputs)
    loss = F.cross_entropy(logits.reshape(-1, 30), targets.reshape(-1), ignore_index=-100)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
model.eval()
with torch.no_grad():
    predicted = compiled(inputs).argmax(dim=-1)
print(predicted[hidden & (ids != 0)].tolist())
