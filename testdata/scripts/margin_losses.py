# The losses PyTorch computes in ATen kernels of their own that kiln composes: soft margin, hinge
# embedding, Poisson NLL, multi-margin (p, margin, class weights) and cosine embedding, each reduction, their modules
# and gradients; printed at three decimals (kiln's log and PyTorch's may part in the last bit).
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
torch.set_printoptions(precision=3)
x = torch.randn(5, 4, requires_grad=True)
y = torch.randn(5, 4).sign()
t = torch.randint(0, 4, (5,))
rate = torch.rand(5, 4) * 3
w = torch.tensor([1.0, 2.0, 0.5, 1.5])
for reduction in ("mean", "sum", "none"):
    print(reduction)
    print(F.soft_margin_loss(x, y, reduction=reduction).detach())
    print(F.hinge_embedding_loss(x, y, margin=0.5, reduction=reduction).detach())
    print(F.poisson_nll_loss(x, rate, reduction=reduction).detach())
    print(F.poisson_nll_loss(x.abs(), rate, log_input=False, full=True, reduction=reduction).detach())
    print(F.multi_margin_loss(x, t, reduction=reduction).detach())
    print(F.multi_margin_loss(x, t, p=2, margin=0.7, weight=w, reduction=reduction).detach())
print(F.multi_margin_loss(x[0], t[:1]).detach())
print(F.cosine_embedding_loss(x, x.flip(0), y[:, 0], margin=0.2, reduction="none").detach(), F.cosine_embedding_loss(x[0], x[1], y[0, 0]).detach())
loss = nn.SoftMarginLoss()(x, y) + nn.HingeEmbeddingLoss()(x, y) + nn.PoissonNLLLoss()(x, rate) + nn.MultiMarginLoss(weight=w)(x, t) + nn.CosineEmbeddingLoss(0.1)(x, x.flip(0), y[:, 0])
loss.backward()
print(loss.detach(), x.grad)
try:
    F.cosine_embedding_loss(x[0], x[1], y[0, :1])
except RuntimeError as e:
    print("RuntimeError:", e)
