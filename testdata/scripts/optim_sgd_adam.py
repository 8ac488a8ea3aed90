# SGD with momentum and weight decay, Adam, ExponentialLR: PyTorch's update rules.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=0.01)
x = torch.randn(4, 3)
y = torch.randn(4, 2)
for step in range(3):
    opt.zero_grad()
    loss = nn.MSELoss()(model(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
model2 = nn.Linear(3, 2)
adam = torch.optim.Adam(model2.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.ExponentialLR(adam, 0.5)
target = torch.randint(0, 2, (4,))
for step in range(3):
    adam.zero_grad()
    loss = nn.CrossEntropyLoss()(model2(x), target)
    loss.backward()
    adam.step()
    sched.step()
    print(step, round(loss.item(), 5), sched.get_last_lr())
print([[round(v, 3) for v in row] for row in model2.weight.tolist()])
