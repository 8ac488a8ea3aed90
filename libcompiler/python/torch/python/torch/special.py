# torch.special: the special functions scripts reach for under their scipy-style names; each is
# the torch function of the same meaning (ATen aliases them too), so grad_fns print alike.
import torch

expm1 = torch.expm1
log1p = torch.log1p
erf = torch.erf
erfc = torch.erfc
erfinv = torch.erfinv
xlogy = torch.xlogy
logsumexp = torch.logsumexp
expit = torch.sigmoid
round = torch.round


def logit(input, eps=None):
    if eps is not None:
        input = input.clamp(eps, 1 - eps)
    return torch.log(input / (1 - input))


def softmax(input, dim, *, dtype=None):
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return torch.log_softmax(input, dim, dtype=dtype)

