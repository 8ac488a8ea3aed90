# DDP with find_unused_parameters=True: each rank's forward skips a different branch, so a
# parameter unused on one rank still gets the other rank's averaged gradient, and one used on
# no rank keeps grad None. Rank 0 prints the gradients' sums and the weights after two steps.
# Run: torchrun --nproc-per-node=2 ddp_unused.py
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Branches(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(8, 8)
        self.left = nn.Linear(8, 4)
        self.right = nn.Linear(8, 4)
        self.never = nn.Linear(8, 4)

    def forward(self, x, use_left):
        h = torch.relu(self.trunk(x))
        return self.left(h) if use_left else self.right(h)


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = Branches()
    ddp = DDP(model, find_unused_parameters=True)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    torch.manual_seed(10 + rank)
    for step in range(2):
        opt.zero_grad()
        out = ddp(torch.randn(4, 8), use_left=(rank == 0))
        out.pow(2).mean().backward()
        if rank == 0:
            for name, p in model.named_parameters():
                print(step, name, None if p.grad is None else round(p.grad.sum().item(), 5))
        opt.step()
    if rank == 0:
        print("weights", round(sum(p.sum().item() for p in model.parameters()), 5))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
