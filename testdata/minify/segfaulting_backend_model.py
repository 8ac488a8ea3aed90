# A backend that crashes its process (SIGSEGV) when the graph it is given holds a relu, the way a
# broken compiler extension does. minify --after=dynamo --level=3 must keep that crash as the
# failure and shrink the graph to the relu.
import os
import signal

import torch


def segfaulting_backend(gm, example_inputs):
    for node in gm.graph.nodes:
        if node.target in (torch.relu, torch.nn.functional.relu):
            os.kill(os.getpid(), signal.SIGSEGV)
    return gm.forward


def model(x):
    a = x.sin() + 1
    b = a.cos() * 2
    c = torch.relu(b) - a
    d = c.exp() / 3
    return d.tanh() + b


print(torch.compile(model, backend=segfaulting_backend)(torch.ones(4)))
