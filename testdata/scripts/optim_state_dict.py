# Optimizer.state_dict (parameters packed as indices, per-parameter state, groups) and
# load_state_dict: a second model and optimizer resumed from them train on exactly as the first;
# the group-count error.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
x, y = torch.randn(8, 3), torch.randn(8, 1)


def train(model, opt, steps):
    for _ in range(steps):
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.step()


for make in [lambda p: torch.optim.Adam(p, lr=0.01), lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
             lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True), lambda p: torch.optim.AdamW(p, lr=0.01)]:
    torch.manual_seed(1)
    a = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    opt_a = make(a.parameters())
    train(a, opt_a, 3)
    sd = opt_a.state_dict()
    print(type(opt_a).__name__, sorted(sd.keys()), list(sd["state"].keys()), sd["param_groups"][0]["params"],
          sorted(sd["state"][0].keys()) if sd["state"] else None)
    b = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    b.load_state_dict(a.state_dict())
    opt_b = make(b.parameters())
    opt_b.load_state_dict(sd)
    train(a, opt_a, 2)
    train(b, opt_b, 2)
    print(all(torch.equal(p, q) for p, q in zip(a.parameters(), b.parameters())), opt_b.param_groups[0]["lr"])
opt = torch.optim.SGD([{"params": model[0].parameters()}, {"params": model[2].parameters(), "lr": 0.5}], lr=0.1)
sd = opt.state_dict()
print(sd["param_groups"])
try:
    torch.optim.SGD(model.parameters(), lr=0.1).load_state_dict(sd)
except ValueError as e:
    print(e)
