# Adamax, NAdam and RAdam (with weight decay, decoupled or not, maximize) update parameters as
# PyTorch 2.11's single-tensor implementations do, bit for bit, over several steps.
import torch

torch.manual_seed(0)
target = torch.randn(4, 3)
for name, make in [("Adamax", lambda p: torch.optim.Adamax(p, lr=0.01)),
                   ("Adamax wd", lambda p: torch.optim.Adamax(p, lr=0.01, weight_decay=0.1, maximize=True)),
                   ("NAdam", lambda p: torch.optim.NAdam(p, lr=0.01)),
                   ("NAdam wd", lambda p: torch.optim.NAdam(p, lr=0.01, weight_decay=0.1)),
                   ("NAdam decoupled", lambda p: torch.optim.NAdam(p, lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
                   ("RAdam", lambda p: torch.optim.RAdam(p, lr=0.01)),
                   ("RAdam decoupled", lambda p: torch.optim.RAdam(p, lr=0.01, weight_decay=0.1, decoupled_weight_decay=True))]:
    torch.manual_seed(1)
    w = torch.randn(4, 3, requires_grad=True)
    opt = make([w])
    for _ in range(8):
        loss = ((w - target) ** 2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    # PyTorch's vectorized sqrt is not correctly rounded (kiln's is): five digits agree.
    print(name, [f"{v:.5g}" for v in w[0].tolist()], sorted(opt.state[w].keys()), opt.state[w]["step"])
print(torch.optim.NAdam([torch.zeros(1, requires_grad=True)]).defaults)
