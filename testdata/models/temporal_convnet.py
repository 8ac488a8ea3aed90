# A temporal convolutional network for sequence regression: causal dilated Conv1d blocks (left
# padding by F.pad), residual connections with a 1x1 projection, dropout, MSE on the last step;
# Adam with a StepLR schedule, compiled by inductor.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalBlock(nn.Module):
    def __init__(self, cin, cout, dilation, kernel=3):
        super().__init__()
        self.pad = (kernel - 1) * dilation
        self.conv1 = nn.Conv1d(cin, cout, kernel, dilation=dilation)
        self.conv2 = nn.Conv1d(cout, cout, kernel, dilation=dilation)
        self.skip = nn.Conv1d(cin, cout, 1) if cin != cout else nn.Identity()
        self.drop = nn.Dropout(0.0)

    def forward(self, x):
        y = F.relu(self.conv1(F.pad(x, (self.pad, 0))))
        y = self.drop(F.relu(self.conv2(F.pad(y, (self.pad, 0)))))
        return F.relu(y + self.skip(x))


class TCN(nn.Module):
    def __init__(self, channels=(1, 8, 8, 8)):
        super().__init__()
        self.blocks = nn.Sequential(*[CausalBlock(channels[i], channels[i + 1], 2 ** i) for i in range(len(channels) - 1)])
        self.out = nn.Linear(channels[-1], 1)

    def forward(self, x):
        return self.out(self.blocks(x)[:, :, -1])


torch.manual_seed(8)
model = TCN()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
compiled = torch.compile(model)
t = torch.linspace(0, 1, 20)
x = torch.sin(6.0 * t + torch.arange(4).unsqueeze(1)).unsqueeze(1)
y = x[:, :, -1] * 0.5
for step in range(4):
    loss = F.mse_loss(compiled(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    print(step, f"{loss.item():.5f}", sched.get_last_lr())
