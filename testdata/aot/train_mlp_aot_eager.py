# The MLP training loop of real/pytorch-2.11/programs/train_mlp.py, twice from the same seed:
# eagerly and under torch.compile with the backend given as the first argument (aot_eager by
# default); prints both losses per step and their difference.
import sys

import torch

backend = sys.argv[1] if len(sys.argv) > 1 else "aot_eager"


def make():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU(), torch.nn.LayerNorm(128),
                                torch.nn.Linear(128, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return model, opt


def step(model, opt, data):
    opt.zero_grad(True)
    pred = model(data[0])
    loss = torch.nn.CrossEntropyLoss()(pred, data[1])
    loss.backward()
    opt.step()
    return loss


def losses(train):
    model, opt = make()
    torch.manual_seed(1)
    out = []
    for i in range(5):
        x = torch.randn(32, 64)
        y = torch.randint(0, 10, (32,))
        out.append(float(train(model, opt, (x, y))))
    return out


eager = losses(step)
compiled = losses(torch.compile(step, backend=backend))
for e, c in zip(eager, compiled):
    print("%.8f %.8f %.3g" % (e, c, abs(e - c)))
