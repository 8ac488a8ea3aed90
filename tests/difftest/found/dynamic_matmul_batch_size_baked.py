# kiln: torch.matmul of a 3-d by a 2-d tensor under automatic dynamic shapes bakes the size of the
# call that made the graph dynamic into its reshape: at n=4 aot_eager raises "shape '[12, 7]' is
# invalid for input of size 112" (inductor returns a [3, 4, 3] result). PyTorch prints
# [2, 4, 3] / [3, 4, 3] / [4, 4, 3].
import torch


def f(a, w):
    return torch.matmul(a, w)


cf = torch.compile(f, backend="aot_eager")
for n in [2, 3, 4]:
    try:
        print(list(cf(torch.ones(n, 4, 7), torch.ones(7, 3)).shape))
    except RuntimeError as e:
        print("RuntimeError:", str(e)[:60])
