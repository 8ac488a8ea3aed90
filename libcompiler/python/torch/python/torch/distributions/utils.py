# torch.distributions.utils: broadcasting parameters, and converting probabilities to logits.
import torch


def broadcast_all(*values):
    tensors = [v if isinstance(v, torch.Tensor) else None for v in values]
    like = next((t for t in tensors if t is not None), None)
    dtype = like.dtype if like is not None else torch.get_default_dtype()
    as_tensors = [v if isinstance(v, torch.Tensor) else torch.tensor(float(v), dtype=dtype) for v in values]
    return torch.broadcast_tensors(*as_tensors)


def clamp_probs(probs):
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(clamped) - torch.log1p(-clamped)
    return torch.log(clamped)


def logits_to_probs(logits, is_binary=False):
    if is_binary:
        return torch.sigmoid(logits)
    return torch.softmax(logits, dim=-1)
