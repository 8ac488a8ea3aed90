# 1-d pooling (max, average, adaptive average), functional and modules, batched and unbatched,
# with padding, dilation, ceil_mode and indices, and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 3, 9, requires_grad=True)
for name, fn in [("max", lambda t: F.max_pool1d(t, 3)), ("max strided padded", lambda t: F.max_pool1d(t, 3, 2, 1)),
                 ("max dilated ceil", lambda t: F.max_pool1d(t, 2, 2, 0, 2, True)),
                 ("avg", lambda t: F.avg_pool1d(t, 2)), ("avg padded", lambda t: F.avg_pool1d(t, 3, 2, 1)),
                 ("avg no pad count", lambda t: F.avg_pool1d(t, 3, 2, 1, count_include_pad=False)),
                 ("adaptive", lambda t: F.adaptive_avg_pool1d(t, 4)), ("unbatched", lambda t: F.max_pool1d(t[0], 2))]:
    y = fn(x)
    x.grad = None
    (y * torch.arange(y.numel()).reshape(y.shape)).sum().backward()
    print(name, tuple(y.shape), y.flatten()[:5], x.grad[0, 0])
values, indices = F.max_pool1d(x, 3, return_indices=True)
print(indices[0])
print(nn.MaxPool1d(3), nn.AvgPool1d(2), nn.AdaptiveAvgPool1d(4), nn.MaxPool1d(2, 1)(x).shape,
      nn.AvgPool1d(3, stride=1)(x).shape, nn.AdaptiveAvgPool1d(1)(x).squeeze(-1).shape)
