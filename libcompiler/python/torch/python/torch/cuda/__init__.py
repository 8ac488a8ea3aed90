# torch.cuda: the CUDA device module over kiln's CUDA runtime (torch._cuda_* natives). Names,
# defaults and errors as PyTorch's; without a driver is_available() is False and the first use
# raises PyTorch's error, and a build without CUDA's headers says it was not compiled with CUDA.
import torch
import torch.cuda.amp as amp


def is_available():
    return torch._cuda_is_available()


def device_count():
    return torch._cuda_device_count()


def is_initialized():
    return torch._cuda_compiled() and torch._cuda_is_available()


def _lazy_init():
    if not torch._cuda_compiled():
        raise AssertionError("Torch not compiled with CUDA enabled")
    torch._cuda_init()


def init():
    _lazy_init()


def _index(device):
    if device is None:
        return None
    if isinstance(device, int):
        return device
    device = torch.device(device)
    return device.index


def current_device():
    _lazy_init()
    return torch._cuda_current_device()


def set_device(device):
    index = _index(device)
    if index is not None and index >= 0:
        _lazy_init()
        torch._cuda_set_device(index)


def get_device_name(device=None):
    _lazy_init()
    return torch._cuda_get_device_name(_index(device))


def get_device_capability(device=None):
    _lazy_init()
    return torch._cuda_get_device_capability(_index(device))


class _DeviceProperties:
    def __init__(self, index):
        self.name = torch._cuda_get_device_name(index)
        self.major, self.minor = torch._cuda_get_device_capability(index)
        self.total_memory = torch._cuda_total_memory(index)
        self.multi_processor_count = torch._cuda_multi_processor_count(index)

    def __repr__(self):
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // (1024 * 1024)}MB, multi_processor_count={self.multi_processor_count})")


def is_bf16_supported(including_emulation=True):
    # Ampere (compute capability 8) and newer compute in bfloat16; older CUDA GPUs emulate it.
    if not is_available():
        return False
    return get_device_capability()[0] >= 8 or including_emulation


def get_device_properties(device=None):
    _lazy_init()
    index = _index(device)
    return _DeviceProperties(torch._cuda_current_device() if index is None else index)


def synchronize(device=None):
    _lazy_init()
    torch._cuda_synchronize(_index(device))


def manual_seed(seed):
    # Every device's generator: kiln runs one device per process.
    torch._cuda_manual_seed_all(seed)


def manual_seed_all(seed):
    torch._cuda_manual_seed_all(seed)


def memory_allocated(device=None):
    return torch._cuda_memory_stats(_index(device))[0] if is_available() else 0


def max_memory_allocated(device=None):
    return torch._cuda_memory_stats(_index(device))[1] if is_available() else 0


def memory_reserved(device=None):
    return torch._cuda_memory_stats(_index(device))[2] if is_available() else 0


def max_memory_reserved(device=None):
    return torch._cuda_memory_stats(_index(device))[3] if is_available() else 0


def reset_peak_memory_stats(device=None):
    if is_available():
        torch._cuda_reset_peak_memory_stats(_index(device))


def empty_cache():
    if is_available():
        torch._cuda_empty_cache()


class Event:
    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        _lazy_init()
        self._handle = torch._cuda_event_create()

    def record(self, stream=None):
        torch._cuda_event_record(self._handle)

    def synchronize(self):
        torch._cuda_event_synchronize(self._handle)

    def elapsed_time(self, end_event):
        return torch._cuda_event_elapsed_time(self._handle, end_event._handle)


class device:
    def __init__(self, device):
        self.index = _index(device)

    def __enter__(self):
        self.previous = torch._cuda_current_device() if is_available() else -1
        set_device(self.index)

    def __exit__(self, exc_type, exc_value, traceback):
        set_device(self.previous)
        return False
