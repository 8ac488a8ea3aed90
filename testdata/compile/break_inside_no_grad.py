# A graph break inside `with torch.no_grad()`: the first graph leaves the block (grad mode
# restored), the resume frame enters it again.
import torch


@torch.compile(backend="eager")
def fn(x):
    y = x * 2
    with torch.no_grad():
        z = y + 1
        print("inside")
        w = z * 3
    return w + y


x = torch.ones(3, requires_grad=True)
out = fn(x)
print(out, out.requires_grad)
