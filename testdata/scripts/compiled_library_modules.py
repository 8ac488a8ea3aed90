# torch.compile of a module torch defines (Linear, Sequential) compiles its forward: one graph
# each, seen by a backend that counts the graphs it is given.
import torch

graphs = []


def counting_backend(gm, example_inputs):
    graphs.append(len(example_inputs))
    return gm.forward


torch.manual_seed(0)
linear = torch.nn.Linear(3, 2)
stack = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
x = torch.ones(2, 3)
for module in (linear, stack):
    compiled = torch.compile(module, backend=counting_backend)
    print(type(module).__name__, (compiled(x) - module(x)).abs().max().item() == 0, "graphs so far:", len(graphs), "inputs:", graphs)
