# Rank 1 sleeps while rank 0 waits for it in a barrier: a launcher told to stop (SIGTERM) must
# pass the signal on, so that rank 1 never gets to print.
import time

import torch.distributed as dist

dist.init_process_group("gloo")
if dist.get_rank() == 1:
    time.sleep(30)
    print("rank 1 outlived its launcher", flush=True)
dist.barrier()
