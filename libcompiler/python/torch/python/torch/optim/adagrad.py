# torch.optim.adagrad: Adagrad with PyTorch's single-tensor update rule (the CPU default), op for
# op. As PyTorch's, the state (step and the squared-gradient sum) is made for every parameter
# when the optimizer is built, not at the first step.
import torch
from torch.optim.optimizer import Optimizer, _evaluate_closure, _get_value, _use_grad_for_differentiable


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state.setdefault(p, {})
                state["step"] = torch.tensor(0.0, dtype=torch.float32)
                state["sum"] = torch.full_like(p, initial_accumulator_value)

    def _init_group(self, group, params_with_grad, grads, state_sums, state_steps):
        for p in group["params"]:
            if p.grad is not None:
                params_with_grad.append(p)
                grads.append(p.grad)
                state = self.state[p]
                state_sums.append(state["sum"])
                state_steps.append(state["step"])
        return False, False

    @_use_grad_for_differentiable
    def step(self, closure=None):
        loss = _evaluate_closure(closure)
        for group in self.param_groups:
            params_with_grad = []
            grads = []
            state_sums = []
            state_steps = []
            self._init_group(group, params_with_grad, grads, state_sums, state_steps)
            _single_tensor_adagrad(params_with_grad, grads, state_sums, state_steps, lr=group["lr"],
                                   weight_decay=group["weight_decay"], lr_decay=group["lr_decay"], eps=group["eps"],
                                   maximize=group["maximize"], differentiable=group["differentiable"])
        return loss


def _single_tensor_adagrad(params, grads, state_sums, state_steps, *, lr, weight_decay, lr_decay, eps, maximize,
                           differentiable):
    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        step_t += 1
        step = _get_value(step_t)
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        clr = lr / (1 + (step - 1) * lr_decay)
        state_sum.addcmul_(grad, grad, value=1)
        std = state_sum.sqrt() + eps if differentiable else state_sum.sqrt().add_(eps)
        param.addcdiv_(grad, std, value=-clr)
