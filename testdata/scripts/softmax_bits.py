# softmax and log_softmax along the last dim to the last bit: ATen's kernel takes exp(x - max) with SLEEF's exp on
# whole vectors (64 bytes on AVX-512) and the partial last one, and sums them in its vector order
# (lane by lane, then its reduction across the lanes); glibc's exp and a 32-byte sum, which kiln
# used before, gave other bits for most elements of long float32 and float64 rows. Sums in
# float64 of every result show any differing bit.
import torch


def values(rows, n, salt, dtype):
    i = torch.arange(rows * n, dtype=torch.float64)
    return ((((i * 7919 + salt) % 1009) / 1009.0 - 0.5) * 12.0 + (i % 7) / 1000.0).to(dtype).reshape(rows, n)


for dtype in [torch.float32, torch.float64, torch.bfloat16]:
    for n in [1, 7, 8, 15, 16, 17, 33, 100, 1000, 1024, 4099]:
        x = values(3, n, n, dtype)
        for f in [torch.softmax, torch.log_softmax]:
            y = f(x, -1)
            yt = f(x.t().contiguous().t(), -1)
            print(dtype, n, f.__name__, repr(y.double().sum().item()), repr((y.double() * torch.arange(n)).sum().item()),
                  repr(yt.double().sum().item()), y[0, :3].tolist())
