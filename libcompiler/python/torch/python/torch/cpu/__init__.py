# torch.cpu: the CPU device module (its amp.autocast is the deprecated spelling of torch.autocast).
import torch.cpu.amp as amp


def is_available():
    return True


def device_count():
    return 1


def synchronize(device=None):
    pass
