# kiln inductor (aot_eager is right): a graph break at Tensor.item() leaves a graph whose output
# a1.sum() only feeds item(); backward through the graph's other output gives a1 a zero gradient,
# where PyTorch leaves a1.grad None (difftest seed 6631). Prints "inductor tensor([0.]) None"
# under PyTorch.
import torch


def f(a0, a1):
    v2 = a0[:-1]
    s = a1.sum().item()
    v4 = v2 * s
    return v4, v4.relu()


a0 = torch.ones(1, requires_grad=True)
a1 = torch.ones(2, requires_grad=True)
out = torch.compile(f, backend="inductor")(a0, a1)
(out[0].sum() + out[1].sum()).backward()
print("inductor", a0.grad, a1.grad)
