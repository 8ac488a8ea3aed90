# Compiled forward values and gradients (backend: the first argument, aot_eager by default)
# against eager ones on a few functions; prints one line per function: its name and the largest
# absolute difference.
import sys

import torch

backend = sys.argv[1] if len(sys.argv) > 1 else "aot_eager"


def pointwise(x, y):
    return (torch.sin(x) * y + 1).relu().mean()


def mlp(x, w1, b1, w2, b2, target):
    h = torch.nn.functional.gelu(torch.nn.functional.linear(x, w1, b1))
    return torch.nn.functional.cross_entropy(torch.nn.functional.linear(h, w2, b2), target)


def softmax_mse(x, w, y):
    return torch.nn.functional.mse_loss(torch.softmax(x @ w, dim=1), y)


def largest_difference(fn, make_inputs):
    diffs = []
    results = []
    for run in (fn, torch.compile(fn, backend=backend)):
        inputs = make_inputs()
        out = run(*inputs)
        out.backward()
        results.append([out] + [t.grad for t in inputs if t.requires_grad])
    for a, b in zip(*results):
        diffs.append(float((a - b).abs().max()))
    return max(diffs)


def inputs(*specs):
    def make():
        torch.manual_seed(0)
        made = []
        for shape, grad in specs:
            made.append(torch.randn(*shape).requires_grad_(grad))
        return made
    return make


def mlp_inputs():
    torch.manual_seed(0)
    return [torch.randn(8, 6), torch.randn(16, 6, requires_grad=True), torch.randn(16, requires_grad=True),
            torch.randn(3, 16, requires_grad=True), torch.randn(3, requires_grad=True), torch.randint(0, 3, (8,))]


print("pointwise", largest_difference(pointwise, inputs(((3, 4), True), ((3, 4), False))))
print("mlp", largest_difference(mlp, mlp_inputs))
print("softmax_mse", largest_difference(softmax_mse, inputs(((4, 5), True), ((5, 3), True), ((4, 3), False))))
