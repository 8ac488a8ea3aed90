# DDP + torch.compile where the ranks' compiles differ: rank 1's last batch is smaller, so only
# rank 1 recompiles its DDPOptimizer-split graph ([N/1]). tlparse --all-ranks-html on the two
# rank traces warns that the compile ids diverge. Rank 0 prints the mean loss and every rank its
# weight checksum (the replicas stay in sync: only the batch differs).
# Run: TORCH_TRACE=trace torchrun --nproc-per-node=2 ddp_rank_recompiles.py
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU())
        self.head = nn.Linear(512, 10)

    def forward(self, x):
        return self.head(self.body(x))


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = Net()
    # 1 MB buckets: the two 512x512 layers fall in different buckets, so the graph is split.
    ddp = DDP(model, bucket_cap_mb=1)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.05)
    compiled = torch.compile(ddp)
    torch.manual_seed(1 + rank)
    for step in range(3):
        batch = 8 if rank == 1 and step == 2 else 16
        x = torch.randn(batch, 512)
        y = torch.randint(0, 10, (batch,))
        opt.zero_grad()
        loss = nn.functional.cross_entropy(compiled(x), y)
        loss.backward()
        opt.step()
        total = loss.detach().clone()
        dist.all_reduce(total)
        if rank == 0:
            print("step", step, "mean loss", round(total.item() / dist.get_world_size(), 4))
    w = sum(p.sum().item() for p in model.parameters())
    print("rank", rank, "weights checksum", round(w, 4))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
