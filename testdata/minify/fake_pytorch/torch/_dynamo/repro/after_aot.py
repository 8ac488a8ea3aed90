import inspect

import torch._inductor.config as config


class CppCompileError(Exception):
    pass


def run_repro(mod, load_args, command="run", **kwargs):
    # The graph is not run: its source says whether this inductor can compile it.
    source = inspect.getsource(type(mod).forward)
    if config.cpp.inject_relu_bug_TESTING_ONLY == "compile_error" and "aten.relu" in source:
        raise CppCompileError("C++ compile error (fake inductor: relu at line 12)")
