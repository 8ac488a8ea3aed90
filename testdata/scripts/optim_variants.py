# SGD (momentum, dampening, nesterov, weight decay), Adam (weight decay, amsgrad), AdamW, schedulers.
import torch
import torch.nn as nn


def run(make_opt, steps=3):
    torch.manual_seed(0)
    model = nn.Linear(3, 2)
    opt = make_opt(model.parameters())
    x = torch.randn(5, 3)
    y = torch.randn(5, 2)
    for _ in range(steps):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    # Five decimals: Adam's square roots go through PyTorch's vectorized sqrt, which is not correctly
    # rounded (kiln's is), so a parameter may differ in its last float32 bit.
    return " ".join(f"{v:.5f}" for v in model.weight.flatten().tolist() + model.bias.tolist())


print("sgd", run(lambda p: torch.optim.SGD(p, lr=0.1)))
print("sgd momentum", run(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)))
print("sgd dampening", run(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.5)))
print("sgd nesterov", run(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True)))
print("sgd wd", run(lambda p: torch.optim.SGD(p, lr=0.1, weight_decay=0.1)))
print("adam", run(lambda p: torch.optim.Adam(p, lr=0.05)))
print("adam wd", run(lambda p: torch.optim.Adam(p, lr=0.05, weight_decay=0.1)))
print("adam amsgrad", run(lambda p: torch.optim.Adam(p, lr=0.05, amsgrad=True), steps=5))
print("adam betas", run(lambda p: torch.optim.Adam(p, lr=0.05, betas=(0.8, 0.9), eps=1e-6)))
print("adamw", run(lambda p: torch.optim.AdamW(p, lr=0.05)))
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
lrs = []
for _ in range(4):
    opt.step()
    sched.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
print(lrs, opt.param_groups[0]["lr"], len(opt.param_groups), sorted(opt.param_groups[0].keys())[:4])
opt2 = torch.optim.SGD(model.parameters(), lr=0.5)
step_sched = torch.optim.lr_scheduler.StepLR(opt2, step_size=2, gamma=0.1)
seen = []
for _ in range(5):
    opt2.step()
    step_sched.step()
    seen.append(f"{step_sched.get_last_lr()[0]:.4g}")
print(seen)
