# torch.optim.sgd: SGD with PyTorch's single-tensor update rule (the CPU default), op for op, so
# that seeded training matches PyTorch to float rounding.
import torch
from torch.optim.optimizer import Optimizer, _use_grad_for_differentiable


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach, differentiable=differentiable,
                        fused=fused)
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        # closure re-evaluates the loss with gradients on, before the update (under the grad mode
        # _use_grad_for_differentiable set).
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            lr = group["lr"]
            momentum = group["momentum"]
            dampening = group["dampening"]
            weight_decay = group["weight_decay"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                grad = param.grad if not group["maximize"] else -param.grad
                if weight_decay != 0:
                    grad = grad.add(param, alpha=weight_decay)
                if momentum != 0:
                    state = self.state.setdefault(param, {})
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = torch.clone(grad).detach()
                        state["momentum_buffer"] = buf
                    else:
                        buf.mul_(momentum).add_(grad, alpha=1 - dampening)
                    if group["nesterov"]:
                        grad = grad.add(buf, alpha=momentum)
                    else:
                        grad = buf
                param.add_(grad, alpha=-lr)
        return loss
