# torch._dynamo.utils: compile times and CompileProfiler, reported by the capture runtime.
import torch._dynamo._kiln as _kiln


def compile_times(repr="str", aggregate=False):
    return _kiln.compile_times()


class CompileProfiler:
    # A backend that counts the frames and ops it is given and runs them as they are; report()
    # tells the graph breaks and recompiles of every compile so far.
    def __init__(self):
        self.frame_count = 0
        self.op_count = 0

    def __call__(self, gm, example_inputs):
        self.frame_count += 1
        for node in gm.graph.nodes:
            if "call" in node.op:
                self.op_count += 1
        return gm.forward

    def report(self):
        return _kiln.profiler_report()
