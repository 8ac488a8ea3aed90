# torch.autograd.Function: forward(ctx, ...) and forward(...) + setup_context, save_for_backward,
# mark_non_differentiable (its gradient arrives as zeros), None gradients for non-tensor inputs, the
# <Class>Backward node name, the wrong-count error, gradcheck through one, and a call from compiled code.
import torch
from torch.autograd import Function


class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * y


class StraightThrough(Function):
    @staticmethod
    def forward(x, scale):
        return torch.round(x * scale) / scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.scale = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class SplitTwo(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable()
        return x * 2, x.argmax()

    @staticmethod
    def backward(ctx, g, g_idx):
        return g * 2


x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = Exp.apply(x)
print(y, y.grad_fn.name(), y.requires_grad)
y.sum().backward()
print(x.grad)
q = StraightThrough.apply(x, 2.0)
print(q, q.grad_fn.name())
x.grad = None
(q * q).sum().backward()
print(x.grad)
a, idx = SplitTwo.apply(x)
print(a.grad_fn.name(), idx, idx.requires_grad)
x.grad = None
a.sum().backward()
print(x.grad)
with torch.no_grad():
    print(Exp.apply(x).requires_grad)
print(Exp.apply(torch.ones(2)).requires_grad)


class Bad(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, g):
        return g


try:
    Bad.apply(x, x).sum().backward()
except RuntimeError as e:
    print(e)
print(torch.autograd.gradcheck(Exp.apply, (torch.randn(3, dtype=torch.float64, requires_grad=True),)))


@torch.compile(backend="eager")
def f(x):
    return Exp.apply(x * 2) + 1


print(f(x))
