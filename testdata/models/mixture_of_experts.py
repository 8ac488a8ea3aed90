# A mixture-of-experts feed-forward layer: a router picks the top-2 experts per token (topk over a
# softmax), each expert's output is weighted by the renormalised gates of the tokens routed to it
# (dense dispatch, as small MoEs compile it), with a load-balancing auxiliary loss; trained
# compiled with Adam.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, width, hidden):
        super().__init__()
        self.up = nn.Linear(width, hidden)
        self.down = nn.Linear(hidden, width)

    def forward(self, x):
        return self.down(F.gelu(self.up(x)))


class MoE(nn.Module):
    def __init__(self, width=16, hidden=32, experts=4, top_k=2):
        super().__init__()
        self.router = nn.Linear(width, experts, bias=False)
        self.experts = nn.ModuleList([Expert(width, hidden) for _ in range(experts)])
        self.top_k = top_k

    def forward(self, x):
        tokens = x.reshape(-1, x.size(-1))
        probs = F.softmax(self.router(tokens), dim=-1)
        gates, chosen = torch.topk(probs, self.top_k, dim=-1)
        gates = gates / gates.sum(dim=-1, keepdim=True)
        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            weight = (gates * (chosen == e)).sum(dim=-1, keepdim=True)
            out = out + expert(tokens) * weight
        load = probs.mean(dim=0)
        aux = (load * load).sum() * len(self.experts)
        return out.reshape(x.shape), aux


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(8, 16)
        self.moe = MoE()
        self.norm = nn.LayerNorm(16)
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        h = self.embed(x)
        moe_out, aux = self.moe(h)
        return self.head(self.norm(h + moe_out)).mean(dim=1), aux


torch.manual_seed(3)
model = Model()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
step = torch.compile(model)
x = torch.randn(6, 5, 8)
y = torch.randint(0, 3, (6,))
for i in range(5):
    logits, aux = step(x)
    loss = F.cross_entropy(logits, y) + 0.01 * aux
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(i, f"{loss.item():.4f}", f"{aux.item():.4f}")
with torch.no_grad():
    _, chosen = torch.topk(F.softmax(model.moe.router(model.embed(x).reshape(-1, 16)), -1), 2)
print([(chosen == e).sum().item() for e in range(4)])
