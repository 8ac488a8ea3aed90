# pickle: the exception types of CPython's pickle module (kiln pickles only inside torch.save and
# torch.load, natively); they print as CPython's _pickle accelerator names them.


class PickleError(Exception):
    pass


class PicklingError(PickleError):
    pass


class UnpicklingError(PickleError):
    pass


PickleError.__module__ = "_pickle"
PicklingError.__module__ = "_pickle"
UnpicklingError.__module__ = "_pickle"
