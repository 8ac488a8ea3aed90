# With dynamic=False each float argument is a specialized constant; with cache_size_limit = 2
# the third value hits the limit and the function runs eagerly from then on.
import torch
import torch._dynamo

torch._dynamo.config.cache_size_limit = 2

@torch.compile(backend="eager", dynamic=False)
def fn(x, scale):
    return x * scale

x = torch.ones(2)
for s in [0.5, 1.5, 2.5, 3.5, 0.5]:
    print(s, fn(x, s).tolist())
