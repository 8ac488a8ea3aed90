# In-place unary methods (neg_, abs_, exp_, log_, sigmoid_, tanh_, sin_, cos_, reciprocal_,
# rsqrt_, log1p_, erf_, expm1_, log2_, sign_, round_): the tensor itself comes back changed, the
# gradient flows through the op's own backward, integer tensors refuse float results, and a
# compiled function may call them on its intermediates.
import torch

names = ["neg_", "abs_", "exp_", "log_", "sigmoid_", "tanh_", "sin_", "cos_", "reciprocal_", "rsqrt_", "log1p_", "erf_",
         "expm1_", "log2_", "sign_", "round_"]
x = torch.tensor([0.3, 0.7, 2.5], requires_grad=True)
for name in names:
    y = x * 1.5
    result = getattr(y, name)()
    (grad,) = torch.autograd.grad(y.sum(), x)
    print(name, result is y, [round(v, 5) for v in y.tolist()], [round(v, 5) for v in grad.tolist()], y.grad_fn.name())
for name in ["exp_", "sigmoid_", "neg_", "abs_", "sign_"]:
    try:
        print(name, getattr(torch.arange(-2, 3), name)())
    except RuntimeError as error:
        print(name, error)
try:
    x.exp_()
except RuntimeError as error:
    print(error)


@torch.compile
def squash(t):
    u = t * 2
    u.sigmoid_()
    return u.neg_().exp_() + 1


print([round(v, 5) for v in squash(torch.linspace(-2, 2, 5)).tolist()])
