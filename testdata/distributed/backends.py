# The backend a process group gets from its backend argument (none: the machine's accelerator's,
# the CPU's here), as get_backend and get_backend_config name it, for the default group and for
# new groups with and without one, and a collective on each. Each rank prints in rank order.
# Run: torchrun --nproc-per-node=2 backends.py
import torch
import torch.distributed as dist


def main():
    dist.init_process_group()
    rank = dist.get_rank()
    lines = [("default", dist.get_backend(), dist.get_backend_config())]
    for backend in (None, "gloo", "GLOO", dist.Backend.GLOO):
        group = dist.new_group([0, 1], backend=backend)
        t = torch.tensor([1.0 + rank])
        dist.all_reduce(t, group=group)
        lines.append((f"new_group({backend!r})", dist.get_backend(group), dist.get_backend_config(group), t.tolist()))
    lines.append(("Backend('GLOO')", dist.Backend("GLOO"), dist.Backend.UNDEFINED))
    for turn in range(dist.get_world_size()):
        if turn == rank:
            for line in lines:
                print(rank, *line, flush=True)
        dist.barrier()
    dist.destroy_process_group()


main()
