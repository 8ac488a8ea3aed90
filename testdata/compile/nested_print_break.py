# A print two calls deep inside a compiled function breaks the graph in the helper's frame:
# the caller's graph so far is compiled and both frames resume after the call.
import torch

def log_and_scale(x):
    print("scaling", x.shape[0])
    return x * 3

def helper(x):
    y = x + 1
    return log_and_scale(y) - 2

@torch.compile(backend="eager")
def fn(x):
    a = x.sin()
    b = helper(a)
    return b.cos()

out = fn(torch.arange(4.0))
print("%.4f" % out.sum().item())
