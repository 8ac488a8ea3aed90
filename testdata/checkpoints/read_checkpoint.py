# Loads the checkpoint write_checkpoint.py made (by kiln or by PyTorch) and prints everything in
# it, then resumes training from it: same numbers whoever wrote it and whoever reads it.
import sys

import torch
import torch.nn as nn

checkpoint = torch.load(sys.argv[1])
for key in sorted(checkpoint):
    if key not in ("model", "optimizer"):
        print(key, checkpoint[key])
print(type(checkpoint["model"]).__name__, list(checkpoint["model"].keys()))
print(checkpoint["optimizer"]["param_groups"])
print(sorted(checkpoint["optimizer"]["state"][0].keys()), checkpoint["optimizer"]["state"][0]["step"])
print(checkpoint["grid_again"] is checkpoint["grid"], checkpoint["column"].storage_offset(),
      checkpoint["column"].stride(), type(checkpoint["bias"]).__name__, checkpoint["bias"].requires_grad)
checkpoint["grid"][0, 1] = -1.0
print(checkpoint["column"])

torch.manual_seed(1)
model = nn.Sequential(nn.Linear(3, 4, bias=False), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
optimizer = torch.optim.AdamW(model.parameters(), lr=0.01)
print(model.load_state_dict(checkpoint["model"]))
optimizer.load_state_dict(checkpoint["optimizer"])
loss = model(torch.randn(5, 3)).pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
# The weight sum to 6 places: its last bits follow the CPU's vector width in PyTorch's sum.
print(f"{loss.item():.6f}", f"{model[0].weight.sum().item():.6f}", model[1].running_mean)
