# nn.Module: registration, parameters, state_dict, printing, train/eval.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.act = nn.ReLU()
        self.blocks = nn.ModuleList([nn.Linear(3, 3) for _ in range(2)])
        self.norm = nn.LayerNorm(3)

    def forward(self, x):
        x = self.act(self.fc1(x))
        for block in self.blocks:
            x = torch.tanh(block(x))
        return self.norm(x)


net = Net()
print(net)
print([name for name, _ in net.named_parameters()])
print(sum(p.numel() for p in net.parameters()), list(net.state_dict().keys())[:3])
print(net.fc1.weight)
out = net(torch.randn(2, 4))
print(out)
print(net.training, net.eval().training, isinstance(net.fc1, nn.Module))
seq = nn.Sequential(nn.Linear(2, 2), nn.GELU(), nn.Sigmoid())
print(seq, len(seq), seq[0])
