# torch.cuda.amp: the deprecated spellings of torch.amp's autocast and GradScaler for CUDA.
import warnings

import torch

autocast, GradScaler = torch.amp._deprecated_spellings("cuda", torch.float16)


def custom_fwd(fwd=None, *, cast_inputs=None):
    warnings.warn("`torch.cuda.amp.custom_fwd(args...)` is deprecated. "
                  "Please use `torch.amp.custom_fwd(args..., device_type='cuda')` instead.", FutureWarning, stacklevel=2)
    return torch.amp.custom_fwd(fwd, device_type="cuda", cast_inputs=cast_inputs)


def custom_bwd(bwd):
    warnings.warn("`torch.cuda.amp.custom_bwd(args...)` is deprecated. "
                  "Please use `torch.amp.custom_bwd(args..., device_type='cuda')` instead.", FutureWarning, stacklevel=2)
    return torch.amp.custom_bwd(bwd, device_type="cuda")
