# nn.Module forward hooks and pre-hooks: outputs and inputs replaced, RemovableHandle (remove, as a
# context manager), prepend order, get_submodule, a hook of a submodule inside a compiled forward, and
# a hook on the compiled module itself.
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
features = {}


def save_output(name):
    def hook(module, inputs, output):
        features[name] = output.detach()
    return hook


h1 = net[0].register_forward_hook(save_output("fc1"))
h2 = net[1].register_forward_hook(lambda m, i, o: o * 2)
h3 = net[2].register_forward_pre_hook(lambda m, args: (args[0] + 1,))
x = torch.randn(3, 4)
out = net(x)
print(out, features["fc1"].shape, type(h1).__name__)
h2.remove()
h3.remove()
print(torch.allclose(net(x), net[2](net[1](net[0](x)))))
with net[2].register_forward_hook(lambda m, i, o: o.neg()):
    print(net(x)[0])
print(net(x)[0])
order = []
net[0].register_forward_hook(lambda m, i, o: order.append("b"))
net[0].register_forward_hook(lambda m, i, o: order.append("a"), prepend=True)
net(x)
print(order, net.get_submodule("2"), len(net[0]._forward_hooks))


class Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)
        self.body.register_forward_hook(lambda m, i, o: o.relu())

    def forward(self, x):
        return self.body(x) + 1


w = Wrapper()
compiled = torch.compile(w, backend="eager")
print(torch.allclose(compiled(x), w(x)), compiled(x).min() >= 1)
top = nn.Linear(4, 2)
top.register_forward_hook(lambda m, i, o: o * 0)
print(torch.compile(top, backend="aot_eager")(x))
