# torch.optim.optimizer: the Optimizer base class. Its step runs through two wrappers, as
# PyTorch's does: profile_hook_step (the frame Dynamo compiles when a compiled function calls
# opt.step()) around _use_grad_for_differentiable (the grad mode of the update, after a graph
# break that keeps the update out of the caller's graph).
import copy
import functools
import torch
import torch.autograd.profiler
import torch.compiler


def _use_grad_for_differentiable(func):
    def _use_grad(*args, **kwargs):
        # torch._dynamo is imported here, not with the module: torch imports torch.optim first.
        # That leaves `torch` a local of this frame, so Dynamo, finding no tensor and no torch
        # module among what the frame names, runs it eagerly and compiles the step it calls.
        import torch._dynamo

        self = args[0]
        prev_grad = torch.is_grad_enabled()
        # The update is captured in a frame of its own, with grad mode off: an inference graph.
        torch._dynamo.graph_break()
        torch.set_grad_enabled(self.defaults["differentiable"])
        try:
            ret = func(*args, **kwargs)
        finally:
            torch.set_grad_enabled(prev_grad)
        return ret

    return functools.wraps(func)(_use_grad)


def _evaluate_closure(closure):
    # A step's closure re-evaluates the loss with gradients on, before the update (under the grad
    # mode _use_grad_for_differentiable set).
    if closure is None:
        return None
    with torch.enable_grad():
        return closure()


def _get_value(x):
    # A step tensor's value as a Python number, except while Dynamo traces (no .item() in a graph).
    if torch.compiler.is_compiling():
        return x
    return x.item() if isinstance(x, torch.Tensor) else x


def _check_adam_arguments(lr, betas, eps, weight_decay):
    # The argument checks (and messages) of the Adam family's constructors.
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


def _apply_weight_decay(param, grad, lr, weight_decay, decoupled):
    # L2 (added to the gradient) or decoupled (the parameter shrunk first), as NAdam/RAdam do.
    if weight_decay == 0:
        return grad
    if decoupled:
        param.mul_(1 - lr * weight_decay)
        return grad
    return grad.add(param, alpha=weight_decay)


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = {}
        self.param_groups = []
        self._patch_step_function()
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

    @staticmethod
    def profile_hook_step(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            self = args[0]
            profile_name = "Optimizer.step#" + self.__class__.__name__ + ".step"
            with torch.autograd.profiler.record_function(profile_name):
                out = func(*args, **kwargs)
                self._optimizer_step_code()
                return out

        return wrapper

    def _patch_step_function(self):
        # Each optimizer class's step is wrapped once, by the first of its instances.
        step = self.__class__.step
        if not getattr(step, "hooked", False):
            self.__class__.step = self.profile_hook_step(step)
            self.__class__.step.hooked = True

    def _optimizer_step_code(self):
        # Where PyTorch's profiler looks at the optimizer after a step: nothing to do here.
        pass

    def add_param_group(self, param_group):
        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            param_group["params"] = [params]
        else:
            param_group["params"] = list(params)
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        self.param_groups.append(param_group)

    # Dynamo never traces zero_grad (PyTorch disables it too): a compiled function's call to it
    # breaks the graph and runs eagerly.
    @torch.compiler.disable
    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        p.grad.zero_()

    def state_dict(self):
        # As PyTorch packs it: parameters replaced by their index across the groups, in order.
        index_of = {}
        param_groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                if id(p) not in index_of:
                    index_of[id(p)] = len(index_of)
            packed["params"] = [index_of[id(p)] for p in group["params"]]
            param_groups.append(packed)
        state = {(index_of[id(k)] if isinstance(k, torch.Tensor) else k): v for k, v in self.state.items()}
        return {"state": state, "param_groups": param_groups}

    def load_state_dict(self, state_dict):
        groups = self.param_groups
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of optimizer's group")
        param_of = {}
        for group, saved in zip(groups, saved_groups):
            for index, p in zip(saved["params"], group["params"]):
                param_of[index] = p
        state = {}
        for key, value in state_dict["state"].items():
            if key not in param_of:
                state[key] = value
                continue
            param = param_of[key]
            # Saved tensors take the parameter's dtype and device; a step count stays as it was.
            state[param] = {name: (v.to(dtype=param.dtype) if isinstance(v, torch.Tensor) and name != "step"
                                   and param.is_floating_point() else v) for name, v in value.items()}
        for group, saved in zip(groups, saved_groups):
            saved["params"] = group["params"]
        self.state = state
        self.param_groups = saved_groups

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
