# torch.amp: automatic mixed precision (autocast on the CPU; kiln has no GradScaler yet).
from torch.amp.autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available
