# A small GPT trained the way nanoGPT trains on a GPU: bfloat16 autocast around a compiled model's
# forward and loss, AdamW, gradient clipping, and a float16 variant with GradScaler. Losses are
# rounded to two decimals (bfloat16 matmuls may sum in another order than PyTorch's); the time of a
# step goes to standard error.
import math
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)

    def forward(self, x):
        batch, length, width = x.shape
        q, k, v = self.qkv(x).split(width, dim=2)
        q, k, v = (t.view(batch, length, self.heads, width // self.heads).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).contiguous().view(batch, length, width))


class Block(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.ln_1 = nn.LayerNorm(width)
        self.attn = Attention(width, heads)
        self.ln_2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(approximate="tanh"), nn.Linear(4 * width, width))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, vocab=512, context=128, width=256, heads=8, layers=4):
        super().__init__()
        self.wte = nn.Embedding(vocab, width)
        self.wpe = nn.Embedding(context, width)
        self.blocks = nn.ModuleList(Block(width, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)
        self.wte.weight = self.head.weight
        for name, p in self.named_parameters():
            if name.endswith("proj.weight"):
                nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * layers))

    def forward(self, idx, targets):
        positions = torch.arange(idx.shape[1], device=idx.device)
        x = self.wte(idx) + self.wpe(positions)
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln_f(x))
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def train(dtype, steps=8):
    torch.manual_seed(0)
    model = GPT().cuda()
    compiled = torch.compile(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, betas=(0.9, 0.95), weight_decay=0.1)
    scaler = torch.amp.GradScaler("cuda", enabled=dtype == torch.float16)
    data = torch.randint(0, 512, (8, 129), device="cuda")
    inputs, targets = data[:, :-1].contiguous(), data[:, 1:].contiguous()
    times = []
    for step in range(steps):
        torch.cuda.synchronize()
        start = time.perf_counter()
        with torch.autocast("cuda", dtype=dtype):
            logits, loss = compiled(inputs, targets)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
        # The float16 run's logits are not printed: PyTorch 2.11 gave them as bfloat16 on the H200 (its
        # AOT autograd cache keys autocast by "any autocast enabled", so the graph the bfloat16 run
        # compiled came back for the float16 one); kiln's are float16, as autocast says.
        print(str(dtype), step, logits.dtype if dtype == torch.bfloat16 else "", loss.dtype, f"{loss.item():.2f}",
              f"{norm.item():.1f}")
    print(f"{dtype}: first step {times[0] * 1000:.0f} ms, later steps {min(times[2:]) * 1000:.2f} ms", file=sys.stderr)


train(torch.bfloat16)
train(torch.float16)
