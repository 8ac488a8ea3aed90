# A backend defined in the script sees the FX graph: it counts node kinds and targets.
import operator
import torch

seen = []

def inspecting(gm, example_inputs):
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target is torch.relu:
            seen.append("relu")
        elif node.op == "call_function" and node.target is operator.add:
            seen.append("add")
        else:
            seen.append(node.op)
    return gm

@torch.compile(backend=inspecting)
def fn(x, y):
    return torch.relu(x) + y

print(fn(torch.arange(-1.0, 2.0), torch.ones(3)).tolist())
print(seen)
