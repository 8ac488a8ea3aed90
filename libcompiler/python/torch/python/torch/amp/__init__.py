# torch.amp: automatic mixed precision (autocast on the CPU and CUDA, loss scaling).
import torch
from torch.amp.autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available
from torch.amp.grad_scaler import GradScaler


def _deprecated_spellings(device_type, default_dtype):
    # torch.cpu.amp's and torch.cuda.amp's autocast and GradScaler: torch.amp's for that device,
    # with PyTorch's FutureWarning naming the spelling to use.
    import warnings

    def deprecated(name):
        return (f"`torch.{device_type}.amp.{name}(args...)` is deprecated. "
                f"Please use `torch.amp.{name}('{device_type}', args...)` instead.")

    class autocast(torch.amp.autocast):
        def __init__(self, enabled=True, dtype=default_dtype, cache_enabled=True):
            warnings.warn(deprecated("autocast"), FutureWarning, stacklevel=2)
            super().__init__(device_type, enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)

    class GradScaler(torch.amp.GradScaler):
        def __init__(self, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                     enabled=True):
            warnings.warn(deprecated("GradScaler"), FutureWarning, stacklevel=2)
            super().__init__(device_type, init_scale=init_scale, growth_factor=growth_factor,
                             backoff_factor=backoff_factor, growth_interval=growth_interval, enabled=enabled)

    return autocast, GradScaler
