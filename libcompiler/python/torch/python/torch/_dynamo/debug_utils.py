# torch._dynamo.debug_utils: what repro files and the repro tools raise, and what PyTorch's
# after-Dynamo launchers import (the repro tools themselves are native: libcompiler/repro).
import torch


class AccuracyError(Exception):
    pass


def run_fwd_maybe_bwd(gm, args, only_fwd=False, disable_clone=False):
    # A forward and, unless only_fwd, when an output requires grad, the backward of the outputs'
    # mean; the outputs then each input's gradient (libcompiler/repro/run_fwd_maybe_bwd.h).
    if not disable_clone:
        args = [a.detach().clone().requires_grad_(a.requires_grad) if isinstance(a, torch.Tensor) else a for a in args]
    out = gm(*args)
    if only_fwd:
        return out
    outputs = out if isinstance(out, (list, tuple)) else [out]
    tensors = [o for o in outputs if isinstance(o, torch.Tensor)]
    if any(t.requires_grad for t in tensors):
        loss = sum(t.sum() / t.numel() for t in tensors) / len(tensors)
        loss.backward()
    return [out] + [a.grad for a in args if isinstance(a, torch.Tensor)]
