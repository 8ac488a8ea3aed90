# The activations PyTorch computes in one kernel (hardtanh, relu6, hardsigmoid, hardswish, mish, selu,
# celu, glu, softsign, tanhshrink, softshrink, hardshrink, prelu): values, gradients, modules.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = (torch.randn(4, 6) * 4).requires_grad_()
for name, fn in [("hardtanh", lambda t: F.hardtanh(t, -2.0, 3.0)), ("relu6", F.relu6), ("hardsigmoid", F.hardsigmoid),
                 ("hardswish", F.hardswish), ("mish", F.mish), ("selu", F.selu), ("celu", lambda t: F.celu(t, 0.5)),
                 ("glu", F.glu), ("softsign", F.softsign), ("tanhshrink", F.tanhshrink),
                 ("softshrink", F.softshrink), ("hardshrink", lambda t: F.hardshrink(t, 1.0)),
                 ("prelu", lambda t: F.prelu(t, torch.tensor([0.1])))]:
    y = fn(x)
    x.grad = None
    y.sum().backward()
    print(name, y[0], x.grad[0])
for module in [nn.Hardtanh(-2.0, 2.0), nn.ReLU6(), nn.Hardsigmoid(), nn.Hardswish(), nn.Mish(), nn.SELU(), nn.CELU(2.0),
               nn.GLU(), nn.Softsign(), nn.Tanhshrink(), nn.Softshrink(0.3), nn.Hardshrink(), nn.PReLU(6, init=0.2)]:
    print(module, module(x.detach())[1, :2])
images = torch.randn(2, 3, 2, 2)
print(F.prelu(images, torch.tensor([0.1, 0.2, 0.3]))[0, :, 0, 0], nn.PReLU(3)(images).shape)
for bad in [lambda: F.glu(torch.ones(3)), lambda: F.hardtanh(x, 2.0, 1.0), lambda: F.prelu(images, torch.ones(2))]:
    try:
        bad()
    except Exception as error:
        print(type(error).__name__, error)
