# torch.optim.rmsprop: RMSprop with PyTorch's single-tensor update rule (the CPU default), op for
# op: the running average of squared gradients (centered: minus the squared running mean), an
# optional momentum buffer.
import torch
from torch.optim.optimizer import Optimizer, _evaluate_closure, _use_grad_for_differentiable


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered, weight_decay=weight_decay,
                        capturable=capturable, foreach=foreach, maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_group(self, group, params_with_grad, grads, square_avgs, momentum_buffer_list, grad_avgs, state_steps):
        for p in group["params"]:
            if p.grad is None:
                continue
            params_with_grad.append(p)
            grads.append(p.grad)
            state = self.state.setdefault(p, {})
            if len(state) == 0:
                state["step"] = torch.zeros((), dtype=torch.float32)
                state["square_avg"] = torch.zeros_like(p)
                if group["momentum"] > 0:
                    state["momentum_buffer"] = torch.zeros_like(p)
                if group["centered"]:
                    state["grad_avg"] = torch.zeros_like(p)
            square_avgs.append(state["square_avg"])
            state_steps.append(state["step"])
            if group["momentum"] > 0:
                momentum_buffer_list.append(state["momentum_buffer"])
            if group["centered"]:
                grad_avgs.append(state["grad_avg"])
        return False

    @_use_grad_for_differentiable
    def step(self, closure=None):
        loss = _evaluate_closure(closure)
        for group in self.param_groups:
            params_with_grad = []
            grads = []
            square_avgs = []
            grad_avgs = []
            momentum_buffer_list = []
            state_steps = []
            self._init_group(group, params_with_grad, grads, square_avgs, momentum_buffer_list, grad_avgs,
                             state_steps)
            _single_tensor_rmsprop(params_with_grad, grads, square_avgs, grad_avgs, momentum_buffer_list,
                                   state_steps, lr=group["lr"], alpha=group["alpha"], eps=group["eps"],
                                   weight_decay=group["weight_decay"], momentum=group["momentum"],
                                   centered=group["centered"], maximize=group["maximize"],
                                   differentiable=group["differentiable"])
        return loss


def _single_tensor_rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, *, lr, alpha,
                           eps, weight_decay, momentum, centered, maximize, differentiable):
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        square_avg = square_avgs[i]
        state_steps[i] += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if centered:
            grad_avg = grad_avgs[i]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add(eps) if differentiable else avg.add_(eps)
        if momentum > 0:
            buf = momentum_buffer_list[i]
            buf.mul_(momentum).addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)
