# The inductor testing knob: python relu_bug.py compile_error|runtime_error|accuracy
import sys
import torch
import torch._inductor.config as iconfig

iconfig.cpp.inject_relu_bug_TESTING_ONLY = sys.argv[1]

def f(x):
    return torch.relu(x * 2) + 1

x = torch.randn(8, 8)
out = torch.compile(f)(x)
# "accuracy" makes the kernel's relu(y) compute y + 1.
print("relu(x * 2) computed as x * 2 + 1:", torch.allclose(out, x * 2 + 2), torch.allclose(out, f(x)))
