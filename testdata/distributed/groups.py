# new_group: a group of ranks 0 and 2 of three, collectives on it with global src/dst and with
# group ranks, and what rank 1 (not a member) sees. Each rank prints its results in rank order.
# Run: torchrun --nproc-per-node=3 groups.py
import warnings

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    world = dist.get_world_size()
    evens = dist.new_group([2, 0])
    everyone = dist.new_group()
    lines = [("evens rank", dist.get_rank(evens), "size", dist.get_world_size(evens))]
    if rank != 1:
        lines.append(("ranks", dist.get_process_group_ranks(evens), dist.get_group_rank(evens, 2), dist.get_global_rank(evens, 1)))
        t = torch.tensor([1.0 + rank])
        dist.all_reduce(t, group=evens)
        lines.append(("all_reduce", t.tolist()))
        t = torch.tensor([10.0 * rank])
        dist.broadcast(t, src=2, group=evens)
        lines.append(("broadcast src=2", t.tolist()))
        t = torch.tensor([5.0 + rank])
        dist.broadcast(t, group_src=0, group=evens)
        lines.append(("broadcast group_src=0", t.tolist()))
        outs = [torch.zeros(1) for _ in range(2)]
        dist.all_gather(outs, torch.tensor([float(rank)]), group=evens)
        lines.append(("all_gather", [o.tolist() for o in outs]))
    else:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = dist.all_reduce(torch.ones(1), group=evens)
        lines.append(("not a member", result, [str(w.message) for w in caught]))
    t = torch.tensor([float(rank)])
    dist.all_reduce(t, group=everyone)
    lines.append(("everyone", t.tolist(), dist.get_rank(everyone)))
    for r in range(world):
        if r == rank:
            for line in lines:
                print("rank", rank, *line, flush=True)
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
