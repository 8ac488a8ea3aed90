# torch.compiler: disable() marks a function that compiled code runs eagerly (recursive=False:
# only its own frame; the functions it calls are still compiled).


def disable(fn=None, recursive=True, *, reason=None):
    if fn is None:
        def decorate(f):
            return disable(f, recursive)
        return decorate
    fn._torchdynamo_disable = recursive
    return fn


def is_compiling():
    return False


def reset():
    import torch._dynamo
    torch._dynamo.reset()
