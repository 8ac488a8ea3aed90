# torch._dynamo.config: the settings scripts assign (kept for the capture stage to read).
cache_size_limit = 8
accumulated_cache_size_limit = 256
suppress_errors = False
capture_scalar_outputs = False
capture_dynamic_output_shape_ops = False
repro_after = None
repro_level = 2
replay_record_enabled = False
reorderable_logging_functions = set()
verbose = False
automatic_dynamic_shapes = True
assume_static_by_default = True
