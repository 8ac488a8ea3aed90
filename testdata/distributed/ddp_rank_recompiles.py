# DDP + torch.compile where the ranks' compiles differ: rank 1's last batch is smaller, so only
# rank 1 recompiles its DDPOptimizer-split graph ([N/1]). tlparse --all-ranks-html on the two
# rank traces warns that the compile ids diverge. Rank 0 prints the mean loss and every rank its
# weight checksum (the replicas stay in sync: only the batch differs).
# Run: TORCH_TRACE=trace torchrun --nproc-per-node=2 ddp_rank_recompiles.py
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Tower(nn.Module):
    """Two 512-wide layers, 1 MB of weights each: DDP's 1 MB buckets put them apart, so
    DDPOptimizer splits the compiled graph."""

    def __init__(self):
        super().__init__()
        self.hidden = nn.ModuleList([nn.Linear(512, 512) for _ in range(2)])
        self.out = nn.Linear(512, 10)

    def forward(self, x):
        for layer in self.hidden:
            x = torch.relu(layer(x))
        return self.out(x)


dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
model = Tower()
compiled = torch.compile(DDP(model, bucket_cap_mb=1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
torch.manual_seed(1 + rank)
for step, batch in enumerate([16, 16, 8 if rank == 1 else 16]):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(compiled(torch.randn(batch, 512)), torch.randint(0, 10, (batch,)))
    loss.backward()
    opt.step()
    total = loss.detach().clone()
    dist.all_reduce(total)
    if rank == 0:
        print("step", step, "mean loss", round(total.item() / 2, 4))
print("rank", rank, "weights checksum", round(sum(p.sum().item() for p in model.parameters()), 4))
dist.destroy_process_group()
