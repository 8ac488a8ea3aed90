# nn.ParameterList (append, slicing, tensors wrapped as Parameters), nn.ParameterDict, nn.Unflatten /
# Tensor.unflatten, nn.CosineSimilarity: their reprs, parameter names, gradients, a compiled call,
# and state_dict as the OrderedDict PyTorch returns.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Mixture(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.ParameterList([nn.Parameter(torch.randn(3, 2)) for _ in range(2)])
        self.weights.append(torch.ones(2))
        self.scales = nn.ParameterDict({"a": nn.Parameter(torch.tensor(2.0)), "b": torch.zeros(4)})
        self.unflat = nn.Unflatten(1, (2, 3))
        self.cos = nn.CosineSimilarity(dim=-1)

    def forward(self, x):
        y = sum(x @ w for w in self.weights[:2]) * self.scales["a"] + self.weights[2]
        return self.cos(y, y.flip(-1)), self.unflat(torch.arange(12.0).view(2, 6) * self.scales["a"])


m = Mixture()
print(m)
print(len(m.weights), len(m.scales), list(m.scales.keys()), "a" in m.scales, [n for n, _ in m.named_parameters()])
print(m.weights[-1], m.weights[0].shape, isinstance(m.weights[2], nn.Parameter))
x = torch.randn(4, 3)
out, unflat = m(x)
print(out, unflat.shape)
compiled = torch.compile(m, backend="eager")
out2, _ = compiled(x)
print(torch.allclose(out, out2))
out.sum().backward()
print(m.scales["a"].grad, m.weights[0].grad.shape)
print(torch.zeros(2, 12).unflatten(1, (3, -1)).shape, torch.zeros(6).unflatten(-1, (2, 3)).stride())
print(sum(p.numel() for p in m.parameters()), m.state_dict().keys())
