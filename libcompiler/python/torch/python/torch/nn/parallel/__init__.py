# torch.nn.parallel: DistributedDataParallel (distributed.py).
from torch.nn.parallel.distributed import DistributedDataParallel
