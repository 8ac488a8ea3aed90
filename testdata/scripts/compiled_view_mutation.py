# Writes through views inside compiled functions: AOT functionalizes them (the write reaches the
# view's base; other views of that base see it when next read), forward and backward, on every
# backend. Kiln refused these ("mutations of views are not functionalized yet"): 860 of 10,000
# random programs of the differential tester.
import torch


def setitem_of_a_clone(x):
    y = x.clone()
    y[0] += 1
    z = y[1:]
    z.mul_(2)
    return y, z.sum()


def write_then_read_other_views(x, w):
    h = x * w
    row = h[0]
    col = h[:, 2]
    h[:, 1] = h[:, 0] * 3
    col.add_(10)
    v = h.t()
    v.sub_(1)
    return (h * 2).sum() + row.sum(), h, row, col


def input_written_through_a_view(x):
    x[1].add_(5)
    x[:, 0] = -1
    return x * 1


def base_written_after_its_view(x):
    y = x + 0
    v = y[1:, ::2]
    y.mul_(3)
    return v * 1, v.sum()


def transposed_base(x):
    y = x.t().contiguous().t()
    y[1, 0] = 7
    y[0].fill_(2)
    return y + 0


# The clone of a transposed input keeps its layout, which the views' geometry is relative to;
# inductor laid the clone out row-major and handed that to as_strided_scatter.
def clone_of_a_transposed_input(a):
    v = a.clone()
    v.transpose(0, 1).mul_(2)
    v[0] += 1
    return v + 0, v.transpose(0, 1).bool()


# Writes to a base (laid out transposed) that has views: its new value keeps the base's layout.
def base_written_twice(x, o):
    y = x.clone()
    v = y[0]
    y.add_(o)
    w = y[:, 1]
    y.mul_(2)
    return v * 1, w + 0, y + 0


def grows(x):
    y = x * 2
    y[: x.shape[0] // 2] = 0
    return y


for backend in ["eager", "aot_eager", "aot_eager_decomp_partition", "inductor"]:
    x = torch.arange(6.0).reshape(2, 3)
    print(backend, setitem_of_a_clone(x.clone()), torch.compile(setitem_of_a_clone, backend=backend)(x))
    w = torch.arange(6.0).reshape(2, 3).requires_grad_()
    out = torch.compile(write_then_read_other_views, backend=backend)(torch.ones(2, 3), w)
    out[0].backward()
    print(backend, [t.tolist() for t in out], w.grad.tolist())
    xi = torch.arange(6.0).reshape(2, 3)
    print(backend, torch.compile(input_written_through_a_view, backend=backend)(xi).tolist(), xi.tolist())
    print(backend, [t.tolist() for t in torch.compile(base_written_after_its_view, backend=backend)(torch.arange(12.0).reshape(3, 4))])
    print(backend, torch.compile(transposed_base, backend=backend)(torch.arange(6.0).reshape(3, 2)).tolist())
    a = torch.arange(12.0).reshape(3, 4).t()
    print(backend, [t.tolist() for t in torch.compile(clone_of_a_transposed_input, backend=backend)(a)])
    o = torch.arange(12.0).reshape(4, 3) * 10
    print(backend, [t.tolist() for t in torch.compile(base_written_twice, backend=backend)(a, o)])
    run = torch.compile(grows, backend=backend)
    print(backend, [run(torch.ones(n)).tolist() for n in [4, 6, 8, 3]])
    torch._dynamo.reset()
