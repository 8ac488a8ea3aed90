# Writes a training checkpoint of the kinds scripts save (a model's and an optimizer's state
# dicts, tensors sharing storage, parameters, dtypes, sizes, plain values) to the path given.
import sys

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4, bias=False), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
optimizer = torch.optim.AdamW(model.parameters(), lr=0.01)
for _ in range(2):
    loss = model(torch.randn(5, 3)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

grid = torch.arange(12.0).reshape(3, 4)
torch.save({
    "model": model.state_dict(),
    "optimizer": optimizer.state_dict(),
    "epoch": 7,
    "loss": round(loss.item(), 4),
    "history": [0.5, 0.25, None, (1, "two")],
    "grid": grid,
    "column": grid[:, 1],
    "grid_again": grid,
    "mask": grid > 5,
    "codes": torch.tensor([-3, 70000, 2**40], dtype=torch.int64),
    "half": torch.ones(2, dtype=torch.float16) / 3,
    "bf16": torch.ones(2, dtype=torch.bfloat16) / 3,
    "scalar": torch.tensor(2.5),
    "empty": torch.zeros(0, 3),
    "bias": nn.Parameter(torch.ones(2)),
    "dtype": torch.float64,
    "shape": grid.shape,
}, sys.argv[1])
