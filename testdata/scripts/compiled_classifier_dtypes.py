# A small classifier trained under every backend with dtype conversions in its forward (x.float(),
# logits.double(), y.long(), an accuracy of .float().mean()) and a changing batch size: the
# batch sizes of x and y are two symbols of one value, and the hidden width equals one of them.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))

    def forward(self, x, y):
        logits = self.body(x.float())
        loss = F.cross_entropy(logits.double(), y.long())
        accuracy = (logits.argmax(-1) == y).float().mean()
        return loss, accuracy


for backend in ["eager", "aot_eager", "aot_eager_decomp_partition", "inductor"]:
    torch.manual_seed(0)
    model = Classifier()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    step = torch.compile(model, backend=backend)
    losses = []
    for n in [8, 12, 16, 12]:
        x = (torch.arange(n * 8.0).reshape(n, 8) % 7) / 7
        y = torch.arange(n) % 3
        opt.zero_grad()
        loss, acc = step(x, y.int())
        loss.backward()
        opt.step()
        losses.append((round(loss.item(), 4), round(acc.item(), 4)))
    print(backend, losses)
    torch._dynamo.reset()
