# torch.compile(model) compiles the module's forward; a second call with the same shape hits
# the cache, and a new batch size recompiles.
import torch

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(4, 8)
        self.fc2 = torch.nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

torch.manual_seed(0)
model = Net()
opt = torch.compile(model, backend="eager")
print([round(v, 4) for v in opt(torch.ones(3, 4)).sum(0).tolist()])
print([round(v, 4) for v in opt(torch.ones(3, 4) * 2).sum(0).tolist()])
print([round(v, 4) for v in opt(torch.ones(5, 4)).sum(0).tolist()])
