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
