# The first script to run: a small MLP compiled with torch.compile, one graph break, one recompile.
# Runs unchanged under real PyTorch (python3 examples/quickstart.py) and under kiln.
import torch
import torch.nn as nn

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        print("hidden mean", round(h.mean().item(), 4))  # a graph break: print runs eagerly
        return self.fc2(h).softmax(dim=-1)


model = torch.compile(MLP())
out = model(torch.randn(2, 8))
print(out.shape)
out = model(torch.randn(3, 8))  # a new batch size: recompile
print(out.sum().item() > 0)
