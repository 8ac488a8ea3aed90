# torch._inductor: its config module.
import torch._inductor.config as config
