from .after_aot import run_repro  # noqa: F401
