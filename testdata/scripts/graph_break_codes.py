# Graph breaks name PyTorch's graph-break code and the page that explains it.
import torch
import torch._dynamo


def tolist(x):
    y = x + 1
    return x.tolist(), y


def string(x):
    y = x + 1
    return str(x), y


def requires_grad(x):
    y = x + 1
    y.requires_grad_()
    return y


def retain_grad(x):
    y = x + 1
    y.retain_grad()
    return y


def manual_seed(x):
    y = x + 1
    torch.manual_seed(0)
    return y


for fn, arg in [(tolist, torch.ones(2)), (string, torch.ones(2)), (requires_grad, torch.ones(2)),
                (retain_grad, torch.ones(2, requires_grad=True)), (manual_seed, torch.ones(2))]:
    torch._dynamo.reset()
    try:
        torch.compile(fn, backend="eager", fullgraph=True)(arg)
    except torch._dynamo.exc.Unsupported as e:
        lines = str(e).split("\n\nfrom user code:")[0].splitlines()
        print(fn.__name__, "|", lines[0], "|", lines[1].split(" in file ")[0])
        print(" ", [line for line in lines if "Hint" in line or "context" in line])
        print(" ", lines[-1])
