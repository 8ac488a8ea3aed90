# kiln (aot_eager and the other AOT backends), automatic dynamic shapes: when two inputs' dynamic
# sizes have the same value at the recompile (6 and 6) and are not given one symbol, tracing fails:
# "aot: aten.view.default takes the size 6, the value of several dynamic sizes of different
# symbols; which one it is cannot be traced (mark the inputs static, or call with sizes that
# differ)". PyTorch (duck sizing) prints 4 [4] / 6 [6] / 8 [8].
import torch


def f(a0, a1):
    v1 = a1[::2]
    return torch.softmax(a0.reshape(-1), dim=0)


cf = torch.compile(f, backend="aot_eager")
for n in [4, 6, 8]:
    print(n, list(cf(torch.ones(n), torch.ones(2 * n)[::2]).shape))
