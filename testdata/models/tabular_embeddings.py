# A tabular click model: categorical columns through their own embeddings (one with a padding
# index for unknown values), concatenated with standardised numeric columns, an MLP with dropout,
# BCEWithLogitsLoss with pos_weight for the rare class, SGD with a StepLR, and evaluation by
# thresholded sigmoid; compiled by aot_eager (dropout draws from the eager generator).
import torch
import torch.nn as nn


class TabularModel(nn.Module):
    def __init__(self, cardinalities, widths, numeric):
        super().__init__()
        self.embeddings = nn.ModuleList([nn.Embedding(c, w, padding_idx=0 if i == 0 else None)
                                         for i, (c, w) in enumerate(zip(cardinalities, widths))])
        self.mlp = nn.Sequential(nn.Linear(sum(widths) + numeric, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 1))

    def forward(self, categorical, numeric):
        columns = [embed(categorical[:, i]) for i, embed in enumerate(self.embeddings)]
        return self.mlp(torch.cat(columns + [numeric], dim=1)).squeeze(-1)


torch.manual_seed(9)
rows = 32
categorical = torch.stack([torch.randint(0, 6, (rows,)), torch.randint(0, 4, (rows,)), torch.randint(0, 10, (rows,))], 1)
numeric = torch.randn(rows, 2) * torch.tensor([3.0, 0.5]) + torch.tensor([10.0, -1.0])
numeric = (numeric - numeric.mean(dim=0)) / numeric.std(dim=0)
labels = ((categorical[:, 1] == 2) | (numeric[:, 0] > 1.0)).float()
model = TabularModel([6, 4, 10], [3, 2, 4], 2)
print(model.embeddings[0], model.embeddings[0].weight[0].tolist())
criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(2.0))
opt = torch.optim.SGD(model.parameters(), lr=0.2)
schedule = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
compiled = torch.compile(model, backend="aot_eager")
for epoch in range(5):
    model.train()
    loss = criterion(compiled(categorical, numeric), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    schedule.step()
    print(epoch, f"{loss.item():.4f}", schedule.get_last_lr())
model.eval()
with torch.no_grad():
    predicted = torch.sigmoid(compiled(categorical, numeric)) > 0.5
print(f"accuracy {(predicted == labels.bool()).float().mean().item():.4f}")
