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


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        raise NotImplementedError("kiln's F.embedding does not implement max_norm")
    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    return torch.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, scale=scale,
                                              enable_gqa=enable_gqa)


def _reduce(loss, reduction):
    _reduction(reduction)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss




# The losses below are composed of table ops as ATen's kernels compute them (graphs record the
# functional call as Dynamo does; AOT graphs show the composition rather than one aten op).
def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) is "
                         "deprecated. Please ensure they have the same size.")
    loss = (target - 1) * torch.clamp(torch.log1p(-input), min=-100) - target * torch.clamp(torch.log(input), min=-100)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def logsigmoid(input):
    return torch.minimum(input, torch.zeros_like(input)) - torch.log1p(torch.exp(-input.abs()))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    log_sigmoid_input = logsigmoid(input)
    if pos_weight is not None:
        log_sigmoid_input = log_sigmoid_input * ((pos_weight - 1) * target + 1)
    loss = (1 - target) * input - log_sigmoid_input
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _reduce((input - target).abs(), reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    diff = (input - target).abs()
    return _reduce(torch.where(diff < beta, 0.5 * diff * diff / beta, diff - 0.5 * beta), reduction)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    diff = (input - target).abs()
    loss = torch.where(diff < delta, 0.5 * diff * diff, delta * (diff - 0.5 * delta))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)
