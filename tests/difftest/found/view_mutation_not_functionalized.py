# kiln (aot_eager, aot_eager_decomp_partition, inductor): an in-place op on a view of an
# intermediate (`v[-1].add_(...)`, `v.transpose(0, 1).mul_(...)`) fails with "aot: add_.Tensor
# writes to a tensor that shares memory with another one the program traced (mutations of views
# are not functionalized yet)". PyTorch functionalizes it: prints [1.0, 2.0, 3.5].
import torch


def f(a):
    v = a * 1
    v[-1].add_(0.5)
    return v


try:
    print(torch.compile(f, backend="aot_eager")(torch.tensor([1.0, 2.0, 3.0])).tolist())
except Exception as e:
    print(type(e).__name__, [l for l in str(e).split("\n") if l][1][:90])
