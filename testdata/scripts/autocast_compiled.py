# torch.autocast around and inside compiled functions, for every backend: the dtypes and losses of
# PyTorch 2.11, and a recompile when autocast is switched off again.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 4))
x = torch.randn(5, 8)
target = torch.randint(0, 4, (5,))


def step(model, x):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = model(x)
        loss = F.cross_entropy(logits, target)
    return logits, loss


def plain(model, x):
    logits = model(x)
    return logits, F.cross_entropy(logits, target)


for backend in ["eager", "aot_eager", "inductor"]:
    torch._dynamo.reset()
    compiled_step = torch.compile(step, backend=backend)
    logits, loss = compiled_step(model, x)
    loss.backward()
    print(backend, "inside", logits.dtype, loss.dtype, f"{loss.item():.4f}", model[0].weight.grad.dtype)
    model.zero_grad()
    compiled_plain = torch.compile(plain, backend=backend)
    with torch.autocast("cpu"):
        logits, loss = compiled_plain(model, x)
    print(backend, "outside", logits.dtype, loss.dtype, f"{loss.item():.4f}")
    logits, loss = compiled_plain(model, x)
    print(backend, "after", logits.dtype, loss.dtype, f"{loss.item():.4f}")
