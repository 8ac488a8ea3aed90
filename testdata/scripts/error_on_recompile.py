# torch._dynamo.config.recompile_limit (the newer name of cache_size_limit) and
# error_on_recompile: a recompile raises RecompileError.
import os.path

import torch
import torch._dynamo

x = torch.ones(2)
print(torch._dynamo.config.recompile_limit, torch._dynamo.config.cache_size_limit)
torch._dynamo.config.recompile_limit = 2
compiles = []


def counting(gm, example_inputs):
    compiles.append(1)
    return gm.forward


@torch.compile(backend=counting, dynamic=False)
def scaled(x, n):
    return x * n


for n in range(5):
    scaled(x, n)
print("compiles", len(compiles))
torch._dynamo.config.recompile_limit = 8

torch._dynamo.reset()
torch._dynamo.config.error_on_recompile = True
scaled(x, 1)
scaled(x, 1)
try:
    scaled(x, 2)
except torch._dynamo.exc.RecompileError as e:
    lines = str(e).replace(os.path.abspath(__file__), "<script>").splitlines()
    print(type(e).__name__ + ":", lines[0])
    print(lines[1])
    print(lines[2].split("  #")[0].rstrip())
torch._dynamo.config.error_on_recompile = False
print(scaled(x, 2))
