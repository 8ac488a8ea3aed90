# torch.autocast's weight cache: a float32 weight used four times in a region is cast once (its
# gradients meet in bfloat16 before the cast's backward, as in PyTorch: the same bits), each
# use casts apart with cache_enabled=False; a Parameter and a detach() are no views (_base None).
import torch
torch.manual_seed(0)
lin = torch.nn.Linear(16, 16)
x = torch.randn(8, 16)
with torch.autocast("cpu", dtype=torch.bfloat16):
    h = x
    for _ in range(4):          # the same weight four times: one cast under the cache
        h = torch.tanh(lin(h))
    loss = h.float().pow(2).sum()
loss.backward()
print(loss.item())
print(lin.weight.grad.sum().item(), lin.weight.grad[0, :4].tolist())
print(lin.bias.grad[:4].tolist())
lin.zero_grad()
with torch.autocast("cpu", dtype=torch.bfloat16, cache_enabled=False):
    h = x
    for _ in range(4):
        h = torch.tanh(lin(h))
    loss = h.float().pow(2).sum()
loss.backward()
print(lin.weight.grad.sum().item(), lin.weight.grad[0, :4].tolist())
def graph_of(t):
    seen, names, stack = set(), [], [t.grad_fn]
    while stack:
        f = stack.pop()
        if f is None or f in seen: continue
        seen.add(f); names.append(type(f).__name__ if not hasattr(f, "name") else f.name())
        stack.extend(n for n, _ in f.next_functions)
    return sorted(names)
with torch.autocast("cpu", dtype=torch.bfloat16):
    out = lin(lin(x))
print(graph_of(out).count("ToCopyBackward0"))
print(lin.weight._base is None, x.detach()._base is None, x.detach()._is_view(), x[0]._base is x)
