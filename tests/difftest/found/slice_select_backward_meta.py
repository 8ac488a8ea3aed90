# kiln: any compiled backward through a slice or an integer index (aot_eager,
# aot_eager_decomp_partition, inductor) raises "aten::slice_backward (select_backward): attempted
# to run this operator with Meta tensors, but there was no fake impl or Meta kernel registered".
# PyTorch prints the gradients.
import torch


def f(a):
    return a[1:] * 2


def g(a):
    return a[1] * 2


for fn, x in [(f, torch.ones(4)), (g, torch.ones(3, 2))]:
    x.requires_grad_(True)
    try:
        torch.compile(fn, backend="aot_eager")(x).sum().backward()
        print(fn.__name__, x.grad.tolist())
    except RuntimeError as e:
        print(fn.__name__, "RuntimeError:", str(e)[:40])
