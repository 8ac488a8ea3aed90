# torch.nn.utils: gradient clipping and flattening parameters to a vector, computed as PyTorch
# computes them on the CPU (no foreach kernels there: one norm per gradient, then their norm).
import torch


def _as_list(parameters):
    if isinstance(parameters, torch.Tensor):
        return [parameters]
    return list(parameters)


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return torch.tensor(0.0)
    norms = [torch.linalg.vector_norm(g, norm_type) for g in tensors]
    total_norm = torch.linalg.vector_norm(torch.stack(norms), norm_type)
    if error_if_nonfinite and (torch.isnan(total_norm).item() or not torch.isfinite(total_norm).item()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be "
            "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
            "`error_if_nonfinite=False`")
    return total_norm


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    if len(grads) == 0:
        return
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(clip_coef_clamped)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    parameters = _as_list(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_value_(parameters, clip_value, foreach=None):
    clip_value = float(clip_value)
    with torch.no_grad():
        for p in _as_list(parameters):
            if p.grad is not None:
                p.grad.copy_(p.grad.clamp(-clip_value, clip_value))


def parameters_to_vector(parameters):
    return torch.cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    if not isinstance(vec, torch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {torch.typename(vec)}")
    # PyTorch rebinds each parameter's .data to a slice of vec; kiln copies the slice in.
    pointer = 0
    with torch.no_grad():
        for param in parameters:
            num_param = param.numel()
            param.copy_(vec[pointer:pointer + num_param].view(param.shape))
            pointer += num_param


def _norm_except_dim(v, dim):
    # The 2-norm of each slice along dim, shaped to broadcast against v (all of v when dim is -1).
    if dim == -1:
        return v.norm()
    shape = [1] * v.dim()
    shape[dim] = v.size(dim)
    return v.transpose(0, dim).reshape(v.size(dim), -1).norm(dim=1).view(shape)


class _WeightNorm:
    # The forward pre-hook of weight_norm: name = name_g * name_v / ||name_v||, recomputed before
    # each forward from the two parameters that replace the original one.
    def __init__(self, name, dim):
        self.name = name
        self.dim = dim

    def compute_weight(self, module):
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return v * (g / _norm_except_dim(v, self.dim))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    if dim is None:
        dim = -1
    for hook in module._forward_pre_hooks.values():
        if isinstance(hook, _WeightNorm) and hook.name == name:
            raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
    weight = getattr(module, name)
    del module._parameters[name]
    module.register_parameter(name + "_g", torch.nn.Parameter(_norm_except_dim(weight, dim).detach()))
    module.register_parameter(name + "_v", torch.nn.Parameter(weight.detach()))
    norm = _WeightNorm(name, dim)
    setattr(module, name, norm.compute_weight(module))
    module.register_forward_pre_hook(norm)
    return module


def remove_weight_norm(module, name="weight"):
    for key, hook in list(module._forward_pre_hooks.items()):
        if isinstance(hook, _WeightNorm) and hook.name == name:
            weight = hook.compute_weight(module)
            delattr(module, name)
            del module._parameters[name + "_g"]
            del module._parameters[name + "_v"]
            module.register_parameter(name, torch.nn.Parameter(weight.detach()))
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
