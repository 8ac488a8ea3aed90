# torch.optim.adam: Adam with PyTorch's update rules op for op, so that seeded training matches
# PyTorch to float rounding: the single-tensor one (the CPU default) and the foreach one (the
# CUDA default: a few multi-tensor kernels a step, not ten ops a parameter; the same arithmetic).
# As in PyTorch, step() gathers the tensors of each group with _init_group (which also creates the
# state the first time: Dynamo runs it eagerly, not traced) and updates them.
import torch
from torch.optim.optimizer import (Optimizer, _evaluate_closure, _get_value, _use_grad_for_differentiable,
                                   _check_adam_arguments)


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        _check_adam_arguments(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable, differentiable=differentiable,
                        fused=fused, decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps):
        for p in group["params"]:
            if p.grad is None:
                continue
            params_with_grad.append(p)
            grads.append(p.grad)
            state = self.state.setdefault(p, {})
            if len(state) == 0:
                # PyTorch keeps a non-capturable step on the CPU as a float32 scalar tensor.
                state["step"] = torch.tensor(0.0, dtype=torch.float32)
                state["exp_avg"] = torch.zeros_like(p)
                state["exp_avg_sq"] = torch.zeros_like(p)
                if group["amsgrad"]:
                    state["max_exp_avg_sq"] = torch.zeros_like(p)
            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])
            if group["amsgrad"]:
                max_exp_avg_sqs.append(state["max_exp_avg_sq"])
            state_steps.append(state["step"])
        return False

    @_use_grad_for_differentiable
    def step(self, closure=None):
        loss = _evaluate_closure(closure)
        for group in self.param_groups:
            params_with_grad = []
            grads = []
            exp_avgs = []
            exp_avg_sqs = []
            max_exp_avg_sqs = []
            state_steps = []
            beta1, beta2 = group["betas"]
            self._init_group(group, params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps)
            # While Dynamo traces a step it reads every group's capturable as True (PyTorch's
            # OptimizerVariable): the update stays in tensors, with no .item() of the step.
            update = _multi_tensor_adam if _takes_foreach(group, params_with_grad) else _single_tensor_adam
            update(params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps,
                   amsgrad=group["amsgrad"], beta1=beta1, beta2=beta2, lr=group["lr"],
                   weight_decay=group["weight_decay"], eps=group["eps"], maximize=group["maximize"],
                   capturable=group["capturable"] or torch.compiler.is_compiling(),
                   decoupled_weight_decay=group["decoupled_weight_decay"])
        return loss


def _takes_foreach(group, params):
    # PyTorch's default (_default_to_fused_or_foreach): foreach when every parameter is on CUDA.
    # Kiln's foreach rule covers the plain update; the capturable, amsgrad and maximize variants
    # (and any step Dynamo traces) take the single-tensor rule.
    foreach = group["foreach"]
    if foreach is None:
        foreach = not group["differentiable"] and all(p.device.type == "cuda" for p in params)
    return (foreach and bool(params) and not (group["capturable"] or group["amsgrad"] or group["maximize"])
            and not torch.compiler.is_compiling())


def _by_value(values, *lists):
    # Each distinct value with its lists' tensors: the tensors of a (device, dtype), or a ScalarList
    # foreach op as one Scalar op per value.
    indices = {}
    for i, value in enumerate(values):
        indices.setdefault(value, []).append(i)
    return [(value, [[lst[i] for i in at] for lst in lists]) for value, at in indices.items()]


def _multi_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, *, amsgrad, beta1,
                       beta2, lr, weight_decay, eps, maximize, capturable, decoupled_weight_decay):
    for _, (device_params, device_grads, device_exp_avgs, device_exp_avg_sqs, device_state_steps) in _by_value(
            [(p.device, p.dtype) for p in params], params, grads, exp_avgs, exp_avg_sqs, state_steps):
        torch._foreach_add_(device_state_steps, 1)
        if weight_decay != 0:
            if decoupled_weight_decay:
                torch._foreach_mul_(device_params, 1 - lr * weight_decay)
            else:
                device_grads = torch._foreach_add(device_grads, device_params, alpha=weight_decay)
        torch._foreach_lerp_(device_exp_avgs, device_grads, 1 - beta1)
        torch._foreach_mul_(device_exp_avg_sqs, beta2)
        torch._foreach_addcmul_(device_exp_avg_sqs, device_grads, device_grads, 1 - beta2)
        bias_correction1 = [1 - beta1 ** _get_value(step) for step in device_state_steps]
        bias_correction2 = [1 - beta2 ** _get_value(step) for step in device_state_steps]
        step_size = [(lr / bc) * -1 for bc in bias_correction1]
        bias_correction2_sqrt = [bc**0.5 for bc in bias_correction2]
        exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)
        for value, (sqrts,) in _by_value(bias_correction2_sqrt, exp_avg_sq_sqrt):
            torch._foreach_div_(sqrts, value)
        torch._foreach_add_(exp_avg_sq_sqrt, eps)
        for value, (ps, avgs, denoms) in _by_value(step_size, device_params, device_exp_avgs, exp_avg_sq_sqrt):
            torch._foreach_addcdiv_(ps, avgs, denoms, value)


def _single_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, *, amsgrad, beta1,
                        beta2, lr, weight_decay, eps, maximize, capturable, decoupled_weight_decay):
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]
        step_t += 1
        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        if capturable:
            # The step stays a tensor: the bias corrections and the step size are tensors too.
            step = step_t
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            step_size = lr / bias_correction1
            step_size_neg = step_size.neg()
            bias_correction2_sqrt = bias_correction2.sqrt()
            if amsgrad:
                max_exp_avg_sqs[i].copy_(torch.maximum(max_exp_avg_sqs[i], exp_avg_sq))
                denom = (max_exp_avg_sqs[i].sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(eps / step_size_neg)
            else:
                denom = (exp_avg_sq.sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(eps / step_size_neg)
            param.addcdiv_(exp_avg, denom)
        else:
            step = _get_value(step_t)
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            step_size = lr / bias_correction1
            bias_correction2_sqrt = bias_correction2**0.5
            if amsgrad:
                max_exp_avg_sqs[i].copy_(torch.maximum(max_exp_avg_sqs[i], exp_avg_sq))
                denom = (max_exp_avg_sqs[i].sqrt() / bias_correction2_sqrt).add_(eps)
            else:
                denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
            param.addcdiv_(exp_avg, denom, value=-step_size)
