# torch._dynamo.testing: the counting backend tests compile with.


class CompileCounter:
    # Counts the frames it compiles and the call nodes of their graphs; runs each graph as it is.
    def __init__(self):
        self.frame_count = 0
        self.op_count = 0

    def __call__(self, gm, example_inputs):
        self.frame_count += 1
        for node in gm.graph.nodes:
            if "call" in node.op:
                self.op_count += 1
        return gm.forward

    def clear(self):
        self.frame_count = 0
        self.op_count = 0
