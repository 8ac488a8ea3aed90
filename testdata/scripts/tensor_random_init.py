# The in-place random initialisers (normal_, uniform_, exponential_), multinomial with and without
# replacement and torch.nn.init, drawing PyTorch's numbers after the same seed.
import math
import torch
import torch.nn as nn
torch.manual_seed(0)
print(torch.empty(5).normal_(), torch.empty(20).normal_(2.0, 0.5)[:4])
print(torch.empty(3, dtype=torch.float64).uniform_(-1, 1), torch.empty(6).exponential_(2.0))
p = torch.tensor([[0.2, 0.3, 0.5], [0.9, 0.05, 0.05]])
print(torch.multinomial(p, 1), torch.multinomial(p, 2), torch.multinomial(p[0], 6, replacement=True))
print(torch.multinomial(torch.softmax(torch.randn(40), 0), 3))
try:
    torch.multinomial(torch.tensor([0.5, -1.0]), 1)
except RuntimeError as e:
    print("RuntimeError:", e)
lin = nn.Linear(4, 3)
nn.init.normal_(lin.weight, mean=0.0, std=0.02)
nn.init.zeros_(lin.bias)
print(lin.weight, lin.bias)
w = torch.empty(3, 5)
nn.init.xavier_uniform_(w)
print(w)
nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
print(w)
nn.init.kaiming_uniform_(w, a=math.sqrt(5))
print(w, nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("tanh"))
nn.init.constant_(w, 0.25)
nn.init.ones_(lin.bias)
print(w.sum(), lin.bias)
try:
    nn.init.xavier_normal_(torch.empty(3))
except ValueError as e:
    print("ValueError:", e)
