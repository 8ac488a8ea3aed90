# Writes through views of an input whose elements are not dense in memory (x[::2], a column
# slice): the base's value in the graph is contiguous once written, so each view's place in it is
# re-measured in steps of the base's dims (was refused: "its base's elements are not dense";
# difftest seeds 6302, 6417, 6959, 7933, 9875, 9993, 10472).
import torch


def write_last(a0):
    a0[-1] *= 2
    v2 = a0.sin()
    return v2[torch.tensor([2, 2])]


def write_column_and_row(x):
    y = x[:, ::2]
    w = x[1]
    x.t()[0].mul_(3)
    y[0, 1:].add_(1)
    return x * 1, y + 0, w * 1


for backend in ["eager", "aot_eager", "aot_eager_decomp_partition", "inductor"]:
    base = torch.arange(12.0)
    out = torch.compile(write_last, backend=backend)(base[::2])
    print(backend, out.tolist(), base.tolist())
    xb = torch.arange(24.0).reshape(4, 6)
    print(backend, [t.tolist() for t in torch.compile(write_column_and_row, backend=backend)(xb[:, ::2])], xb.tolist())
    torch._dynamo.reset()


# A write through a view of an expanded input (its elements overlap): a clear error, as PyTorch's.
def write_expanded(x):
    x[0, 0].add_(1)
    return x * 1


try:
    torch.compile(write_expanded, backend="aot_eager")(torch.zeros(4).expand(3, 4))
except Exception as e:
    print(type(e).__name__)
