# torch._inductor.exc: the errors inductor raises.


class InductorError(RuntimeError):
    pass
