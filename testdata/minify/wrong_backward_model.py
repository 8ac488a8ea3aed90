# A model compiled by a backend whose forward is exact but whose backward is wrong, for the
# accuracy tools' backward check (PyTorch's run_fwd_maybe_bwd): with TORCHDYNAMO_REPRO_AFTER=dynamo
# and TORCHDYNAMO_REPRO_LEVEL=4 the accuracy check fails on the gradients, and passes with
# TORCHDYNAMO_REPRO_FORWARD_ONLY=1. Real PyTorch behaves the same way on this script.
import torch


def doubles_the_gradient(gm, example_inputs):
    # o * 2 - o.detach() has o's value and twice o's gradient. A module (not a function), so that
    # PyTorch's collect_results can ask it for its parameters; the class lives in the backend so
    # that the repro files, which carry the backend's source, have it too.
    class DoublesTheGradient(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.compiled = [gm]  # a list: gm's parameters are not this module's

        def forward(self, *args):
            return tuple(o * 2 - o.detach() for o in self.compiled[0](*args))

    return DoublesTheGradient()


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(8, 8)
        self.b = torch.nn.Linear(8, 4)

    def forward(self, x):
        return self.b(torch.tanh(self.a(x)) * 0.5).sum(dim=-1)


torch.manual_seed(0)
model = Model()
x = torch.randn(4, 8)
out = torch.compile(model, backend=doubles_the_gradient)(x)
print("max abs diff", (out - model(x)).abs().max().item())
