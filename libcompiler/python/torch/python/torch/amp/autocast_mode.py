# torch.autocast as PyTorch 2.11 defines it: a context manager and decorator that sets the
# thread's autocast state for one device type. The states are native (what the op dispatcher casts
# by, libcompiler/ops/autocast.h), one for the CPU and one for CUDA.
import functools
import warnings

import torch

_DEVICE_TYPES = ("cpu", "cuda")  # the device types kiln has (PyTorch has more; kiln's torch.device refuses them)


def is_autocast_available(device_type):
    return device_type in _DEVICE_TYPES


def _check_device(device_type):
    torch.device(device_type)  # PyTorch's error for a string that names no device type
    if not is_autocast_available(device_type):
        raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")


def is_autocast_enabled(device_type=None):
    if device_type is None:
        device_type = "cuda"
    _check_device(device_type)
    return torch._autocast_state(device_type)[0]


def set_autocast_enabled(device_type, enabled=None):
    if enabled is None:  # the deprecated one-argument form, for CUDA
        device_type, enabled = "cuda", device_type
    _check_device(device_type)
    _, dtype, cache = torch._autocast_state(device_type)
    torch._set_autocast_state(device_type, enabled, dtype, cache)


def get_autocast_dtype(device_type):
    _check_device(device_type)
    return torch._autocast_state(device_type)[1]


def set_autocast_dtype(device_type, dtype):
    _check_device(device_type)
    enabled, _, cache = torch._autocast_state(device_type)
    torch._set_autocast_state(device_type, enabled, dtype, cache)


def is_autocast_cache_enabled():
    return torch._autocast_state("cpu")[2]


def set_autocast_cache_enabled(enabled):
    for device_type in _DEVICE_TYPES:
        enabled_now, dtype, _ = torch._autocast_state(device_type)
        torch._set_autocast_state(device_type, enabled_now, dtype, enabled)


clear_autocast_cache = torch.clear_autocast_cache


def is_autocast_cpu_enabled():
    warnings.warn("torch.is_autocast_cpu_enabled() is deprecated. Please use torch.is_autocast_enabled('cpu') instead.",
                  FutureWarning, stacklevel=2)
    return is_autocast_enabled("cpu")


def get_autocast_cpu_dtype():
    warnings.warn("torch.get_autocast_cpu_dtype() is deprecated. Please use torch.get_autocast_dtype('cpu') instead.",
                  FutureWarning, stacklevel=2)
    return get_autocast_dtype("cpu")


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        _check_device(device_type)
        self._cache_enabled = is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        if enabled:
            supported = [torch.bfloat16, torch.float16]
            name = device_type.upper()
            if device_type == "cuda" and not torch.cuda.is_available():
                warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2)
                enabled = False
            elif device_type == "cuda" and self.fast_dtype == torch.bfloat16 and not torch.cuda.is_bf16_supported():
                raise RuntimeError("Current CUDA Device does not support bfloat16. Please switch dtype to float16.")
            elif self.fast_dtype not in supported:
                warnings.warn(f"In {name} autocast, but the target dtype is not supported. Disabling autocast.\n"
                              f"{name} Autocast only supports dtypes of " + ", ".join(map(str, supported)) +
                              " currently.", stacklevel=2)
                enabled = False
        self._enabled = enabled

    def __enter__(self):
        _enter_autocast(self.device, self.fast_dtype, self._enabled, self._cache_enabled)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _exit_autocast()
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorate_autocast


# Entering and leaving an autocast region, each one call: compiled code records them as graph
# nodes (Dynamo's _enter_autocast/_exit_autocast), so a graph switches autocast as the code did.
_saved_states = []


def _enter_autocast(device_type, dtype, enabled, cache_enabled):
    _saved_states.append((device_type, is_autocast_enabled(device_type), get_autocast_dtype(device_type),
                          is_autocast_cache_enabled()))
    set_autocast_enabled(device_type, enabled)
    set_autocast_dtype(device_type, dtype)
    torch.autocast_increment_nesting()
    set_autocast_cache_enabled(is_autocast_cache_enabled() if cache_enabled is None else cache_enabled)


def _exit_autocast():
    device_type, enabled, dtype, cache_enabled = _saved_states.pop()
    if torch.autocast_decrement_nesting() == 0:
        clear_autocast_cache()
    set_autocast_enabled(device_type, enabled)
    set_autocast_dtype(device_type, dtype)
    set_autocast_cache_enabled(cache_enabled)


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    # For autograd.Function.forward: runs it with autocast as at the call (or disabled, with its
    # floating inputs cast to cast_inputs), and remembers that state for custom_bwd.
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._dtype = get_autocast_dtype(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        autocast_context = is_autocast_enabled(device_type)
        args[0]._fwd_used_autocast = False
        if autocast_context:
            with autocast(device_type=device_type, enabled=False):
                cast = [a.to(cast_inputs) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                        for a in args[1:]]
                return fwd(args[0], *cast, **kwargs)
        return fwd(*args, **kwargs)
    return decorate_fwd


def custom_bwd(bwd=None, *, device_type):
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast, dtype=args[0]._dtype):
            return bwd(*args, **kwargs)
    return decorate_bwd


class _float32_under_autocast:
    # For the ops PyTorch's autocast runs in float32 on some device types (CUDA's AT_FORALL_FP32
    # list, the CPU's own) that kiln composes in Python (losses, logsumexp, cdist, interpolation):
    # `with _float32_under_autocast(("cpu", "cuda"), a, b) as (a, b):` gives their floating tensors
    # of a listed device type whose autocast is on as float32, and runs the block with that
    # autocast off, as ATen runs below an autocast kernel. A context in the function's body, not a
    # decorator: graph capture records torch.nn.functional's functions by their own identity.
    def __init__(self, device_types, *tensors):
        self._devices = [device for device in device_types if torch._autocast_state(device)[0]]
        self._tensors = tuple(map(self._cast, tensors)) if self._devices else tensors

    def _cast(self, value):
        if (isinstance(value, torch.Tensor) and value.device.type in self._devices and value.is_floating_point()
                and value.dtype != torch.float64):
            return value.to(self._target(value.device.type))
        return value

    def _target(self, device_type):
        return torch.float32

    def __enter__(self):
        for device in self._devices:
            _enter_autocast(device, get_autocast_dtype(device), False, None)
        return self._tensors

    def __exit__(self, exc_type, exc_val, exc_tb):
        for _ in self._devices:
            _exit_autocast()
        return False


class _lower_precision_under_autocast(_float32_under_autocast):
    # The same for the ops autocast runs in its lower precision (prelu): the autocast's dtype.
    def _target(self, device_type):
        return get_autocast_dtype(device_type)


def _refuse_binary_cross_entropy_on_cuda(input):
    # PyTorch's CUDA autocast refuses binary_cross_entropy (the log of a float16 probability).
    if torch._autocast_state("cuda")[0] and input.device.type == "cuda":
        raise RuntimeError(
            "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"
            "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
            "In this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\n"
            "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
            "safe to autocast.")
