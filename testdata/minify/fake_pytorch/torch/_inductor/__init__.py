from . import config, compile_fx, cpu_vec_isa  # noqa: F401
