# torch.distributed's collectives on gloo, each rank printing its results in rank order.
# Run: torchrun --nproc-per-node=2 collectives.py (or 3, 4)
import torch
import torch.distributed as dist


def show(rank, world, *lines):
    for r in range(world):
        if r == rank:
            for line in lines:
                print("rank", rank, *line, flush=True)
        dist.barrier()


def main():
    lines = []
    try:
        dist.all_reduce(torch.ones(1))
    except ValueError as e:
        lines.append(("before init:", e))
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    world = dist.get_world_size()
    lines.append(("world", world, dist.get_backend(), dist.is_initialized()))
    for op in ["SUM", "PRODUCT", "MIN", "MAX", "AVG"]:
        t = torch.tensor([1.0 + rank, 2.0 * (rank + 1), -3.0 + rank])
        dist.all_reduce(t, op=getattr(dist.ReduceOp, op))
        lines.append(("all_reduce", op, t.tolist()))
    t = torch.tensor([1 + rank, 6, 3 * rank])
    dist.all_reduce(t, op=dist.ReduceOp.BAND)
    lines.append(("all_reduce BAND", t.tolist()))
    try:
        dist.all_reduce(torch.ones(2), op=dist.ReduceOp.BOR)
    except RuntimeError as e:
        lines.append(("error", str(e)))
    t = torch.arange(6.0).reshape(2, 3).t() + rank
    dist.all_reduce(t)
    lines.append(("non-contiguous", t.tolist()))
    t = torch.arange(4.0) + rank
    dist.broadcast(t, src=world - 1)
    lines.append(("broadcast", t.tolist()))
    outs = [torch.zeros(3) for _ in range(world)]
    dist.all_gather(outs, torch.full((3,), float(rank)))
    lines.append(("all_gather", [o.tolist() for o in outs]))
    out = torch.zeros(world * 2, dtype=torch.float64)
    dist.all_gather_into_tensor(out, torch.full((2,), rank + 0.5, dtype=torch.float64))
    lines.append(("all_gather_into_tensor", out.tolist()))
    o = torch.zeros(2)
    dist.reduce_scatter(o, [torch.full((2,), float(rank + i)) for i in range(world)])
    lines.append(("reduce_scatter", o.tolist()))
    dist.reduce_scatter_tensor(o, torch.arange(2.0 * world) + rank)
    lines.append(("reduce_scatter_tensor", o.tolist()))
    t = torch.tensor([1.0 + rank])
    dist.reduce(t, dst=0)
    if rank == 0:
        lines.append(("reduce", t.tolist()))
    g = [torch.zeros(1) for _ in range(world)] if rank == 0 else None
    dist.gather(torch.tensor([rank + 5.0]), g, dst=0)
    if rank == 0:
        lines.append(("gather", [x.tolist() for x in g]))
    s = torch.zeros(2)
    dist.scatter(s, [torch.full((2,), 10.0 + i) for i in range(world)] if rank == 0 else None, src=0)
    lines.append(("scatter", s.tolist()))
    t = torch.ones(3)
    work = dist.all_reduce(t, async_op=True)
    lines.append(("async", work.wait(), work.is_completed(), t.tolist()))
    try:
        dist.broadcast(torch.zeros(1), src=world)
    except RuntimeError as e:
        lines.append(("error", str(e)))
    try:
        dist.init_process_group("gloo")
    except ValueError as e:
        lines.append(("error", str(e)))
    show(rank, world, *lines)
    dist.destroy_process_group()
    if rank == 0:
        print("after destroy", dist.is_initialized())


if __name__ == "__main__":
    main()
