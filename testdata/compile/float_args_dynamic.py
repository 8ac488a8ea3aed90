# A float argument first compiles as a constant; when a second value arrives, automatic dynamic
# makes it a graph input, so later values hit that entry instead of the cache limit.
import torch
import torch._dynamo

torch._dynamo.config.cache_size_limit = 2

@torch.compile(backend="eager")
def fn(x, scale):
    return x * scale

x = torch.ones(2)
for s in [0.5, 1.5, 2.5, 3.5, 0.5]:
    print(s, fn(x, s).tolist())
