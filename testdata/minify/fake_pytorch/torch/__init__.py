# A stand-in for PyTorch that tests `minify --python` where real torch is absent: enough of torch
# for the repro files Kiln writes to run, and an "inductor" that fails to compile any graph holding
# a relu when torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY is 'compile_error'.
import contextlib

from . import nn, fx, _dynamo, _inductor, _functorch  # noqa: F401

tensor = device = None
float32 = float16 = float64 = int64 = bool = "dtype"


def no_grad():
    return contextlib.nullcontext()
