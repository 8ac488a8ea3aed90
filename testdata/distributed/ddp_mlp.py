# DDP in eager mode on a small MLP (CPU, gloo): every rank starts from different weights, DDP's
# broadcast makes them rank 0's, buckets of 0.25 MB are all-reduced from the gradient hooks, one
# step accumulates under no_sync(). Rank 0 prints the mean loss and every rank's weight checksum.
# Run: torchrun --nproc-per-node=2 ddp_mlp.py
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(*[nn.Sequential(nn.Linear(128, 128), nn.ReLU()) for _ in range(4)])
        self.head = nn.Linear(128, 10)

    def forward(self, x):
        return self.head(self.layers(x))


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    world = dist.get_world_size()
    torch.manual_seed(rank)
    model = Net()
    ddp = DDP(model, bucket_cap_mb=0.25)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.05)
    torch.manual_seed(1 + rank)
    for step in range(5):
        x = torch.randn(16, 128)
        y = torch.randint(0, 10, (16,))
        opt.zero_grad()
        if step == 3:
            # gradients of this half stay local; the next backward adds and averages both halves
            with ddp.no_sync():
                nn.functional.cross_entropy(ddp(x[:8]), y[:8]).backward()
            x, y = x[8:], y[8:]
        loss = nn.functional.cross_entropy(ddp(x), y)
        loss.backward()
        opt.step()
        total = loss.detach().clone()
        dist.all_reduce(total)
        if rank == 0:
            print("step", step, "mean loss", round(total.item() / world, 4))
    checksum = torch.tensor([sum(p.sum().item() for p in model.parameters())], dtype=torch.float64)
    checksums = torch.zeros(world, dtype=torch.float64)
    dist.all_gather_into_tensor(checksums, checksum)
    if rank == 0:
        for r, c in enumerate(checksums.tolist()):
            print("rank", r, "weights checksum", round(c, 4))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
