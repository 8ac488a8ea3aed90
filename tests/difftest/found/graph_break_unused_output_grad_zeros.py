# kiln (aot_eager): with a graph break, a value the first graph passes on to the resumed frame
# (mm(a, w) here) that the loss does not depend on still gives w a gradient (the output is a view
# of the input); PyTorch leaves w.grad None. Prints "[0.0, 0.0, 0.0]" instead of "None".
import torch


def f(a, w):
    u = torch.unsqueeze(a, 2)
    v = torch.mm(a, w)
    if a.sum() > 0.123:
        b = a + 1
    else:
        b = a - 1
    v.sin()
    return u


a = torch.ones(2, 6, requires_grad=True)
w = torch.ones(6, 5, requires_grad=True)
torch.compile(f, backend="aot_eager")(a, w).sum().backward()
print(None if w.grad is None else w.grad.flatten().tolist()[:3])
