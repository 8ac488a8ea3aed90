# A small training loop and a compiled function on the GPU: what Kiln prints against PyTorch
# (tests/device/compare). Losses are rounded: compiled kernels (Triton in PyTorch) may sum in
# another order than eager ones.
import torch

torch.manual_seed(0)
x = torch.randn(8, 16).cuda()
y = torch.randn(16, 4).cuda()


def f(a, b):
    return torch.relu(a @ b + 1).sum(1)


print(f(x, y))
print((torch.compile(f)(x, y) - f(x, y)).abs().max().item() < 1e-4)

model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 4))
print(next(model.parameters()).device)

# A compiled training step of a bfloat16 model (its fused kernels read and write bfloat16).
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.GELU(), torch.nn.LayerNorm(64), torch.nn.Linear(64, 4))
model = model.to(torch.bfloat16).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)


@torch.compile
def train_step(inputs):
    out = model(inputs)
    loss = out.float().pow(2).mean()
    loss.backward()
    return loss, out.dtype


for step in range(4):
    optimizer.zero_grad()
    loss, dtype = train_step(x.to(torch.bfloat16))
    optimizer.step()
    print("bfloat16", step, dtype, round(loss.item(), 1))  # bfloat16 rounding: one decimal
