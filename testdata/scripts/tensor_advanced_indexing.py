# Advanced indexing as PyTorch computes it: integer lists and tensors (negative, broadcast,
# adjacent or apart), boolean masks to read, masked assignment, gradients, errors, and compiled.
import torch
torch.manual_seed(0)
x = torch.arange(24.0).reshape(2, 3, 4)
print(x[:, [-1], :], x[:, [0, 2]].shape)
print(x[[1, 0], [2, 1]], x[[1, 0], :, [3, 0]])
print(x[:, torch.tensor([[0, 1], [2, 2]])].shape, x[..., torch.tensor([1, -1])])
print(x[torch.tensor([0, 1]), torch.tensor([1])].shape, x[1, [0, 2], 1:3])
print(x[x > 20], x[torch.tensor([True, False])].shape, x[:, [True, False, True]].shape)
y = torch.randn(3, 4)
y[y < 0] = -1.0
print(y)
y[:, torch.tensor([True, False, False, True])] = torch.tensor(9.0)
print(y)
logits = torch.randn(2, 6)
v, _ = torch.topk(logits, 2)
logits[logits < v[:, [-1]]] = -float("Inf")
print(logits)
w = torch.randn(4, 3, requires_grad=True)
(w[[0, 2, 2], [1, 1, 0]] * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(w.grad)
for bad in [lambda: x[[0, 5]], lambda: x[:, :, :, [0]], lambda: x[:, torch.tensor([1.0])]]:
    try:
        bad()
    except IndexError as e:
        print("IndexError:", e)
def pick(q, idx):
    return q[:, idx] * 2 + q[torch.arange(3), idx]
q = torch.randn(3, 5)
idx = torch.tensor([4, 0, 2])
for backend in ["eager", "aot_eager", "inductor"]:
    torch._dynamo.reset()
    print(backend, torch.compile(pick, backend=backend)(q, idx).sum().item() == pick(q, idx).sum().item())
