# A rank that dies with status 3 (os._exit: at once, its connections closing as it ends) while
# its peer waits in a collective: the peer fails or is stopped, and the launcher prints
# torchelastic's failure summary with rank 1 as the root cause. Rank 0 waits a moment first, so
# that its own failure cannot reach the launcher in the same poll as rank 1's (the root cause is
# the first failure observed).
import os
import time

import torch.distributed as dist

dist.init_process_group("gloo")
if dist.get_rank() == 1:
    os._exit(3)
time.sleep(0.5)
dist.barrier()
