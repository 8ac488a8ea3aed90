# nn.GroupNorm and nn.InstanceNorm1d/2d/3d: per-sample statistics over groups of channels or over each
# channel of each instance, with a per-channel affine.
import torch
import torch.nn.functional as F
from torch import Parameter
from torch.nn import Module
from torch.nn.batchnorm import _BatchNorm
import torch.nn.init as init


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, device=None, dtype=None):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if affine:
            self.weight = Parameter(torch.empty(num_channels, dtype=dtype))
            self.bias = Parameter(torch.empty(num_channels, dtype=dtype))
            init.ones_(self.weight)
            init.zeros_(self.bias)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return "{num_groups}, {num_channels}, eps={eps}, affine={affine}".format(**self.__dict__)


class _InstanceNorm(_BatchNorm):
    # BatchNorm's parameters and buffers (PyTorch's _NormBase), without them by default.
    _expected_dim = None  # the batched input's dimensions

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)

    def forward(self, input):
        if input.dim() not in (self._expected_dim - 1, self._expected_dim):
            raise ValueError(f"expected {self._expected_dim - 1}D or {self._expected_dim}D input (got {input.dim()}D input)")
        unbatched = input.dim() == self._expected_dim - 1
        if unbatched:
            input = input.unsqueeze(0)
        out = F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                              self.training or not self.track_running_stats, self.momentum, self.eps)
        return out.squeeze(0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    _expected_dim = 3


class InstanceNorm2d(_InstanceNorm):
    _expected_dim = 4


class InstanceNorm3d(_InstanceNorm):
    _expected_dim = 5
