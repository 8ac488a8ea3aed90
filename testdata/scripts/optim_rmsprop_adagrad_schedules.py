# RMSprop (plain, centered, momentum, weight decay), Adagrad (lr decay, initial accumulator), and
# the schedulers ConstantLR, PolynomialLR, CosineAnnealingWarmRestarts, OneCycleLR (lr and the
# momentum/beta1 it cycles), SequentialLR and ReduceLROnPlateau, step by step; their errors.
import torch
import torch.nn as nn


def run(make_opt, steps=4):
    torch.manual_seed(0)
    model = nn.Linear(3, 2)
    opt = make_opt(model.parameters())
    x = torch.randn(6, 3)
    y = torch.randn(6, 2)
    for _ in range(steps):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    return " ".join(f"{v:.6f}" for v in model.weight.flatten().tolist() + model.bias.tolist())


print("rmsprop", run(lambda p: torch.optim.RMSprop(p, lr=0.01)))
print("rmsprop centered", run(lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True)))
print("rmsprop momentum wd", run(lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.9, weight_decay=0.1)))
print("rmsprop alpha maximize", run(lambda p: torch.optim.RMSprop(p, lr=0.01, alpha=0.9, maximize=True)))
print("adagrad", run(lambda p: torch.optim.Adagrad(p, lr=0.1)))
print("adagrad decay", run(lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.5, weight_decay=0.01,
                                                          initial_accumulator_value=0.1)))
opt = torch.optim.Adagrad([nn.Parameter(torch.zeros(2))], lr=0.1)
print(sorted(opt.state[opt.param_groups[0]["params"][0]].keys()), opt.defaults["eps"])


def lrs(make_sched, steps=8, momentum=False, opt_factory=None):
    param = nn.Parameter(torch.zeros(1))
    opt = (opt_factory or (lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9)))([param])
    sched = make_sched(opt)
    out = []
    for _ in range(steps):
        opt.step()
        sched.step()
        group = opt.param_groups[0]
        value = group["lr"]
        if momentum:
            value = (value, group["betas"][0] if "betas" in group else group["momentum"])
        out.append(value)
    return out


def show(name, values):
    print(name, [tuple(round(v, 6) for v in x) if isinstance(x, tuple) else round(x, 6) for x in values])


show("constant", lrs(lambda o: torch.optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3)))
show("polynomial", lrs(lambda o: torch.optim.lr_scheduler.PolynomialLR(o, total_iters=5, power=2.0)))
show("warm restarts", lrs(lambda o: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01), 10))
show("one cycle", lrs(lambda o: torch.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=10), 9, momentum=True))
show("one cycle linear three phase", lrs(lambda o: torch.optim.lr_scheduler.OneCycleLR(
    o, max_lr=0.5, total_steps=12, anneal_strategy="linear", three_phase=True), 11, momentum=True,
    opt_factory=lambda ps: torch.optim.Adam(ps, lr=0.1)))
show("sequential", lrs(lambda o: torch.optim.lr_scheduler.SequentialLR(
    o, [torch.optim.lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=3),
        torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=5)], milestones=[3]), 9))

param = nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([param], lr=1.0)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1, cooldown=1, min_lr=0.1)
history = []
for loss in [1.0, 0.9, 0.95, 0.96, 0.97, 0.8, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86]:
    plateau.step(loss)
    history.append((opt.param_groups[0]["lr"], plateau.num_bad_epochs, plateau.cooldown_counter))
print("plateau", history, plateau.get_last_lr(), plateau.best)
maxed = torch.optim.lr_scheduler.ReduceLROnPlateau(torch.optim.SGD([param], lr=1.0), mode="max", threshold_mode="abs",
                                                   threshold=0.1, patience=0)
for score in [1.0, 1.05, 1.2, 1.25]:
    maxed.step(score)
print("plateau max", maxed.get_last_lr(), maxed.best)

for bad in [lambda: torch.optim.RMSprop([param], lr=-1), lambda: torch.optim.RMSprop([param], alpha=-0.5),
            lambda: torch.optim.Adagrad([param], lr_decay=-1),
            lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=1.5),
            lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="middle"),
            lambda: torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0),
            lambda: torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=4, anneal_strategy="exp"),
            lambda: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0),
            lambda: torch.optim.lr_scheduler.ConstantLR(opt, factor=2.0),
            lambda: torch.optim.lr_scheduler.SequentialLR(opt, [torch.optim.lr_scheduler.ConstantLR(opt)], milestones=[2]),
            lambda: torch.optim.lr_scheduler.StepLR(None, 2)]:
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
sched = torch.optim.lr_scheduler.StepLR(torch.optim.SGD([param], lr=1.0), step_size=2)
sched.step()
state = sched.state_dict()
print(sorted(k for k in state if not k.startswith("_")), state["last_epoch"])
