# A module's float and int attributes are guarded: changing them recompiles.
import torch

class Scaler(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 2.0
        self.shift = 1

    def forward(self, x):
        return x * self.scale + self.shift

m = Scaler()

@torch.compile(backend="eager")
def fn(x):
    return m(x).relu()

x = torch.arange(-2.0, 2.0)
print(fn(x).tolist())
print(fn(x).tolist())
m.scale = 0.5
print(fn(x).tolist())
m.shift = 3
print(fn(x).tolist())
