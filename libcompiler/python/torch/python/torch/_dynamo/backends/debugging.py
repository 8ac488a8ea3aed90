# torch._dynamo.backends.debugging: the errors of the testing backends (relu_compile_error_TESTING_ONLY
# and the others, registered natively by libcompiler/backends/testing_backends.cpp).


class ReluCompileError(Exception):
    pass


class TestingOnlyCompileError(Exception):
    pass
