# torch._dynamo.config: the settings scripts assign (kept for the capture stage to read).
import os
import sys
from torch.utils._config_module import Config, install_config_module
recompile_limit = 8
accumulated_recompile_limit = 256
# One setting each under two names, as in PyTorch: the older names read and write the newer.
cache_size_limit = Config(alias="torch._dynamo.config.recompile_limit")
accumulated_cache_size_limit = Config(alias="torch._dynamo.config.accumulated_recompile_limit")
suppress_errors = False
error_on_recompile = False  # a recompile raises torch._dynamo.exc.RecompileError
capture_scalar_outputs = False
capture_dynamic_output_shape_ops = False
# The repro tools (libcompiler/repro), initialised from the environment as PyTorch does.
repro_after = os.environ.get("TORCHDYNAMO_REPRO_AFTER", None)
repro_level = int(os.environ.get("TORCHDYNAMO_REPRO_LEVEL", 2))
repro_forward_only = os.environ.get("TORCHDYNAMO_REPRO_FORWARD_ONLY") == "1"
repro_ignore_non_fp = os.environ.get("TORCHDYNAMO_REPRO_IGNORE_NON_FP") == "1"
repro_tolerance = 1e-3
same_two_models_use_fp64 = True
replay_record_enabled = False
reorderable_logging_functions = set()
verbose = False
automatic_dynamic_shapes = True
assume_static_by_default = True
# Graphs captured inside a DistributedDataParallel forward are split at its gradient buckets
# (DDPOptimizer) when this is True or "ddp_optimizer"; False, "no_optimization" and the Python
# reducer modes compile them whole.
optimize_ddp = True

install_config_module(sys.modules[__name__])
