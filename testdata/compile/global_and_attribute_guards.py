# Globals and attributes the compiled code reads are guarded: changing SCALE or cfg.shift
# recompiles instead of reusing the old constants.
import torch

SCALE = 2.0


class Config:
    def __init__(self):
        self.shift = 1.0


cfg = Config()


@torch.compile(backend="eager")
def fn(x):
    return x * SCALE + cfg.shift


print(fn(torch.ones(2)))
SCALE = 3.0
print(fn(torch.ones(2)))
cfg.shift = 5.0
print(fn(torch.ones(2)))
