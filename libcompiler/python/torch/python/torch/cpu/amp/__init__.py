# torch.cpu.amp.autocast: deprecated in favour of torch.amp.autocast("cpu", ...).
import warnings

import torch


class autocast(torch.amp.autocast):
    def __init__(self, enabled=True, dtype=torch.bfloat16, cache_enabled=True):
        warnings.warn("`torch.cpu.amp.autocast(args...)` is deprecated. "
                      "Please use `torch.amp.autocast('cpu', args...)` instead.", FutureWarning, stacklevel=2)
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)
