# F.pad reflect/replicate/circular (values, gradients, errors) and convolutions with those padding modes.
import torch, torch.nn.functional as F, torch.nn as nn
torch.manual_seed(0)
x = torch.arange(12.).reshape(1, 2, 6).requires_grad_()
img = torch.arange(32.).reshape(1, 2, 4, 4)
for mode in ["reflect", "replicate", "circular"]:
    y = F.pad(x, (2, 3), mode=mode)
    y.sum().backward() if False else None
    print(mode, y[0, 0], F.pad(img, (1, 2, 2, 1), mode=mode)[0, 0])
    g = torch.autograd.grad((F.pad(x, (2, 1), mode=mode) * torch.arange(18.).reshape(1, 2, 9)).sum(), x)[0]
    print(g[0, 0])
    print(F.pad(torch.arange(4.).reshape(1, 1, 2, 2), (1, 1, 1, 1), mode=mode)[0, 0])
for conv in [nn.Conv1d(2, 3, 3, padding=2, padding_mode="reflect"), nn.Conv2d(2, 2, 3, padding=1, padding_mode="replicate"),
             nn.Conv2d(2, 2, 3, padding="same", padding_mode="circular")]:
    out = conv(x if isinstance(conv, nn.Conv1d) else img)
    print(conv, out.shape, out.sum().item().__class__.__name__)
for bad in [lambda: F.pad(x, (6, 0), mode="reflect"), lambda: F.pad(x, (1, 1), mode="wrap"),
            lambda: F.pad(torch.ones(3), (1, 1), mode="reflect"),
            lambda: F.pad(x, (7, 0), mode="circular")]:
    try:
        bad()
    except Exception as error:
        print(type(error).__name__, error)
