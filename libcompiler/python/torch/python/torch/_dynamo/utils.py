# torch._dynamo.utils: compile times and CompileProfiler, reported by the capture runtime.
import torch._dynamo._kiln as _kiln
from torch._dynamo.testing import CompileCounter


def compile_times(repr="str", aggregate=False):
    return _kiln.compile_times()


class CompileProfiler(CompileCounter):
    # A backend that counts the frames and ops it is given and runs them as they are; report()
    # tells the graph breaks and recompiles of every compile so far.
    def report(self):
        return _kiln.profiler_report()
