# send/recv, isend/irecv with tags, and a receive from any rank. Each rank prints its results in
# rank order. Run: torchrun --nproc-per-node=3 point_to_point.py
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    world = dist.get_world_size()
    lines = []
    # a ring: each rank sends to the next and receives from the previous, both posted first
    received = torch.zeros(2)
    works = [dist.isend(torch.full((2,), 10.0 * rank), dst=(rank + 1) % world),
             dist.irecv(received, src=(rank - 1) % world)]
    for w in works:
        w.wait()
    lines.append(("ring", received.tolist()))
    # tags tell two messages between the same ranks apart, whatever the order they are received in
    if rank == 0:
        dist.send(torch.tensor([1.0]), dst=1, tag=7)
        dist.send(torch.tensor([2.0]), dst=1, tag=8)
    elif rank == 1:
        second, first = torch.zeros(1), torch.zeros(1)
        w = dist.irecv(second, src=0, tag=8)
        dist.recv(first, src=0, tag=7)
        w.wait()
        lines.append(("tags", first.tolist(), second.tolist()))
    # rank 0 hears from every other rank, from whichever sends
    if rank == 0:
        senders = []
        for _ in range(world - 1):
            t = torch.zeros(1)
            senders.append((dist.recv(t), t.item()))
        lines.append(("any source", sorted(senders)))
    else:
        dist.send(torch.tensor([100.0 + rank]), dst=0)
    try:
        dist.send(torch.ones(1), dst=rank)
    except ValueError as e:
        lines.append(("error", str(e)))
    for r in range(world):
        if r == rank:
            for line in lines:
                print("rank", rank, *line, flush=True)
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
