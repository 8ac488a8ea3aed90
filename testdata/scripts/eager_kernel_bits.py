# Eager kernels that take shortcuts where ATen does, to the same bits: float32/float64 pow with a
# Python number exponent of 2, 3, -0.5, -1 or -2 multiplies and takes square roots instead of
# calling pow (a correctly rounded pow differs in the last bit for some inputs, e.g. x ** -0.5
# against 1 / sqrt(x)). Sums in float64 of many results show any differing bit. (Exponent 0.5 is
# sqrt, which PyTorch's x86 wheels compute with MKL, not correctly rounded: not compared here.)
import torch


def values(n, dtype):
    i = torch.arange(n, dtype=torch.float64)
    return (((i * 7919) % 1000) / 37.0 + 0.013).to(dtype)


for dtype in [torch.float32, torch.float64]:
    x = values(5000, dtype)
    for e in [2, 3, -0.5, -1, -2, 1]:
        y = x.pow(e)
        print(dtype, e, y.dtype, repr(y.double().sum().item()), y[:3].tolist())
    print(dtype, "** 2", repr((x ** 2).double().sum().item()), "** -2", repr((x ** -2).double().sum().item()))
print(torch.pow(torch.arange(4), 2).tolist(), torch.tensor([2.0]).pow(-2).tolist(), torch.tensor([4.0], dtype=torch.float16).pow(3).tolist())

# amax/amin on whole vectors, in rows and down columns read in place: NaN wins wherever it is.
for dtype in [torch.float32, torch.float64]:
    x = values(64 * 37, dtype).reshape(64, 37) - 13.0
    x[5, 30] = float("nan")
    x[40, 2] = float("inf")
    for v in [x, x.t(), x[:, :32], x.reshape(8, 8, 37).permute(2, 0, 1)]:
        outs = [v.amax(-1), v.amin(-1), v.amax(0), v.amin(0), v.amax(), v.amin()]
        print(dtype, tuple(v.shape), [o.flatten().tolist()[:40] for o in outs])
