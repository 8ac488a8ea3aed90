# layer_norm's outputs to the last bit: PyTorch's CPU kernel takes the statistics in its own order
# (Welford per 32-byte vector lane, a cascade over chunks, a scalar tail), which kiln follows;
# bfloat16 and float16 rows in the order ATen takes for them (16-element vectors as two float
# vectors, the output as x * rstd - rstd * mean). Long rows print every 61st output and the
# float64 sum of all of them, which moves with any last bit. Ill-conditioned programs show the difference (difftest seeds 3820, 4297,
# 8921: normalized values that sum to about 0, then `% 3`, are 3.0 or 1e-8 by the last bit).
import torch
import torch.nn.functional as F


def values(n, salt, dtype):
    i = torch.arange(n)
    return (((i * 37 + salt * 13) % 101 - 50).to(torch.float64) / 25.0 + ((i * 7 + salt) % 13).to(torch.float64) / 1000.0).to(dtype)


for dtype in [torch.float32, torch.float64]:
    for n in list(range(1, 70)) + [255, 256]:
        for salt in range(2):
            x = values(n, salt, dtype).reshape(1, n)
            y, mean, rstd = torch.native_layer_norm(x, [n], None, None, 1e-5)
            y2 = F.layer_norm(x, [n], values(n, salt + 5, dtype), values(n, salt + 9, dtype))
            print(dtype, n, salt, mean.item(), rstd.item(), y.flatten().tolist(), y2.flatten().tolist())



for dtype in [torch.float32, torch.float64, torch.bfloat16, torch.float16]:
    for n in ([] if dtype in (torch.float32, torch.float64) else list(range(1, 40)) + [255, 256]) + [257, 1000, 4097]:
        for salt in range(2):
            x = (values(n, salt, torch.float64) * 3 + 7).to(dtype).reshape(1, n)
            y, mean, rstd = torch.native_layer_norm(x, [n], None, None, 1e-5)
            y2 = F.layer_norm(x, [n], values(n, salt + 5, dtype), values(n, salt + 9, dtype))
            print(dtype, n, salt, mean.item(), rstd.item(), y.flatten()[::61].tolist(), y2.flatten()[::61].tolist(),
                  y.double().sum().item(), y2.double().sum().item())
