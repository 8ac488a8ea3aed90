# Rank 1 sleeps while rank 0 waits for it in a barrier: a launcher told to stop (SIGTERM) must
# pass the signal on, so that rank 1 never gets to print. Each rank that runs leaves a file in
# RANK_WAITS_MARKERS, so that the test signals once both do.
import os
import time

import torch.distributed as dist

dist.init_process_group("gloo")
open(os.path.join(os.environ["RANK_WAITS_MARKERS"], f"rank{dist.get_rank()}"), "w").close()
if dist.get_rank() == 1:
    time.sleep(30)
    print("rank 1 outlived its launcher", flush=True)
dist.barrier()
