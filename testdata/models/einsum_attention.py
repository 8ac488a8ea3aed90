# Multi-head self-attention written with einsum (scores "bhqd,bhkd->bhqk", values
# "bhqk,bhkd->bhqd"), a causal mask by masked_fill, rotary-free learned positions, a softplus-gated
# feed-forward; a tiny language model trained compiled by aot_eager.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class EinsumAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(c // self.heads)
        mask = torch.ones(t, t, dtype=torch.bool).triu(1)
        weights = scores.masked_fill(mask, float("-inf")).softmax(dim=-1)
        y = torch.einsum("bhqk,bhkd->bhqd", weights, v)
        return self.out(y.transpose(1, 2).reshape(b, t, c))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = EinsumAttention(dim, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.gate = nn.Linear(dim, 2 * dim)
        self.proj = nn.Linear(2 * dim, dim)

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.proj(F.softplus(self.gate(self.norm2(x))))


class TinyLM(nn.Module):
    def __init__(self, vocab=16, dim=16, heads=2, context=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.position = nn.Parameter(torch.zeros(context, dim))
        self.block = Block(dim, heads)
        self.norm = nn.LayerNorm(dim)

    def forward(self, ids):
        x = self.embed(ids) + self.position[: ids.shape[1]]
        return torch.einsum("btc,vc->btv", self.norm(self.block(x)), self.embed.weight)


torch.manual_seed(12)
model = TinyLM()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
compiled = torch.compile(model, backend="aot_eager")
data = torch.randint(0, 16, (4, 9))
for step in range(4):
    logits = compiled(data[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 16), data[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
