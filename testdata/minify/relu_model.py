# A small model with one relu among other ops, for the minifier's end-to-end tests: the testing
# backends misbehave on relu (libcompiler/backends/testing_backends.h).
#   kiln relu_model.py BACKEND [INJECT]
# BACKEND: a backend name, or "script" for a backend the script defines (it refuses relu);
# INJECT: torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY, for aot_eager_relu_bug_TESTING_ONLY.
import sys
import torch
import torch._inductor.config as iconfig

backend = sys.argv[1]
if len(sys.argv) > 2:
    iconfig.cpp.inject_relu_bug_TESTING_ONLY = sys.argv[2]


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(16, 16)
        self.b = torch.nn.Linear(16, 16)

    def forward(self, x, with_relu):
        x = torch.tanh(self.a(x)) * 0.5
        if with_relu:
            x = torch.relu(x) + 1
        return torch.sigmoid(self.b(x)) * x + x.mean(dim=-1, keepdim=True)


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList([Block() for _ in range(4)])

    def forward(self, x):
        for i, block in enumerate(self.blocks):
            x = block(x, i == 2)
        return x.sum(dim=-1)


def refuses_relu(gm, example_inputs):
    for node in gm.graph.nodes:
        if node.target == torch.relu:
            assert False, "refuses_relu: no relu here"
    return gm


torch.manual_seed(0)
model = Model()
x = torch.randn(8, 16)
compiled = torch.compile(model, backend=refuses_relu if backend == "script" else backend)
with torch.no_grad():
    out = compiled(x)
    ref = model(x)
print("max abs diff", (out - ref).abs().max().item())
