# optimizer.step(closure): the loss is re-evaluated with gradients on, for SGD and Adam.
import torch
torch.manual_seed(0)
w = torch.nn.Parameter(torch.randn(3))
for opt in [torch.optim.SGD([w], lr=0.1, momentum=0.9), torch.optim.Adam([w], lr=0.1)]:
    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss
    for _ in range(3):
        print(round(opt.step(closure).item(), 5))
print(opt.step() is None)
