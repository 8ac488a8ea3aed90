# torch.get_rng_state/set_rng_state (PyTorch's 5056-byte layout: the same bytes after a seed and
# draws, a saved state replays its draws, a Generator's own state) and torch.utils.checkpoint:
# reentrant (CheckpointFunctionBackward, dropout masks replayed at recomputation) and non-reentrant,
# gradients equal to an unchecked run; checkpoint_sequential; the errors.
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(3)
state = torch.get_rng_state()
print(state.dtype, state.shape, state[:12].tolist(), state[-20:].tolist())
a = torch.rand(3)
torch.randn(5)
torch.set_rng_state(state)
print(torch.equal(a, torch.rand(3)), torch.get_rng_state()[16:24].tolist())
normal_cached = torch.randn(1)
s2 = torch.get_rng_state()
print(s2[5016:5044].tolist())
g = torch.Generator().manual_seed(7)
gs = g.get_state()
first = torch.randint(0, 100, (4,), generator=g)
g.set_state(gs)
print(torch.equal(first, torch.randint(0, 100, (4,), generator=g)))
for bad in [lambda: torch.set_rng_state(torch.zeros(10, dtype=torch.uint8)), lambda: torch.set_rng_state(torch.zeros(5056))]:
    try:
        bad()
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)

torch.manual_seed(0)
block = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.3), nn.Linear(8, 4))
x = torch.randn(3, 4, requires_grad=True)


def grads(use):
    block.zero_grad()
    x.grad = None
    torch.manual_seed(11)
    out = use(x)
    out.pow(2).sum().backward()
    return out, x.grad.clone(), block[0].weight.grad.clone()


plain = grads(block)
reentrant = grads(lambda t: checkpoint(block, t, use_reentrant=True))
non_reentrant = grads(lambda t: checkpoint(block, t, use_reentrant=False))
print(reentrant[0].grad_fn.name(), non_reentrant[0].grad_fn.name())
for got in (reentrant, non_reentrant):
    print([torch.allclose(p, q) for p, q in zip(plain, got)])
seq = grads(lambda t: checkpoint_sequential(block, 2, t, use_reentrant=True))
print([torch.allclose(p, q) for p, q in zip(plain, seq)], seq[0].grad_fn.name())
try:
    checkpoint(block, x, use_reentrant=True, extra=1)
except ValueError as e:
    print(e)
with torch.no_grad():
    print(checkpoint(block, x, use_reentrant=True).requires_grad)
