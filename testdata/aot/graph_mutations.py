# Functionalization: in-place ops on intermediates become out-of-place ops; inputs mutated in the
# compiled frame get a copy_ of their new value at the end of the graph under aot_eager (which
# keeps input mutations in the graph), while aot_eager_decomp_partition's graphs return the new
# values first, in inference and in training graphs. Prints each mutated buffer's sum after the
# compiled and after the eager run.
import torch


def intermediate(x):
    y = x * 2
    y.add_(1)
    y.relu_()
    return y.sum()


def mutate_input(buf, x):
    buf.mul_(0.9)
    buf.add_(x)
    return x.sin()


def copy_into_input(buf, x):
    buf.copy_(buf * 0.5 + x)
    return buf + 1


def train_with_mutation(buf, x, w):
    buf.add_(x)
    return (w * buf).sum()


torch.manual_seed(0)
x = torch.randn(4, 3)
w = torch.randn(4, 3, requires_grad=True)
torch.compile(intermediate, backend="aot_eager")(x)
for backend in ("aot_eager", "aot_eager_decomp_partition"):
    for fn in (mutate_input, copy_into_input):
        compiled_buf, eager_buf = torch.ones(4, 3), torch.ones(4, 3)
        torch.compile(fn, backend=backend)(compiled_buf, x)
        fn(eager_buf, x)
        print(fn.__name__ + "/" + backend, float(compiled_buf.sum()), float(eager_buf.sum()))
    compiled_buf, eager_buf = torch.ones(4, 3), torch.ones(4, 3)
    w.grad = None
    torch.compile(train_with_mutation, backend=backend)(compiled_buf, x, w).backward()
    compiled_grad = w.grad.clone()
    w.grad = None
    train_with_mutation(eager_buf, x, w).backward()
    print("train_with_mutation/" + backend, float(compiled_buf.sum()), float(eager_buf.sum()))
    print("train_with_mutation_grad/" + backend, float(compiled_grad.sum()), float(w.grad.sum()))
