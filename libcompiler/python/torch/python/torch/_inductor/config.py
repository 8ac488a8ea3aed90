# torch._inductor.config: the settings scripts assign (kept for the code generator to read), and
# the check torch.compile(options=...) makes of the settings it is given.
fallback_random = False
debug = False
max_autotune = False
coordinate_descent_tuning = False
freezing = False
emulate_precision_casts = False
layout_optimization = True
comprehensive_padding = True


class _Section:
    # A dotted group of settings (cpp.threads): its names are known, for the options check.
    def __init__(self, **settings):
        self._names = list(settings)
        for name, value in settings.items():
            setattr(self, name, value)


cpp = _Section(inject_relu_bug_TESTING_ONLY=None, threads=-1)
triton = _Section(inject_relu_bug_TESTING_ONLY=None, cudagraphs=False)
# What PyTorch's CUDA minifier launchers set (runtime assertions in its generated Triton code);
# kiln's CUDA kernels have none of them, so the settings change nothing.
test_configs = _Section(runtime_triton_dtype_assert=False, runtime_triton_shape_assert=False, static_cpp_dtype_assert=False)


def _option_names():
    names = []
    for name, value in globals().items():
        if name.startswith("_") or callable(value):
            continue
        if isinstance(value, _Section):
            names.extend(name + "." + inner for inner in value._names)
        else:
            names.append(name)
    return names


def _default(name):
    value = globals()
    for part in name.split("."):
        value = value[part] if isinstance(value, dict) else getattr(value, part)
    return value


# Unknown names and values of another type than the setting's are refused, as PyTorch's inductor
# refuses them (a setting whose default is None takes any value).
def _check_options(options):
    if not options:
        return
    known = _option_names()
    for key, value in options.items():
        name = key.replace("-", "_")
        if name not in known:
            raise RuntimeError(f"Unexpected optimization option {key}, known options are {known}")
        default = _default(name)
        if default is not None and not isinstance(value, type(default)):
            raise RuntimeError(f"Unexpected type of attr {key}, got {type(value).__name__} should be {type(default).__name__}")
