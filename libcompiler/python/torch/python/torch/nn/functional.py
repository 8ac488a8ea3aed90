# torch.nn.functional over the op table.
import torch

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(reduction + " is not a valid value for reduction")
    return _REDUCTIONS[reduction]


def linear(input, weight, bias=None):
    return torch.linear(input, weight, bias)


def relu(input, inplace=False):
    return torch.relu(input)


def gelu(input, approximate="none"):
    return torch.gelu(input, approximate=approximate)


def silu(input, inplace=False):
    return input * torch.sigmoid(input)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    if inplace:
        return torch.leaky_relu_(input, negative_slope)
    return torch.leaky_relu(input, negative_slope)


def elu(input, alpha=1.0, inplace=False):
    return torch.where(input > 0, input, (torch.exp(input) - 1) * alpha)


def tanh(input):
    return torch.tanh(input)


def sigmoid(input):
    return torch.sigmoid(input)


def softmax(input, dim=None, dtype=None):
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim=None, dtype=None):
    return torch.log_softmax(input, dim, dtype=dtype)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    return torch.layer_norm(input, normalized_shape, weight, bias, eps)


def dropout(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return torch.dropout(input, p, training)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    return torch.cross_entropy_loss(input, target, weight, _reduction(reduction), ignore_index, label_smoothing)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    return torch.nll_loss(input, target, weight, _reduction(reduction), ignore_index)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return torch.mse_loss(input, target, _reduction(reduction))


def embedding(input, weight, padding_idx=None):
    return torch.embedding(weight, input, -1 if padding_idx is None else padding_idx)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    return torch.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, scale=scale,
                                              enable_gqa=enable_gqa)
