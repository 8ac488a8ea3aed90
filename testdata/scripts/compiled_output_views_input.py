# A compiled graph's output that is a view of its input leaves as a view of that input, so its
# gradient reaches the input through the view alone: backward through it never runs the compiled
# backward, and inputs that only the graph's other outputs use keep grad None. Decided from the
# trace, not from the storage a backend's output shares (an empty view comes back from inductor as
# a fresh tensor).
import torch


def empty_view_beside_item(a0, a1):
    v = a0[:-1]
    s = a1.sum().item()
    return v * s, (v * s).relu()


def view_beside_item(a0, a1):
    v = a0[1:]
    s = a1.sum().item()
    return v * s


def view_and_product(x, y):
    return x.t(), x * y


for backend in ["eager", "aot_eager", "aot_eager_decomp_partition", "inductor"]:
    a0 = torch.ones(1, requires_grad=True)
    a1 = torch.ones(2, requires_grad=True)
    out = torch.compile(empty_view_beside_item, backend=backend)(a0, a1)
    (out[0].sum() + out[1].sum()).backward()
    print(backend, a0.grad, a1.grad)
    a0 = torch.arange(4.0, requires_grad=True)
    a1 = torch.ones(3, requires_grad=True)
    torch.compile(view_beside_item, backend=backend)(a0, a1).sum().backward()
    print(backend, a0.grad, a1.grad)
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    y = torch.full((2, 3), 2.0, requires_grad=True)
    t, p = torch.compile(view_and_product, backend=backend)(x, y)
    t.sum().backward()
    print(backend, t._base is x, x.grad.tolist(), y.grad)
    torch._dynamo.reset()
