# The recompile limit and the accumulated limit are separate settings: with recompile_limit
# raised, the accumulated limit still stops recompiling a frame, and the function runs eagerly
# from then on.
import torch
import torch._dynamo

torch._dynamo.config.cache_size_limit = 100
torch._dynamo.config.accumulated_recompile_limit = 4

@torch.compile(backend="eager", dynamic=False)
def fn(x):
    return x * 2 + 1

for n in range(1, 9):
    print(n, fn(torch.ones(n)).sum().item())
