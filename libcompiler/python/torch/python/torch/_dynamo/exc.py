# torch._dynamo.exc: the errors torch.compile raises.


class TorchDynamoException(RuntimeError):
    pass


class Unsupported(TorchDynamoException):
    pass


class BackendCompilerFailed(TorchDynamoException):
    pass


class InvalidBackend(TorchDynamoException):
    pass


class RecompileError(TorchDynamoException):
    pass
