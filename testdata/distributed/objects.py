# Python objects between ranks: broadcast_object_list from the last rank and all_gather_object of
# every rank's dict. Rank 0 prints what every rank received. Run: torchrun --nproc-per-node=2 objects.py
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    world = dist.get_world_size()
    objects = [{"seed": 1234, "name": "run-a"}, [1, 2.5, "x"], None] if rank == world - 1 else [None, None, None]
    dist.broadcast_object_list(objects, src=world - 1)
    gathered = [None] * world
    dist.all_gather_object(gathered, {"rank": rank, "objects": objects, "weights": torch.arange(3.0) * rank})
    if rank == 0:
        for entry in gathered:
            print(entry["rank"], entry["objects"], entry["weights"].tolist())
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
