# torch._inductor.config: the settings scripts assign (kept for the code generator to read).
fallback_random = False
debug = False
max_autotune = False
freezing = False
emulate_precision_casts = False
layout_optimization = True
comprehensive_padding = True


class cpp:
    inject_relu_bug_TESTING_ONLY = None
    threads = -1


class triton:
    inject_relu_bug_TESTING_ONLY = None
    cudagraphs = False
