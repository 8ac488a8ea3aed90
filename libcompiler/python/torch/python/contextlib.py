# contextlib: context managers from generators, and the small ready-made ones.

from functools import wraps


class _GeneratorContextManager:
    def __init__(self, func, args, kwargs):
        self.gen = func(*args, **kwargs)

    def __enter__(self):
        try:
            return next(self.gen)
        except StopIteration:
            raise RuntimeError("generator didn't yield") from None

    def __exit__(self, exc_type, exc_value, traceback):
        if exc_type is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            raise RuntimeError("generator didn't stop")
        if exc_value is None:
            exc_value = exc_type()
        try:
            self.gen.throw(exc_value)
        except StopIteration as stop:
            # The generator caught the exception and finished: it is suppressed.
            return stop is not exc_value
        except BaseException as raised:
            if raised is exc_value:
                return False
            raise
        raise RuntimeError("generator didn't stop after throw()")


def contextmanager(func):
    @wraps(func)
    def helper(*args, **kwargs):
        return _GeneratorContextManager(func, args, kwargs)

    return helper


class nullcontext:
    def __init__(self, enter_result=None):
        self.enter_result = enter_result

    def __enter__(self):
        return self.enter_result

    def __exit__(self, *exc_info):
        return None


class suppress:
    def __init__(self, *exceptions):
        self._exceptions = exceptions

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc_value, traceback):
        return exc_type is not None and issubclass(exc_type, self._exceptions)


class _RedirectStream:
    # Swaps sys.<stream> for the target while the block runs (print() writes to sys.stdout).
    _stream = None

    def __init__(self, new_target):
        self._new_target = new_target
        self._old_targets = []

    def __enter__(self):
        import sys
        self._old_targets.append(getattr(sys, self._stream))
        setattr(sys, self._stream, self._new_target)
        return self._new_target

    def __exit__(self, exc_type, exc_value, traceback):
        import sys
        setattr(sys, self._stream, self._old_targets.pop())


class redirect_stdout(_RedirectStream):
    _stream = "stdout"


class redirect_stderr(_RedirectStream):
    _stream = "stderr"


class ExitStack:
    # Exit callbacks, run last-in first-out; each sees the exception the previous ones left.

    def __init__(self):
        self._exits = []

    def __enter__(self):
        return self

    def push(self, exit):
        # A context manager (its __exit__ is kept) or a callable taking what __exit__ takes.
        method = getattr(type(exit), "__exit__", None)
        self._exits.append(exit if method is None else exit.__exit__)
        return exit

    def enter_context(self, manager):
        exit = getattr(manager, "__exit__", None)
        if exit is None or getattr(manager, "__enter__", None) is None:
            raise TypeError("'" + type(manager).__module__ + "." + type(manager).__qualname__
                            + "' object does not support the context manager protocol")
        result = manager.__enter__()
        self._exits.append(exit)
        return result

    def callback(self, callback, *args, **kwargs):
        def exit(exc_type, exc_value, traceback):
            callback(*args, **kwargs)

        self._exits.append(exit)
        return callback

    def pop_all(self):
        moved = ExitStack()
        moved._exits = self._exits
        self._exits = []
        return moved

    def close(self):
        self.__exit__(None, None, None)

    def __exit__(self, exc_type, exc_value, traceback):
        pending = exc_value
        suppressed = False
        while self._exits:
            exit = self._exits.pop()
            try:
                details = (None, None, None) if pending is None else (type(pending), pending, None)
                if exit(*details):
                    pending = None
                    suppressed = True
            except BaseException as raised:
                pending = raised
        if pending is not None and pending is not exc_value:
            raise pending
        return suppressed and pending is None
