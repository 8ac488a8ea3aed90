# F.leaky_relu and nn.LeakyReLU as the aten op (LeakyReluBackward0), in place, refused for integers, and compiled by every backend.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
y = F.leaky_relu(x, 0.2)
print(y)
y.sum().backward()
print(x.grad)
m = torch.nn.LeakyReLU(0.1)
print(m(torch.tensor([-2.0, 0.0, 3.0])))
z = torch.tensor([-2.0, 1.0, -0.5])
F.leaky_relu(z, 0.5, inplace=True)
print(z)
try:
    F.leaky_relu(torch.tensor([1, -2]))
except RuntimeError as e:
    print(e)
def f(x):
    return F.leaky_relu(x * 2, 0.3).sum()
for backend in ["eager", "aot_eager", "aot_eager_decomp_partition", "inductor"]:
    torch._dynamo.reset()
    xx = x.detach().clone().requires_grad_(True)
    out = torch.compile(f, backend=backend)(xx)
    out.backward()
    print(backend, out.item(), xx.grad.sum().item())
