# Adam and AdamW with foreach=False and foreach=True (PyTorch's single-tensor and foreach update rules:
# the same arithmetic, so the same parameters), float32 and float64 parameters in one group.
import torch
torch.manual_seed(0)
for foreach in (False, True):
    for cls, kw in ((torch.optim.Adam, {}), (torch.optim.AdamW, {}), (torch.optim.Adam, {"weight_decay": 0.1})):
        torch.manual_seed(0)
        ps = [torch.randn(5, 3, requires_grad=True), torch.randn(7, requires_grad=True, dtype=torch.float64)]
        opt = cls(ps, lr=0.01, foreach=foreach, **kw)
        for _ in range(3):
            opt.zero_grad()
            loss = sum((p ** 2).sum() for p in ps)
            loss.backward()
            opt.step()
        print(cls.__name__, foreach, kw, [p.detach().sum().item() for p in ps], opt.state[ps[0]]["step"])
