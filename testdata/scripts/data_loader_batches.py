# torch.utils.data: TensorDataset, a custom Dataset, DataLoader batching (drop_last), shuffling
# from the default generator and from a seeded torch.Generator, default_collate of tuples, dicts
# and numbers, random_split, and a compiled training loop over the batches.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, TensorDataset, random_split

torch.manual_seed(0)
xs = torch.arange(20.0).reshape(10, 2)
ys = torch.arange(10)
data = TensorDataset(xs, ys)
print(len(data), data[3])
for x, y in DataLoader(data, batch_size=4):
    print(x.shape, y.tolist())
print([y.tolist() for _, y in DataLoader(data, batch_size=3, shuffle=True, drop_last=True)])
g = torch.Generator().manual_seed(7)
print([y.tolist() for _, y in DataLoader(data, batch_size=5, shuffle=True, generator=g)])
print(torch.randint(0, 100, (3,)).tolist(), torch.randperm(6, generator=torch.Generator().manual_seed(1)).tolist())


class Squares(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": float(i), "y": i * i, "name": f"item{i}"}


batch = next(iter(DataLoader(Squares(), batch_size=3)))
print(batch["x"], batch["y"], batch["name"])
train, test = random_split(data, [7, 3], generator=torch.Generator().manual_seed(3))
print(len(train), len(test), [test[i][1].item() for i in range(3)])
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
step = torch.compile(model)
for epoch in range(2):
    total = 0.0
    for x, y in DataLoader(train, batch_size=4, shuffle=True):
        loss = (step(x / 20).squeeze(-1) - y.float() / 10).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, f"{total:.4f}")
