# kiln: backward through torch.clamp_min (and x.clamp(min=...)) raises "the derivative for
# 'clamp_min' is not implemented"; PyTorch gives the gradient (1 where x > min, else 0).
import torch

x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
torch.clamp_min(x, 0.1).sum().backward()
print(x.grad.tolist())
y = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
y.clamp(min=0.1).sum().backward()
print(y.grad.tolist())
