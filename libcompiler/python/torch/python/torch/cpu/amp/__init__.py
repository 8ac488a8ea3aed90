# torch.cpu.amp.autocast and GradScaler: deprecated in favour of torch.amp's with device "cpu".
import torch

autocast, GradScaler = torch.amp._deprecated_spellings("cpu", torch.bfloat16)
