# torch.nn.functional over the op table.
import math
import warnings

import torch
from torch.amp.autocast_mode import (_float32_under_autocast, _lower_precision_under_autocast,
                                     _refuse_binary_cross_entropy_on_cuda)

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(reduction + " is not a valid value for reduction")
    return _REDUCTIONS[reduction]


conv1d = torch.conv1d
conv2d = torch.conv2d
conv3d = torch.conv3d
conv_transpose1d = torch.conv_transpose1d
conv_transpose2d = torch.conv_transpose2d
conv_transpose3d = torch.conv_transpose3d


def linear(input, weight, bias=None):
    return torch.linear(input, weight, bias)


def relu(input, inplace=False):
    return torch.relu(input)


def gelu(input, approximate="none"):
    return torch.gelu(input, approximate=approximate)


def silu(input, inplace=False):
    return torch.silu(input)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    if inplace:
        return torch.leaky_relu_(input, negative_slope)
    return torch.leaky_relu(input, negative_slope)


def softplus(input, beta=1, threshold=20):
    return torch.softplus(input, beta, threshold)


def elu(input, alpha=1.0, inplace=False):
    return torch.where(input > 0, input, (torch.exp(input) - 1) * alpha)


def tanh(input):
    return torch.tanh(input)


# Activations ATen computes in one kernel, written as the same arithmetic in the same order (the
# values agree bit for bit; the grad_fn names are those of the pieces).

def softmin(input, dim=None, _stacklevel=3, dtype=None):
    return torch.softmax(-input, dim, dtype=dtype) if dtype is not None else torch.softmax(-input, dim)


def threshold(input, threshold, value, inplace=False):
    return torch.where(input > threshold, input, torch.full_like(input, value))


def rms_norm(input, normalized_shape, weight=None, eps=None):
    # ATen's composite: in the op-math dtype, x * rsqrt(mean(x^2) + eps), then the weight.
    dims = list(range(-len(normalized_shape), 0))
    eps = torch.finfo(input.dtype).eps if eps is None else eps
    upcast = input.float() if input.dtype in (torch.float16, torch.bfloat16) else input
    scale = torch.rsqrt(upcast.pow(2).mean(dims, keepdim=True).add_(eps))
    result = upcast.mul(scale).to(input.dtype)
    return result.mul(weight) if weight is not None else result


def dropout2d(input, p=0.5, training=True, inplace=False):
    # ATen's feature dropout: one Bernoulli draw per (sample, channel), scaled by 1 / (1 - p).
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input * torch.zeros((), dtype=input.dtype)
    batched = input.dim() == 4
    shape = list(input.shape[:2] if batched else input.shape[:1]) + [1] * (input.dim() - (2 if batched else 1))
    noise = torch.empty(shape, dtype=input.dtype, device=input.device).bernoulli_(1 - p).div_(1 - p)
    return input * noise


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return torch.clamp(input, min_val, max_val)


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0)


def hardsigmoid(input, inplace=False):
    return torch.clamp(input + 3.0, 0.0, 6.0) / 6.0


def hardswish(input, inplace=False):
    return input * torch.clamp(input + 3.0, 0.0, 6.0) / 6.0


def mish(input, inplace=False):
    return input * torch.tanh(torch.log1p(torch.exp(input)))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):
    return torch.where(input > 0, input * _SELU_SCALE, (torch.exp(input) - 1) * (_SELU_ALPHA * _SELU_SCALE))


def celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    return torch.where(input > 0, input, (torch.exp(input * (1.0 / alpha)) - 1) * alpha)


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    if input.size(dim) % 2 != 0:
        raise RuntimeError(f"Halving dimension must be even, but dimension {input.dim() + dim if dim < 0 else dim} "
                           f"is size {input.size(dim)}")
    first, second = input.chunk(2, dim)
    return first * torch.sigmoid(second)


def softsign(input):
    return input / (input.abs() + 1)


def tanhshrink(input):
    return input - input.tanh()


