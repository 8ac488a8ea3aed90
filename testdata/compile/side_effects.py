# Code that changes objects the compiled frame did not create (a module counter, a global list):
# PyTorch replays such side effects after the graph; the counts must come out right either way.
import torch


class Counting(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return x * 2


m = Counting()
log = []


@torch.compile(backend="eager")
def fn(x):
    log.append(1)
    return m(x) + 1


for _ in range(3):
    out = fn(torch.ones(2))
print(out, m.calls, len(log))
