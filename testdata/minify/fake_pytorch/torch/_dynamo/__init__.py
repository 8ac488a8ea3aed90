from . import config, repro, testing  # noqa: F401
