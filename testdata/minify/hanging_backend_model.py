# A backend that never returns: minify's --timeout must bound the first run of the script too.
import torch
def hanging_backend(gm, example_inputs):
    while True:
        pass
@torch.compile(backend=hanging_backend)
def f(x):
    return torch.relu(x) + 1
print(f(torch.ones(3)))
