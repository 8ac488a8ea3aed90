# Models whose one relu sits at different depths of the graph, for the minifier's acceptance
# matrix (tests/apps/minify/minify_acceptance_test.cpp): every minify level and --after mode must
# end at that relu. The testing backends misbehave on relu (libcompiler/backends/testing_backends.h).
#   kiln bug_position_models.py MODEL MODE BACKEND [INJECT]
# MODEL: first (the relu is the graph's first op), middle, last (its last op), conv (conv, batch
# norm, relu, pooling), attention (the relu in the block's MLP).
# MODE: infer (under no_grad: a forward graph) or train (a loss and its backward).
# INJECT: torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY, for aot_eager_relu_bug_TESTING_ONLY.
import sys

import torch
import torch._inductor.config as iconfig
import torch.nn as nn
import torch.nn.functional as F

model_name, mode, backend = sys.argv[1], sys.argv[2], sys.argv[3]
if len(sys.argv) > 4:
    iconfig.cpp.inject_relu_bug_TESTING_ONLY = sys.argv[4]


class ReluFirst(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(16, 16)
        self.b = nn.Linear(16, 8)

    def forward(self, x):
        x = torch.relu(x)
        x = torch.tanh(self.a(x)) * 0.5 + x.mean(dim=-1, keepdim=True)
        return torch.sigmoid(self.b(x)) * 2.0


class ReluMiddle(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(16, 16) for _ in range(4)])

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = torch.tanh(layer(x)) * 0.5 + x
            if i == 1:
                x = torch.relu(x) + 1
        return x.sum(dim=-1)


class ReluLast(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(16, 16)
        self.norm = nn.LayerNorm(16)

    def forward(self, x):
        x = self.norm(torch.sigmoid(self.a(x)) * x)
        return torch.relu(x - 0.1)


class ConvBnRelu(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        x = F.relu(self.bn(self.conv(x)))
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.head(x)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(16, 48)
        self.up = nn.Linear(16, 32)
        self.down = nn.Linear(32, 16)

    def forward(self, x):
        q, k, v = self.qkv(x).split(16, dim=-1)
        weights = torch.softmax(q @ k.transpose(-2, -1) / 4.0, dim=-1)
        x = x + weights @ v
        return x + self.down(torch.relu(self.up(x)))


models = {"first": (ReluFirst, (8, 16)), "middle": (ReluMiddle, (8, 16)), "last": (ReluLast, (8, 16)),
          "conv": (ConvBnRelu, (2, 3, 6, 6)), "attention": (Attention, (2, 5, 16))}
model_class, shape = models[model_name]
torch.manual_seed(0)
model = model_class()
if model_name == "conv":
    model.eval()  # batch norm with its running statistics: the relu's input does not depend on the batch alone
x = torch.randn(*shape)
compiled = torch.compile(model, backend=backend)
if mode == "train":
    loss = compiled(x).square().mean()
    loss.backward()
    print("loss", round(loss.item(), 4))
else:
    with torch.no_grad():
        out = compiled(x)
        ref = model(x)
    print("max abs diff", (out - ref).abs().max().item())