def softshrink(input, lambd=0.5):
    return torch.where(input > lambd, input - lambd, torch.where(input < -lambd, input + lambd, input * 0))


def hardshrink(input, lambd=0.5):
    return torch.where((input > lambd) | (input < -lambd), input, input * 0)


def prelu(input, weight):
    with _lower_precision_under_autocast(("cpu", "cuda"), input, weight) as (input, weight):
        if weight.numel() != 1 and (input.dim() < 2 or weight.numel() != input.size(1)):
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {input.size(1) if input.dim() >= 2 else 1}.")
        shape = [1] * input.dim()
        if input.dim() >= 2 and weight.numel() != 1:
            shape[1] = weight.numel()
        w = weight.reshape(shape) if input.dim() > 0 else weight.reshape(())
        return torch.where(input > 0, input, w * input)


def sigmoid(input):
    return torch.sigmoid(input)


def softmax(input, dim=None, dtype=None):
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim=None, dtype=None):
    return torch.log_softmax(input, dim, dtype=dtype)


def _verify_batch_size(size):
    size_prods = size[0]
    for i in range(len(size) - 2):
        size_prods *= size[i + 2]
    if size_prods == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05):
    if training:
        _verify_batch_size(input.size())
    return torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, False)


def _pair_or_empty(value):
    return [] if value is None else value


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    stride = _pair_or_empty(stride)
    if return_indices:
        return torch.max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return torch.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return torch.avg_pool2d(input, kernel_size, _pair_or_empty(stride), padding, ceil_mode, count_include_pad,
                            divisor_override)


def adaptive_avg_pool2d(input, output_size):
    if isinstance(output_size, int):
        output_size = (output_size, output_size)
    output_size = [input.size(-2 + i) if s is None else s for i, s in enumerate(output_size)]
    return torch.adaptive_avg_pool2d(input, output_size)


# 1-d pooling as the 2-d pooling of a height-1 image (the windows and their arithmetic are the same).
def _single(value):
    return value[0] if isinstance(value, (list, tuple)) else value


def _over_height_one(pool, input, *args):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2D or 3D input, but got {input.dim()}D input")
    return pool(input.unsqueeze(-2), *args).squeeze(-2)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    stride = kernel_size if stride is None or stride == [] else stride
    args = ((1, _single(kernel_size)), (1, _single(stride)), (0, _single(padding)), (1, _single(dilation)), ceil_mode)
    if return_indices:
        values, indices = torch.max_pool2d_with_indices(input.unsqueeze(-2), *args)
        return values.squeeze(-2), indices.squeeze(-2)
    return _over_height_one(torch.max_pool2d, input, *args)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    stride = kernel_size if stride is None or stride == [] else stride
    return _over_height_one(torch.avg_pool2d, input, (1, _single(kernel_size)), (1, _single(stride)),
                            (0, _single(padding)), ceil_mode, count_include_pad, None)


def adaptive_avg_pool1d(input, output_size):
    return _over_height_one(adaptive_avg_pool2d, input, (1, _single(output_size)))


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    return torch.group_norm(input, num_groups, weight, bias, eps)


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


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.")
    # batchmean: the sum over the batch's size.
    reduced = torch.kl_div(input, target, _reduction("sum" if reduction == "batchmean" else reduction),
                           log_target=log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


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
    _refuse_binary_cross_entropy_on_cuda(input)
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) is "
                         "deprecated. Please ensure they have the same size.")
    with _float32_under_autocast(("cpu",), input, target, weight) as (input, target, weight):
        loss = (target - 1) * torch.clamp(torch.log1p(-input), min=-100) - target * torch.clamp(torch.log(input), min=-100)
        if weight is not None:
            loss = loss * weight
        return _reduce(loss, reduction)


