# torch.optim: SGD and Adam with PyTorch's single-tensor update rules (the CPU default), op for
# op, so that seeded training matches PyTorch to float rounding.
import math
import torch
import torch.optim.lr_scheduler as lr_scheduler


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = {}
        self.param_groups = []
        if isinstance(params, torch.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got " + torch.typename(params))
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            param_group["params"] = [params]
        else:
            param_group["params"] = list(params)
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        self.param_groups.append(param_group)

    def _evaluate_closure(self, closure):
        # step(closure) re-evaluates the loss with gradients on, before updating without them.
        if closure is None:
            return None
        with torch.enable_grad():
            return closure()

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        p.grad.zero_()

    def state_dict(self):
        return {"state": self.state, "param_groups": self.param_groups}

    def __repr__(self):
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string


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

    def step(self, closure=None):
        loss = self._evaluate_closure(closure)
        with torch.no_grad():
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


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable, differentiable=differentiable,
                        fused=fused, decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._evaluate_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                beta1, beta2 = group["betas"]
                lr = group["lr"]
                eps = group["eps"]
                weight_decay = group["weight_decay"]
                for param in group["params"]:
                    if param.grad is None:
                        continue
                    grad = param.grad if not group["maximize"] else -param.grad
                    state = self.state.setdefault(param, {})
                    if len(state) == 0:
                        state["step"] = torch.tensor(0.0, dtype=torch.float32)
                        state["exp_avg"] = torch.zeros_like(param)
                        state["exp_avg_sq"] = torch.zeros_like(param)
                        if group["amsgrad"]:
                            state["max_exp_avg_sq"] = torch.zeros_like(param)
                    exp_avg = state["exp_avg"]
                    exp_avg_sq = state["exp_avg_sq"]
                    step_t = state["step"]
                    step_t += 1
                    if weight_decay != 0:
                        if group["decoupled_weight_decay"]:
                            param.mul_(1 - lr * weight_decay)
                        else:
                            grad = grad.add(param, alpha=weight_decay)
                    exp_avg.lerp_(grad, 1 - beta1)
                    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                    step = step_t.item()
                    bias_correction1 = 1 - beta1**step
                    bias_correction2 = 1 - beta2**step
                    step_size = lr / bias_correction1
                    bias_correction2_sqrt = bias_correction2**0.5
                    if group["amsgrad"]:
                        max_exp_avg_sq = torch.maximum(state["max_exp_avg_sq"], exp_avg_sq)
                        state["max_exp_avg_sq"] = max_exp_avg_sq
                        denom = (max_exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                    else:
                        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                    param.addcdiv_(exp_avg, denom, value=-step_size)
        return loss


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize,
                         decoupled_weight_decay=True)
