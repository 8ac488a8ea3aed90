# F.one_hot, F.normalize, F.cosine_similarity and F.pad (constant mode, negative pads crop) with
# PyTorch's values, gradients and errors, and compiled.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
labels = torch.tensor([2, 0, 1, 2])
print(F.one_hot(labels), F.one_hot(labels, 5).shape)
for bad in [lambda: F.one_hot(torch.tensor([1.0])), lambda: F.one_hot(labels, 2), lambda: F.one_hot(torch.tensor([-1]))]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
x = torch.randn(3, 4, requires_grad=True)
print(F.normalize(x), F.normalize(x, p=1.0, dim=0))
F.normalize(x).pow(3).sum().backward()
print(x.grad)
y = torch.randn(3, 4)
print(F.cosine_similarity(x, y), F.cosine_similarity(x, y[:1], dim=1))
z = torch.arange(6.0).reshape(2, 3)
print(F.pad(z, (1, 2)), F.pad(z, (0, 0, 1, 0), value=-1.0), F.pad(z, (-1, 1)))
def f(a, b):
    return (F.normalize(a) * F.pad(b, (1, 1))[:, 1:-1]).sum() + F.cosine_similarity(a, b).sum()
for backend in ["eager", "aot_eager", "inductor"]:
    torch._dynamo.reset()
    print(backend, f"{torch.compile(f, backend=backend)(x.detach(), y).item():.5f}")
