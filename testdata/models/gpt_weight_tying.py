# A character-level GPT: tied input/output embeddings, causal attention through
# F.scaled_dot_product_attention, GELU MLPs, init by Module.apply, AdamW with decay and no-decay
# groups, a warm-up + cosine LambdaLR, gradient clipping, trained compiled, then sampled with top-k.
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    vocab: int = 48
    context: int = 12
    width: int = 32
    heads: int = 4
    layers: int = 2


class CausalSelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.heads = cfg.heads
        self.qkv = nn.Linear(cfg.width, 3 * cfg.width)
        self.proj = nn.Linear(cfg.width, cfg.width)

    def forward(self, x):
        b, t, c = x.size()
        q, k, v = self.qkv(x).split(c, dim=2)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).contiguous().view(b, t, c))


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.width)
        self.attn = CausalSelfAttention(cfg)
        self.ln2 = nn.LayerNorm(cfg.width)
        self.mlp = nn.Sequential(nn.Linear(cfg.width, 4 * cfg.width), nn.GELU(), nn.Linear(4 * cfg.width, cfg.width))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.body = nn.ModuleDict(dict(
            tokens=nn.Embedding(cfg.vocab, cfg.width),
            positions=nn.Embedding(cfg.context, cfg.width),
            blocks=nn.ModuleList([Block(cfg) for _ in range(cfg.layers)]),
            norm=nn.LayerNorm(cfg.width),
        ))
        self.head = nn.Linear(cfg.width, cfg.vocab, bias=False)
        self.body.tokens.weight = self.head.weight
        self.apply(self._init)

    def _init(self, module):
        if isinstance(module, nn.Linear):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        t = idx.size(1)
        pos = torch.arange(0, t, dtype=torch.long)
        x = self.body.tokens(idx) + self.body.positions(pos)
        for block in self.body.blocks:
            x = block(x)
        x = self.body.norm(x)
        if targets is None:
            return self.head(x[:, [-1], :]), None
        logits = self.head(x)
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))

    @torch.no_grad()
    def sample(self, idx, steps, top_k):
        for _ in range(steps):
            logits, _ = self(idx[:, -self.cfg.context:])
            logits = logits[:, -1, :]
            kth, _ = torch.topk(logits, top_k)
            logits[logits < kth[:, [-1]]] = -float("inf")
            idx = torch.cat((idx, torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)), dim=1)
        return idx


torch.manual_seed(7)
cfg = Config()
model = GPT(cfg)
print(sum(p.numel() for p in model.parameters()), "parameters")
decay = [p for p in model.parameters() if p.dim() >= 2]
no_decay = [p for p in model.parameters() if p.dim() < 2]
optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}],
                              lr=3e-3, betas=(0.9, 0.95))
warmup, total = 2, 6
schedule = torch.optim.lr_scheduler.LambdaLR(
    optimizer, lambda step: (step + 1) / warmup if step < warmup else 0.5 * (1 + math.cos(math.pi * (step - warmup) / (total - warmup))))
data = torch.randint(0, cfg.vocab, (300,))
compiled = torch.compile(model)
for step in range(total):
    starts = torch.randint(len(data) - cfg.context - 1, (4,))
    x = torch.stack([data[s:s + cfg.context] for s in starts])
    y = torch.stack([data[s + 1:s + cfg.context + 1] for s in starts])
    _, loss = compiled(x, y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    schedule.step()
    print(step, f"loss {loss.item():.4f}", f"grad norm {norm.item():.4f}", f"lr {schedule.get_last_lr()[0]:.6f}")
model.eval()
print(model.sample(torch.zeros((2, 1), dtype=torch.long), 8, top_k=5).tolist())
