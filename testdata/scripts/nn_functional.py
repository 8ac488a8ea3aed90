# torch.nn.functional against the modules and by hand.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.tensor([[-1.0, 0.0, 2.0], [0.5, -0.5, 3.0]])
print(F.relu(x), F.gelu(x[:, :2]), F.gelu(x, approximate="tanh"), torch.sigmoid(x), torch.tanh(x), F.silu(x))
print(F.softmax(x, dim=1), F.log_softmax(x, dim=-1), F.leaky_relu(x, 0.1), F.elu(x))
w = torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]])
b = torch.tensor([0.1, -0.1])
print(F.linear(x, w, b), x @ w.t() + b, F.linear(x, w))
target = torch.tensor([2, 0])
print(F.cross_entropy(x, target), F.cross_entropy(x, target, reduction="sum"), F.cross_entropy(x, target, reduction="none"))
print(F.mse_loss(x, torch.zeros_like(x)), F.mse_loss(x, torch.ones_like(x), reduction="none"), F.nll_loss(F.log_softmax(x, 1), target))
print(F.layer_norm(x, (3,)), F.layer_norm(x, (3,), weight=torch.ones(3) * 2, bias=torch.zeros(3)))
print(nn.LayerNorm(3)(x), F.dropout(x, p=0.5, training=False), nn.Dropout(0.5).eval()(x))
print(nn.SiLU(), nn.LeakyReLU(), nn.LeakyReLU(0.2, inplace=True), nn.ELU(alpha=0.5), nn.ReLU(inplace=True), nn.ELU()(x), nn.LeakyReLU(0.2)(x))
print(nn.ReLU()(x).sub(F.relu(x)).abs().max(), nn.SiLU()(x).sub(F.silu(x)).abs().max(), nn.Softmax(dim=0)(x))
