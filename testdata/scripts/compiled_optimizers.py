# Training steps compiled whole (zero_grad, forward, backward, the optimizer's step) with each
# optimizer kind: the compiled update (Dynamo captures the step, the inductor compiles it,
# writing the new parameters and state back) keeps the parameters and state equal to eager's
# step for step, including the recompile when SGD's momentum buffers appear and when a
# scheduler changes the learning rate.
import torch


def make_model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(6, 12), torch.nn.Tanh(), torch.nn.Linear(12, 3))


def train(make_optimizer, compiled, steps=4, schedule=False):
    model = make_model()
    opt = make_optimizer(model.parameters())
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, 0.5) if schedule else None

    def step(x, y):
        opt.zero_grad(True)
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        return loss

    run = torch.compile(step) if compiled else step
    torch.manual_seed(1)
    losses = []
    for i in range(steps):
        losses.append(float(run(torch.randn(8, 6), torch.randn(8, 3))))
    state = [t for s in opt.state.values() for t in s.values() if isinstance(t, torch.Tensor)]
    return losses, list(model.parameters()), state


optimizers = {
    "sgd": lambda p: torch.optim.SGD(p, lr=0.1),
    "sgd_momentum": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
    "sgd_nesterov_decay": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.8, nesterov=True, weight_decay=0.01),
    "adam": lambda p: torch.optim.Adam(p, lr=0.05),
    "adam_amsgrad": lambda p: torch.optim.Adam(p, lr=0.05, amsgrad=True, weight_decay=0.1),
    "adamw": lambda p: torch.optim.AdamW(p, lr=0.05),
}
for name, make_optimizer in optimizers.items():
    for schedule in (False, True):
        eager = train(make_optimizer, False, schedule=schedule)
        compiled = train(make_optimizer, True, schedule=schedule)
        worst = max(abs(a - b) for a, b in zip(eager[0], compiled[0]))
        for a, b in zip(eager[1] + eager[2], compiled[1] + compiled[2]):
            worst = max(worst, (a - b).abs().max().item())
        print(name, "scheduled" if schedule else "constant lr", "losses", [round(v, 4) for v in compiled[0]],
              "same as eager" if worst < 1e-5 else "DIFFERS by %g" % worst)
