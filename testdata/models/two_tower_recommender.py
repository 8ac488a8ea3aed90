# A two-tower recommender: user and item towers (embeddings of ids and of a bag of tags averaged,
# MLP, L2-normalised), in-batch softmax over dot products with a learned temperature, Adagrad,
# ReduceLROnPlateau on the epoch loss; compiled by aot_eager_decomp_partition.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self, ids, tags, dim=16, out=8):
        super().__init__()
        self.id_embedding = nn.Embedding(ids, dim)
        self.tag_embedding = nn.Embedding(tags, dim, padding_idx=0)
        self.mlp = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, out))

    def forward(self, ids, tag_bags):
        tags = self.tag_embedding(tag_bags)
        counts = (tag_bags != 0).sum(dim=1, keepdim=True).clamp(min=1)
        bag = tags.sum(dim=1) / counts
        return F.normalize(self.mlp(torch.cat([self.id_embedding(ids), bag], dim=-1)), dim=-1)


class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = Tower(20, 10)
        self.items = Tower(30, 10)
        self.log_temperature = nn.Parameter(torch.tensor(0.0))

    def forward(self, user_ids, user_tags, item_ids, item_tags):
        u = self.users(user_ids, user_tags)
        v = self.items(item_ids, item_tags)
        logits = u @ v.t() * self.log_temperature.exp() * 10
        return F.cross_entropy(logits, torch.arange(u.shape[0]))


torch.manual_seed(15)
model = TwoTower()
opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=0)
compiled = torch.compile(model, backend="aot_eager_decomp_partition")
user_ids = torch.randint(0, 20, (8,))
item_ids = torch.randint(0, 30, (8,))
user_tags = torch.randint(0, 10, (8, 3))
item_tags = torch.randint(0, 10, (8, 4))
for epoch in range(4):
    loss = compiled(user_ids, user_tags, item_ids, item_tags)
    opt.zero_grad()
    loss.backward()
    opt.step()
    plateau.step(loss.item() if epoch < 2 else 10.0)
    print(epoch, f"{loss.item():.4f}", opt.param_groups[0]["lr"])