def logsigmoid(input):
    return torch.minimum(input, torch.zeros_like(input)) - torch.log1p(torch.exp(-input.abs()))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    with _float32_under_autocast(("cpu", "cuda"), input, target, weight, pos_weight) as (input, target, weight, pos_weight):
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
    with _float32_under_autocast(("cpu", "cuda"), input, target) as (input, target):
        return _reduce((input - target).abs(), reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    with _float32_under_autocast(("cpu", "cuda"), input, target) as (input, target):
        if beta == 0.0:
            return l1_loss(input, target, reduction=reduction)
        diff = (input - target).abs()
        return _reduce(torch.where(diff < beta, 0.5 * diff * diff / beta, diff - 0.5 * beta), reduction)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    with _float32_under_autocast(("cpu", "cuda"), input, target, weight) as (input, target, weight):
        diff = (input - target).abs()
        loss = torch.where(diff < delta, 0.5 * diff * diff, delta * (diff - 0.5 * delta))
        if weight is not None:
            loss = loss * weight
        return _reduce(loss, reduction)


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    # A boolean mask as an additive one (-inf where set) of target_type; float masks as they are.
    if mask is None:
        return None
    if mask.dtype != torch.bool and not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if not mask.is_floating_point():
        mask = torch.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _in_projection_packed(q, k, v, w, b=None):
    E = q.size(-1)
    if k is v and q is k:
        proj = linear(q, w, b)
        proj = proj.view(*proj.shape[:-1], 3, E).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return proj[0], proj[1], proj[2]
    if k is v:
        w_q, w_kv = w[:E], w[E:]
        b_q, b_kv = (None, None) if b is None else (b[:E], b[E:])
        q_proj = linear(q, w_q, b_q)
        kv_proj = linear(k, w_kv, b_kv)
        kv_proj = kv_proj.view(*kv_proj.shape[:-1], 2, E).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return q_proj, kv_proj[0], kv_proj[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    # PyTorch's slow path, step by step: packed input projection, masks merged into one additive
    # mask, then either explicit weights (need_weights) or scaled_dot_product_attention.
    if bias_k is not None or bias_v is not None or add_zero_attn or use_separate_proj_weight or static_k is not None \
            or static_v is not None:
        raise NotImplementedError("kiln's multi_head_attention_forward does not implement bias_k/bias_v, "
                                  "add_zero_attn, separate projection weights or static keys")
    is_batched = query.dim() == 3
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", None if attn_mask is None else attn_mask.dtype,
                                       "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module method "
                           "`generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be {(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    src_len = k.size(1)
    if key_padding_mask is not None:
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1).reshape(
            bsz * num_heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    if need_weights:
        _, _, E = q.shape
        q_scaled = q * math.sqrt(1.0 / float(E))
        weights = torch.bmm(q_scaled, k.transpose(-2, -1))
        if attn_mask is not None:
            weights = attn_mask + weights
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        out = torch.bmm(weights, v).transpose(0, 1).contiguous().view(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias).view(tgt_len, bsz, out_proj_weight.size(0))
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).contiguous().view(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias).view(tgt_len, bsz, out_proj_weight.size(0))
    if not is_batched:
        out = out.squeeze(1)
    return out, None


def one_hot(tensor, num_classes=-1):
    if tensor.dtype != torch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if tensor.numel() > 0:
        if tensor.min().item() < 0:
            raise RuntimeError("Class values must be non-negative.")
        if num_classes == -1:
            num_classes = tensor.max().item() + 1
        elif tensor.max().item() >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    elif num_classes == -1:
        raise RuntimeError("Can not infer total number of classes from empty tensor.")
    out = torch.zeros(*tensor.shape, num_classes, dtype=torch.int64, device=tensor.device)
    return out.scatter(-1, tensor.unsqueeze(-1), 1)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    if out is not None:
        raise NotImplementedError("kiln's F.normalize does not take out=")
    denom = torch.linalg.vector_norm(input, p, dim, True).clamp_min(eps).expand(input.shape)
    return input / denom


def _broadcast_shape(a, b):
    a, b = [1] * (len(b) - len(a)) + a, [1] * (len(a) - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton dimension")
        out.append(y if x == 1 else x)
    return out


def _crop(tensor, dim, start, length):
    index = [slice(None)] * tensor.dim()
    index[dim] = slice(start, start + length)
    return tensor[tuple(index)]


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    with _float32_under_autocast(("cuda",), x1, x2) as (x1, x2):
        # ATen's: each operand divided by its own (clamped) norm first, then the product summed.
        shape = _broadcast_shape(list(x1.shape), list(x2.shape))
        x1, x2 = x1.expand(shape), x2.expand(shape)
        x1_norm = torch.linalg.vector_norm(x1, 2, dim, True)
        x2_norm = torch.linalg.vector_norm(x2, 2, dim, True)
        with torch.no_grad():
            x1_clamped = x1_norm.clamp_min(eps)
            x2_clamped = x2_norm.clamp_min(eps)
        x1_norm = torch.where(x1_norm < eps, x1_clamped, x1_norm)
        x2_norm = torch.where(x2_norm < eps, x2_clamped, x2_norm)
        return ((x1 / x1_norm) * (x2 / x2_norm)).sum(dim)


def _padding_indices(size, before, after, mode):
    # The source position of each output position along one padded dimension.
    positions = range(-before, size + after)
    if mode == "reflect":
        return [-p if p < 0 else 2 * (size - 1) - p if p >= size else p for p in positions]
    if mode == "replicate":
        return [min(max(p, 0), size - 1) for p in positions]
    return [p % size for p in positions]  # circular


def _pad_by_index(input, pad, mode):
    # reflect / replicate / circular: an index_select per padded dimension (what the gradient of
    # ATen's padding kernels sums back, too).
    count = len(pad) // 2
    if len(pad) not in (2, 4, 6) or input.dim() not in (count + 1, count + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    out = input
    for i in range(count):
        dim = input.dim() - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        size = input.size(dim)
        if mode == "reflect" and (before >= size or after >= size):
            raise RuntimeError("Argument #4: Padding size should be less than the corresponding input dimension, but "
                               f"got: padding ({before}, {after}) at dimension {dim} of input {list(input.shape)}")
        if mode == "circular" and (before > size or after > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if before or after:
            out = out.index_select(dim, torch.tensor(_padding_indices(size, before, after, mode)))
    return out


def pad(input, pad, mode="constant", value=None):
    if mode == "circular":
        return _pad_by_index(input, pad, mode)
    if mode in ("reflect", "replicate"):
        with _float32_under_autocast(("cpu",), input) as (input,):
            return _pad_by_index(input, pad, mode)
    if mode != "constant":
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2 != 0:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    fill = 0 if value is None else value
    out = input
    for i in range(len(pad) // 2):
        dim = input.dim() - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        if before < 0:
            out = _crop(out, dim, -before, out.size(dim) + before)
            before = 0
        if after < 0:
            out = _crop(out, dim, 0, out.size(dim) + after)
            after = 0
        pieces = []
        if before > 0:
            shape = list(out.shape)
            shape[dim] = before
            pieces.append(torch.full(shape, fill, dtype=out.dtype, device=out.device))
        pieces.append(out)
        if after > 0:
            shape = list(out.shape)
            shape[dim] = after
            pieces.append(torch.full(shape, fill, dtype=out.dtype, device=out.device))
        if len(pieces) > 1:
            out = torch.cat(pieces, dim)
    return out


# ---- interpolate: the index arithmetic of PyTorch's upsample decompositions (what AOT graphs and
# Inductor compute), so eager and compiled code agree; the index computations run in float32.

_INTERPOLATE_MODES = "nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact"
_LINEAR_MODE_DIMS = {"linear": 3, "bilinear": 4, "trilinear": 5}


def _nearest_indices(input, output_size, scale_factors, exact):
    spatial = len(output_size)
    indices = []
    for d in range(spatial):
        in_size, out_size = input.shape[2 + d], output_size[d]
        scale = scale_factors[d] if scale_factors is not None else None
        step = in_size / (in_size * scale) if scale is not None and scale > 0 else in_size / out_size
        positions = torch.arange(out_size, dtype=torch.float32, device=input.device)
        if exact:
            index = ((positions + 0.5) * step).to(torch.int64).clamp(max=in_size - 1)
        else:
            index = (positions * step).to(torch.int64)
        for _ in range(spatial - 1 - d):
            index = index.unsqueeze(-1)
        indices.append(index)
    return indices


def _linear_interpolate(input, output_size, align_corners, scale_factors):
    dtype = input.dtype if input.dtype.is_floating_point else torch.float32
    spatial = len(output_size)
    lows, highs, fractions = [], [], []
    for d in range(spatial):
        in_size, out_size = input.shape[2 + d], output_size[d]
        scale = scale_factors[d] if scale_factors is not None else None
        if align_corners:
            step = (in_size - 1.0) / (out_size - 1.0) if out_size > 1 else 0
            source = step * torch.arange(out_size).to(dtype)
        else:
            step = 1.0 / scale if scale is not None and scale > 0 else in_size / out_size
            source = step * (torch.arange(out_size).to(dtype) + 0.5) - 0.5
        source = source.clamp(min=0.0).reshape([out_size] + [1] * (spatial - 1 - d))
        low = source.to(torch.int64)
        lows.append(low)
        highs.append((low + 1).clamp(max=in_size - 1))
        fractions.append((source - low).clamp(0.0, 1.0).to(dtype))
    corners = []
    for corner in range(2 ** spatial):
        picks = [highs[d] if (corner >> (spatial - 1 - d)) & 1 else lows[d] for d in range(spatial)]
        corners.append(input[(slice(None), slice(None), *picks)].to(dtype))
    for d in reversed(range(spatial)):
        corners = [a + torch.mul(b - a, fractions[d]) for a, b in zip(corners[::2], corners[1::2])]
    return corners[0].contiguous()


def _output_size(input, size, scale_factor, recompute_scale_factor, mode):
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {list(input.shape[2:])} and output size of {size}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "output size in (o1, o2, ...,oK) format.")
            if not all(isinstance(s, int) for s in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                                f"Tuple[int, int, int], but got size with types {[type(s) for s in size]}")
            return list(size), None
        return [size] * dim, None
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != dim:
            raise ValueError(
                "Input and scale_factor must have the same number of spatial dimensions, but "
                f"got input with spatial dimensions of {list(input.shape[2:])} and "
                f"scale_factor of shape {scale_factor}. "
                "Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                "scale_factor in (s1, s2, ...,sK) format.")
        scale_factors = list(scale_factor)
    else:
        scale_factors = [scale_factor] * dim
    output_size = [int(input.size(i + 2) * scale_factors[i]) for i in range(dim)]
    if recompute_scale_factor or mode == "area":
        return output_size, None
    return output_size, [float(s) for s in scale_factors]


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the "
                             "interpolating modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    output_size, scale_factors = _output_size(input, size, scale_factor, recompute_scale_factor, mode)
    if antialias and not (mode in ("bilinear", "bicubic") and input.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear and bicubic modes and requires a 4-D tensor as input")
    ndim = input.dim()
    if ndim in (3, 4, 5) and mode == "area":
        if ndim != 4:
            raise NotImplementedError(f"kiln's F.interpolate implements mode='area' for 4-D input only, not {ndim}-D")
        return adaptive_avg_pool2d(input, output_size)
    # The upsample kernels run in float32 under CUDA autocast (area's adaptive pooling does not).
    with _float32_under_autocast(("cuda",), input) as (input,):
        if ndim in (3, 4, 5) and mode in ("nearest", "nearest-exact"):
            indices = _nearest_indices(input, output_size, scale_factors, mode == "nearest-exact")
            return input[(slice(None), slice(None), *indices)].contiguous()
        if mode in _LINEAR_MODE_DIMS and ndim == _LINEAR_MODE_DIMS[mode]:
            if antialias:
                raise NotImplementedError("kiln's F.interpolate does not implement antialias=True")
            return _linear_interpolate(input, output_size, align_corners, scale_factors)
    if mode == "bicubic" and ndim == 4:
        raise NotImplementedError("kiln's F.interpolate does not implement mode='bicubic'")
    if mode in _LINEAR_MODE_DIMS and ndim in (3, 4, 5):
        raise NotImplementedError(f"Got {ndim}D input, but {mode} mode needs {_LINEAR_MODE_DIMS[mode]}D input")
    raise NotImplementedError("Input Error: Only 3D, 4D and 5D input Tensors supported"
                              f" (got {ndim}D) for the modes: {_INTERPOLATE_MODES} (got {mode})")


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def pixel_shuffle(input, upscale_factor):
    # (*, C·r², H, W) -> (*, C, H·r, W·r): each r×r block of channels becomes a spatial block.
    r = upscale_factor
    *batch, channels, height, width = input.shape
    if channels % (r * r) != 0:
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={channels} is not divisible by {r * r}")
    out_channels = channels // (r * r)
    x = input.reshape(-1, out_channels, r, r, height, width).permute(0, 1, 4, 2, 5, 3)
    return x.reshape(*batch, out_channels, height * r, width * r)


def pixel_unshuffle(input, downscale_factor):
    r = downscale_factor
    *batch, channels, height, width = input.shape
    if height % r != 0 or width % r != 0:
        raise RuntimeError(f"pixel_unshuffle expects height and width to be divisible by downscale_factor, but got "
                           f"height={height}, width={width}, downscale_factor={r}")
    x = input.reshape(-1, channels, height // r, r, width // r, r).permute(0, 1, 3, 5, 2, 4)
    return x.reshape(*batch, channels * r * r, height // r, width // r)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-05):
    # ATen's: batch_norm over (1, N·C, *spatial), each instance's channel a batch_norm channel; the
    # running statistics are the average over the instances.
    n, c = input.shape[0], input.shape[1]
    repeat = (lambda t: None if t is None else t.repeat(n))
    mean, var = repeat(running_mean), repeat(running_var)
    out = torch.batch_norm(input.reshape(1, n * c, *input.shape[2:]), repeat(weight), repeat(bias), mean, var,
                           use_input_stats, momentum, eps, False)
    if use_input_stats:
        with torch.no_grad():
            if running_mean is not None:
                running_mean.copy_(mean.view(n, c).mean(0))
            if running_var is not None:
                running_var.copy_(var.view(n, c).mean(0))
    return out.view(input.shape)


def _sliding_positions(padded_size, kernel_size, dilation, stride):
    # im2col's gather index: for each kernel offset (row-major), each output position (row-major),
    # the flat position in the padded plane it reads.
    (ph, pw), (kh, kw), (dh, dw), (sh, sw) = padded_size, kernel_size, dilation, stride
    out_h = (ph - dh * (kh - 1) - 1) // sh + 1
    out_w = (pw - dw * (kw - 1) - 1) // sw + 1
    if out_h <= 0 or out_w <= 0:
        raise RuntimeError(f"Given input with spatial size ({ph}, {pw}), kernel_size=({kh}, {kw}), dilation=({dh}, {dw}), "
                           f"calculated shape of the array of sliding blocks as ({out_h}, {out_w}), but its components "
                           "must be at least one.")
    rows = (torch.arange(kh) * dh).view(kh, 1, 1, 1) + (torch.arange(out_h) * sh).view(1, 1, out_h, 1)
    cols = (torch.arange(kw) * dw).view(1, kw, 1, 1) + (torch.arange(out_w) * sw).view(1, 1, 1, out_w)
    return (rows * pw + cols).reshape(-1), out_h * out_w


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    kernel, dilation, padding, stride = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    batched = input.dim() == 4
    x = input if batched else input.unsqueeze(0)
    n, c = x.shape[0], x.shape[1]
    x = pad(x, (padding[1], padding[1], padding[0], padding[0]))
    positions, blocks = _sliding_positions((x.shape[2], x.shape[3]), kernel, dilation, stride)
    out = x.reshape(n, c, -1).index_select(2, positions).reshape(n, c * kernel[0] * kernel[1], blocks)
    return out if batched else out.squeeze(0)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    # col2im: each block's values added back at the places unfold read them from.
    size, kernel, dilation, padding, stride = (_pair(output_size), _pair(kernel_size), _pair(dilation), _pair(padding),
                                               _pair(stride))
    batched = input.dim() == 3
    x = input if batched else input.unsqueeze(0)
    n = x.shape[0]
    c = x.shape[1] // (kernel[0] * kernel[1])
    padded = (size[0] + 2 * padding[0], size[1] + 2 * padding[1])
    positions, blocks = _sliding_positions(padded, kernel, dilation, stride)
    if x.shape[2] != blocks:
        raise RuntimeError(f"Given output_size=({size[0]}, {size[1]}), kernel_size=({kernel[0]}, {kernel[1]}), "
                           f"dilation=({dilation[0]}, {dilation[1]}), padding=({padding[0]}, {padding[1]}), "
                           f"stride=({stride[0]}, {stride[1]}), expected size of input's dimension 2 to match the "
                           f"calculated number of sliding blocks {blocks}, but got input.size(2)={x.shape[2]}.")
    out = x.new_zeros(n, c, padded[0] * padded[1]).index_add(2, positions, x.reshape(n, c, -1))
    out = out.view(n, c, padded[0], padded[1])[:, :, padding[0]:padding[0] + size[0], padding[1]:padding[1] + size[1]]
    return out if batched else out.squeeze(0)


def _pair(value):
    return tuple(value) if isinstance(value, (list, tuple)) else (value, value)


def bilinear(input1, input2, weight, bias=None):
    # y[..., o] = Σ_ij x1[..., i] W[o, i, j] x2[..., j] + b[o]: x1 against W first, then x2.
    out_features, in1, in2 = weight.shape
    lead = input1.shape[:-1]
    x1 = input1.reshape(-1, in1)
    x2 = input2.reshape(-1, in2)
    partial = (x1 @ weight.permute(1, 0, 2).reshape(in1, out_features * in2)).view(-1, out_features, in2)
    out = (partial * x2.unsqueeze(1)).sum(-1).view(*lead, out_features)
    return out if bias is None else out + bias


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    if mode not in ("sum", "mean", "max"):
        raise ValueError(f"mode has to be one of sum, mean or max, but got {mode}")
    if max_norm is not None:
        raise NotImplementedError("kiln's F.embedding_bag does not implement max_norm")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on GitHub.")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
                             "length sequences. However, found offsets of type Tensor")
        bags, length = input.shape
        offsets = torch.arange(0, bags * length, length)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if include_last_offset:
        offsets = offsets[:-1]
    bags = offsets.shape[0]
    # The bag of each index: the number of bag starts at or before it, less one.
    starts = torch.zeros(input.shape[0], dtype=torch.int64).index_add(0, offsets[1:], torch.ones_like(offsets[1:]))
    bag_of = starts.cumsum(0)
    keep = None
    if padding_idx is not None:
        keep = input != (padding_idx if padding_idx >= 0 else weight.shape[0] + padding_idx)
    rows = weight.index_select(0, input)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights.unsqueeze(1)
    if keep is not None:
        rows = rows * keep.unsqueeze(1).to(rows.dtype)
    if mode == "max":
        if keep is not None:
            rows = torch.where(keep.unsqueeze(1), rows, torch.full_like(rows, -math.inf))
        out = torch.zeros(bags, weight.shape[1], dtype=weight.dtype).scatter_reduce(
            0, bag_of.unsqueeze(1).expand(rows.shape), rows, "amax", include_self=False)
        return out
    out = torch.zeros(bags, weight.shape[1], dtype=weight.dtype).index_add(0, bag_of, rows)
    if mode == "mean":
        counted = keep.to(torch.int64) if keep is not None else torch.ones_like(input)
        counts = torch.zeros(bags, dtype=torch.int64).index_add(0, bag_of, counted)
        out = out / counts.clamp_min(1).unsqueeze(1).to(out.dtype)
    return out


def pairwise_distance(x1, x2, p=2.0, eps=1e-06, keepdim=False):
    return torch.linalg.vector_norm(x1 - x2 + eps, p, -1, keepdim)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    with _float32_under_autocast(("cpu", "cuda"), input1, input2, target) as (input1, input2, target):
        return _reduce((-target * (input1 - input2) + margin).clamp_min(0), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    # ATen's: 1 - cos where the target is 1, cos - margin (at least 0) where it is -1; the squared
    # magnitudes each get 1e-12 before their product's root.
    if target.dim() not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if (input1.dim(), input2.dim()) != ((2, 2) if target.dim() == 1 else (1, 1)):
        raise RuntimeError(f"{target.dim()}D target tensor expects {target.dim() + 1}D input tensors, but found inputs with "
                           f"sizes {list(input1.shape)} and {list(input2.shape)}.")
    with _float32_under_autocast(("cpu", "cuda"), input1, input2) as (input1, input2):
        dim = target.dim()
        magnitudes = ((input1 * input1).sum(dim) + 1e-12) * ((input2 * input2).sum(dim) + 1e-12)
        cos = (input1 * input2).sum(dim) / magnitudes.sqrt()
        zeros = torch.zeros_like(cos)
        loss = torch.where(target == 1, 1 - cos, zeros) + torch.where(target == -1, (cos - margin).clamp_min(0), zeros)
        return _reduce(loss, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    with _float32_under_autocast(("cpu",), input, target) as (input, target):
        return _reduce(torch.log1p(torch.exp(-input * target)), reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    # ATen's: margin - x where the target is not 1, x where it is not -1 (both where it is neither).
    with _float32_under_autocast(("cpu",), input, target) as (input, target):
        zeros = torch.zeros_like(input)
        beyond_margin = torch.where(target != 1, (margin - input).clamp_min(0), zeros)
        return _reduce(beyond_margin + torch.where(target != -1, input, zeros), reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    with _float32_under_autocast(("cpu",), input, target) as (input, target):
        loss = torch.exp(input) - target * input if log_input else input - target * torch.log(input + eps)
        if full:
            stirling = target * torch.log(target) - target + 0.5 * torch.log(2 * math.pi * target)
            loss = loss + stirling.masked_fill(target <= 1, 0)
        return _reduce(loss, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    with _float32_under_autocast(("cpu",), input, weight) as (input, weight):
        rows = input if input.dim() == 2 else input.unsqueeze(0)
        chosen = target.reshape(-1, 1)
        margins = (margin - rows.gather(1, chosen) + rows).clamp_min(0)
        if p == 2:
            margins = margins * margins
        if weight is not None:
            margins = margins * weight[chosen]
        # The target's own class adds nothing; the sum is over the other classes, divided by all.
        own_class = torch.arange(rows.shape[1], device=rows.device) == chosen
        loss = margins.masked_fill(own_class, 0).sum(1) / rows.shape[1]
        return _reduce(loss if input.dim() == 2 else loss.squeeze(0), reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    with _float32_under_autocast(("cpu", "cuda"), anchor, positive, negative) as (anchor, positive, negative):
        d_pos = pairwise_distance(anchor, positive, p, eps)
        d_neg = pairwise_distance(anchor, negative, p, eps)
        if swap:
            d_neg = torch.minimum(d_neg, pairwise_distance(positive, negative, p, eps))
        return _reduce((margin + d_pos - d_neg).clamp_min(0), reduction)
