# nn.ModuleDict: registered children by name (parameters, repr, state_dict keys), used eagerly
# and in a compiled forward.
import torch
import torch.nn as nn


class Heads(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict(dict(up=nn.Linear(3, 4), down=nn.Linear(3, 2)))
        self.heads["act"] = nn.ReLU()

    def forward(self, x):
        return {name: self.heads["act"](self.heads[name](x)) for name in ("up", "down")}


torch.manual_seed(0)
model = Heads()
print(model)
print(len(model.heads), list(model.heads.keys()), "up" in model.heads, "side" in model.heads)
print([name for name, _ in model.named_parameters()])
print(sorted(model.state_dict().keys()))
x = torch.randn(2, 3)
eager = model(x)
compiled = torch.compile(model, backend="eager")(x)
for name in ("up", "down"):
    print(name, torch.allclose(eager[name], compiled[name]), eager[name].shape)
model.heads.pop("act")
print(list(model.heads), sum(p.numel() for p in model.parameters()))
