# float64 sigmoid and silu to the last bit: ATen's vector loop computes exp with SLEEF's 1-ulp
# double exp on whole vectors (2 x 8 doubles on AVX-512) and libm's on the elements left over;
# glibc's vector exp, which kiln used before, gave other bits for about a fifth of these values.
# Sums in float64 of every result show any differing bit; the specials are printed one by one.
import torch
import torch.nn.functional as F


def values(n, scale):
    i = torch.arange(n, dtype=torch.float64)
    return (((i * 7919) % 10007) / 10007.0 - 0.5) * scale + (i % 13) / 1e6


specials = torch.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 709.78, 709.79, -709.78, -745.2, -745.1,
                         1e-310, -1e-310, 1000.0, -1000.0, -1000.5, 1e300, -1e300, 36.7, -36.7, -709.782712], dtype=torch.float64)
for scale in [20.0, 600.0, 2000.0]:
    x = values(20011, scale)
    for f in [torch.sigmoid, F.silu]:
        flat = f(x)
        transposed = f(x[:20010].reshape(2, -1).t())
        print(scale, f.__name__, repr(flat.sum().item()), repr(transposed.sum().item()), flat[:2].tolist())
for f in [torch.sigmoid, F.silu]:
    print(f.__name__, f(specials).tolist(), f(specials.repeat(2)).tolist()[20:])
