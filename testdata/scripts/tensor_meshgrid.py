# torch.meshgrid: "ij" and "xy" indexing, a list argument, three inputs, 0-d inputs, views that
# share the inputs' storage, and the errors (PyTorch prints a 2-d input the C++ way: not tested).
import torch

x = torch.tensor([1.0, 2.0, 3.0])
y = torch.tensor([4.0, 5.0])
gx, gy = torch.meshgrid(x, y, indexing="ij")
print(gx, gy, gx.shape, gx.stride())
hx, hy = torch.meshgrid([x, y], indexing="xy")
print(hx, hy, hy.stride())
a, b, c = torch.meshgrid(x, y, torch.tensor([7.0, 8.0, 9.0, 10.0]), indexing="xy")
print(a.shape, b.shape, c.shape, c[0, 0], b[1, 2, 3])
print([t.shape for t in torch.meshgrid(torch.tensor(3.0), x, indexing="ij")])
w = torch.tensor([0.5, 1.5], requires_grad=True)
u, v = torch.meshgrid(w, w, indexing="ij")
(u * v).sum().backward()
print(w.grad, u.grad_fn.name())
for bad in [lambda: torch.meshgrid(x, y, indexing="yx"), lambda: torch.meshgrid(x, torch.tensor([1, 2]), indexing="ij")]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
