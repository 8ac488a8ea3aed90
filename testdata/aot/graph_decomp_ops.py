# The decompositions of softmax, log_softmax, cross_entropy (nll_loss), mean, var, relu
# (threshold_backward), clamp, rsub, transpose, a transposed copy (clone(memory_format =
# torch.contiguous_format)) and mse_loss, forward and backward, one compile
# each, under aot_eager_decomp_partition (or the backend given as the first argument).
import sys

import torch

backend = sys.argv[1] if len(sys.argv) > 1 else "aot_eager_decomp_partition"


def softmax(x):
    return torch.softmax(x, -1)


def log_softmax(x):
    return torch.log_softmax(x, 1)


def mean_of_rows(x):
    return x.mean(1)


def var_of_rows(x):
    return x.var(1)


def cross_entropy(x, t):
    return torch.nn.functional.cross_entropy(x, t)


def relu(x):
    return torch.relu(x)


def clamp_rsub(x):
    return x.clamp(0, 1) - (2 - x)


def transpose(x):
    return x.transpose(0, 1) * 2


def transposed_copy(x):
    return x.t().contiguous() * 2


def mse(x, y):
    return torch.nn.functional.mse_loss(x, y)


def compile_and_backward(fn, *args):
    torch._dynamo.reset()
    torch.compile(fn, backend=backend)(*args).sum().backward()


torch.manual_seed(0)
x = torch.randn(4, 6, requires_grad=True)
t = torch.randint(0, 6, (4,))
for fn in (softmax, log_softmax, mean_of_rows, var_of_rows, relu, clamp_rsub, transpose, transposed_copy):
    compile_and_backward(fn, x)
compile_and_backward(cross_entropy, x, t)
compile_and_backward(mse, x, torch.randn(4, 6))
