# A rank that dies with status 3 (os._exit: at once, its connections closing as it ends) while
# its peer waits in a collective: the peer fails or is stopped, and the launcher prints
# torchelastic's failure summary with rank 1 as the root cause.
import os

import torch.distributed as dist

dist.init_process_group("gloo")
if dist.get_rank() == 1:
    os._exit(3)
dist.barrier()
