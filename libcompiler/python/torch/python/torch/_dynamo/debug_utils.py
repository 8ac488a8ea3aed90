# torch._dynamo.debug_utils: what repro files and the repro tools raise (the tools themselves are
# native: libcompiler/repro).


class AccuracyError(Exception):
    pass
