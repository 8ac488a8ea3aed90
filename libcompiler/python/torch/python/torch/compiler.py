# torch.compiler: disable() marks a function that compiled code runs eagerly (recursive=False:
# only its own frame; the functions it calls are still compiled).


def disable(fn=None, recursive=True, *, reason=None):
    if fn is None:
        def decorate(f):
            return disable(f, recursive)
        return decorate
    fn._torchdynamo_disable = recursive
    return fn


def set_stance(stance="default", *, skip_guard_eval_unsafe=False, force_backend=None):
    # How torch.compile'd functions run from now on: a call, a context manager or a decorator.
    import torch._dynamo
    return torch._dynamo.set_stance(stance, skip_guard_eval_unsafe=skip_guard_eval_unsafe,
                                    force_backend=force_backend)


def is_compiling():
    return False


def reset():
    import torch._dynamo
    torch._dynamo.reset()
