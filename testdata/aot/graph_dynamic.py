# Symbolic sizes (dynamic=True): the graphs take the sizes as Sym(s77) inputs, their tensors have
# symbolic sizes, size arguments are the size inputs (expand(tangents_1, [primals_1, primals_4])),
# and the forward saves the sizes the backward needs after the tensors. Then the inference graph
# for another batch size reuses the compile.
import torch


def f(x, w):
    return torch.nn.functional.gelu(x @ w).sum(0)


cf = torch.compile(f, backend="aot_eager", dynamic=True)
torch.manual_seed(0)
w = torch.randn(3, 5, requires_grad=True)
x = torch.randn(4, 3)
out = cf(x, w)
out.sum().backward()
compiled_grad = w.grad.clone()
w.grad = None
f(x, w).sum().backward()
print("grad_difference", float((compiled_grad - w.grad).abs().max()))
with torch.no_grad():
    print("values_difference", float((cf(torch.ones(6, 3), w) - f(torch.ones(6, 3), w)).abs().max()))
