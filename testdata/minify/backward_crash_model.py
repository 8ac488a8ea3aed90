# A model compiled by a backend whose forward runs but whose backward raises (its output is
# changed in place after exp saved it). The script itself never calls backward: with
# TORCHDYNAMO_REPRO_AFTER=dynamo and TORCHDYNAMO_REPRO_LEVEL=2 the wrapper's own forward and
# backward run (PyTorch's run_fwd_maybe_bwd) meets the error and writes the launcher. Real PyTorch
# behaves the same way on this script.
import torch


def breaks_the_backward(gm, example_inputs):
    # A module, as PyTorch's run_fwd_maybe_bwd wants to ask it for its parameters; the class lives
    # in the backend so that the repro files, which carry the backend's source, have it too.
    class BreaksTheBackward(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.compiled = [gm]  # a list: gm's parameters are not this module's

        def forward(self, *args):
            outputs = []
            for o in self.compiled[0](*args):
                saved = o.exp()
                saved.add_(0)
                outputs.append(saved)
            return tuple(outputs)

    return BreaksTheBackward()


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(8, 4)

    def forward(self, x):
        return torch.tanh(self.linear(x))


torch.manual_seed(0)
model = Model()
out = torch.compile(model, backend=breaks_the_backward)(torch.randn(2, 8))
print("forward ran", tuple(out.shape))
