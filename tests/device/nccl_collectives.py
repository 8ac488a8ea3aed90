# ranks: 2
# NCCL's collectives on CUDA tensors, one process per GPU, then eager DDP on CUDA. Rank 0 prints
# what every rank got (gathered to it), so that the output does not depend on which process
# writes first. Run: torchrun --nproc-per-node=2 nccl_collectives.py
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def show(label, t, digits=None):
    """Every rank's `t`, printed by rank 0 in rank order (rounded where cuBLAS's choice of kernel
    may move the last bits)."""
    parts = [torch.empty_like(t) for _ in range(dist.get_world_size())]
    dist.all_gather(parts, t.contiguous())
    if dist.get_rank() == 0:
        for r, part in enumerate(parts):
            values = part.cpu().tolist()
            print(label, "rank", r, values if digits is None else [round(v, digits) for v in values])


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    rank, world = dist.get_rank(), dist.get_world_size()
    if rank == 0:
        print("backend", dist.get_backend(), "world", world, "nccl available", dist.is_nccl_available())
    base = torch.arange(6, dtype=torch.float32, device="cuda") + 10 * rank

    for op in (dist.ReduceOp.SUM, dist.ReduceOp.AVG, dist.ReduceOp.MAX, dist.ReduceOp.MIN, dist.ReduceOp.PRODUCT):
        t = base.clone()
        dist.all_reduce(t, op=op)
        show(f"all_reduce {op}", t)
    ints = torch.tensor([1, 2, 3], dtype=torch.int64, device="cuda") * (rank + 1)
    dist.all_reduce(ints)
    show("all_reduce int64", ints)
    flags = torch.tensor([rank == 0, rank == 1, False], device="cuda")
    dist.all_reduce(flags)
    show("all_reduce bool", flags)

    t = base.clone()
    dist.broadcast(t, src=1)
    show("broadcast from 1", t)
    t = base.clone()
    dist.reduce(t, dst=0)
    show("reduce to 0", t)

    parts = [torch.empty(3, device="cuda") for _ in range(world)]
    dist.all_gather(parts, base[:3] * (rank + 1))
    show("all_gather", torch.cat(parts))
    flat = torch.empty(3 * world, device="cuda")
    dist.all_gather_into_tensor(flat, base[3:])
    show("all_gather_into_tensor", flat)
    out = torch.empty(3, device="cuda")
    dist.reduce_scatter_tensor(out, base)
    show("reduce_scatter_tensor", out)
    out = torch.empty(2, device="cuda")
    dist.reduce_scatter(out, [base[:2], base[2:4]])
    show("reduce_scatter", out)

    gathered = [torch.empty(2, device="cuda") for _ in range(world)] if rank == 0 else None
    dist.gather(base[:2], gathered, dst=0)
    if rank == 0:
        print("gather", [g.cpu().tolist() for g in gathered])
    got = torch.empty(2, device="cuda")
    dist.scatter(got, [torch.full((2,), 7.0 + r, device="cuda") for r in range(world)] if rank == 0 else None, src=0)
    show("scatter", got)

    if rank == 0:
        dist.send(torch.tensor([42.0, 43.0], device="cuda"), dst=1)
        received = torch.zeros(2, device="cuda")
    else:
        received = torch.zeros(2, device="cuda")
        dist.recv(received, src=0)
    show("send/recv", received)

    work = dist.all_reduce(base.clone(), async_op=True)
    work.wait()
    dist.barrier()
    try:
        dist.all_reduce(torch.ones(2))
    except RuntimeError as e:
        if rank == 0:
            print("cpu tensor:", str(e).splitlines()[0])
    try:
        dist.all_reduce(torch.ones(4, 4, device="cuda").t())
    except ValueError as e:
        if rank == 0:
            print("transposed tensor:", e)

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).cuda()
    ddp = DDP(model, bucket_cap_mb=0.001)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    torch.manual_seed(1 + rank)
    for step in range(3):
        x = torch.randn(8, 16, device="cuda")
        loss = ddp(x).square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        show(f"ddp step {step} loss", loss.detach().reshape(1), digits=5)
    show("ddp weights", torch.stack([p.detach().sum() for p in model.parameters()]), digits=4)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
