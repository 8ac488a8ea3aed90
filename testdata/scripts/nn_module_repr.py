# How nn.Module and its containers print, and their parameter and state_dict bookkeeping.
import torch
import torch.nn as nn

torch.manual_seed(0)
print(nn.Linear(3, 4), nn.Linear(3, 4, bias=False), nn.LayerNorm(8), nn.LayerNorm((2, 3), eps=1e-6, elementwise_affine=False))
print(nn.ReLU(), nn.GELU(), nn.GELU(approximate="tanh"), nn.Tanh(), nn.Sigmoid(), nn.MSELoss(), nn.CrossEntropyLoss())
print(nn.Dropout(0.25), nn.Softmax(dim=-1), nn.Identity(), nn.Embedding(10, 4))
seq = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Sequential(nn.Linear(8, 8), nn.Tanh()), nn.Linear(8, 2))
print(seq)
print(len(seq), seq[0], seq[-1], type(seq[1:3]).__name__, len(seq[1:3]), seq[2][0])
print(list(seq.state_dict().keys()))
print([(n, tuple(p.shape)) for n, p in seq.named_parameters()])
print(sum(p.numel() for p in seq.parameters()), len(list(seq.parameters())), len(list(seq.children())), len(list(seq.modules())))
print([n for n, _ in seq.named_modules()])
ml = nn.ModuleList([nn.Linear(2, 2), nn.ReLU()])
ml.append(nn.Tanh())
print(ml, len(ml), ml[1])
empty = nn.Sequential()
print(empty, nn.ModuleList())


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.scale = nn.Parameter(torch.ones(dim))
        self.register_buffer("steps", torch.zeros(1))

    def forward(self, x):
        return x + self.scale * self.mlp(self.norm(x))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(4) for _ in range(2)])
        self.head = nn.Linear(4, 3)

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.head(x)


m = Model()
print(m)
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_parameters()][:5], [n for n, _ in m.named_buffers()])
print(m.training, m.blocks[0].mlp.training, m.eval().training, m.blocks[0].mlp[1].training, m.train().head.training)
print(m(torch.randn(2, 4)).shape, isinstance(m.blocks, nn.ModuleList), isinstance(m.head, nn.Linear))
