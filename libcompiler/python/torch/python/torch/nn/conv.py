# nn.Conv1d/2d/3d and nn.ConvTranspose1d/2d/3d: the parameters and their initialisation as
# PyTorch's (so that a seeded model starts from the same numbers), the forward through
# torch.convNd / torch.conv_transposeNd; padding modes other than zeros pad with F.pad first, as
# PyTorch does.
import math

import torch
import torch.nn.functional as F
from torch import Parameter
from torch.nn import Module
import torch.nn.init as init


def _ntuple(value, n):
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return tuple([value] * n)


class _ConvNd(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                 padding_mode, dims, dtype=None, transposed=False, output_padding=0):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in _ntuple(stride, dims)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(f"padding_mode must be one of {valid_padding_modes}, but got padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _ntuple(kernel_size, dims)
        self.stride = _ntuple(stride, dims)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, dims)
        self.dilation = _ntuple(dilation, dims)
        self.transposed = transposed
        self.output_padding = _ntuple(output_padding, dims)
        self.groups = groups
        self.padding_mode = padding_mode
        # What F.pad takes for a padding_mode other than zeros (last dimension first).
        if isinstance(self.padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * dims
            if self.padding == "same":
                for d, k, i in zip(self.dilation, self.kernel_size, range(dims - 1, -1, -1)):
                    total = d * (k - 1)
                    self._reversed_padding_repeated_twice[2 * i] = total // 2
                    self._reversed_padding_repeated_twice[2 * i + 1] = total - total // 2
        else:
            self._reversed_padding_repeated_twice = [p for p in reversed(self.padding) for _ in range(2)]
        # A transposed convolution's weight maps each input channel to its group's output channels.
        weight_shape = (in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)
        self.weight = Parameter(torch.empty((*weight_shape, *self.kernel_size), dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(padding_mode=self.padding_mode, in_channels=self.in_channels, out_channels=self.out_channels, kernel_size=self.kernel_size,
                        stride=self.stride, padding=self.padding, dilation=self.dilation, groups=self.groups,
                        output_padding=self.output_padding)


class Conv1d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, 1, dtype)

    def forward(self, input):
        if self.padding_mode != "zeros":
            return F.conv1d(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), self.weight,
                             self.bias, self.stride, 0, self.dilation, self.groups)
        return F.conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv2d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, 2, dtype)

    def forward(self, input):
        if self.padding_mode != "zeros":
            return F.conv2d(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), self.weight,
                             self.bias, self.stride, 0, self.dilation, self.groups)
        return F.conv2d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv3d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, 3, dtype)

    def forward(self, input):
        if self.padding_mode != "zeros":
            return F.conv3d(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), self.weight,
                             self.bias, self.stride, 0, self.dilation, self.groups)
        return F.conv3d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class _ConvTransposeNd(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation,
                 padding_mode, dims, dtype):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {self.__class__.__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dims, dtype, transposed=True, output_padding=output_padding)

    def _output_padding(self, input, output_size, dims):
        # The output_padding that makes the output output_size, within the sizes the stride allows.
        if output_size is None:
            return self.output_padding
        non_spatial = 2 if input.dim() == dims + 2 else 1
        output_size = list(output_size)
        if len(output_size) == non_spatial + dims:
            output_size = output_size[non_spatial:]
        if len(output_size) != dims:
            raise ValueError(f"ConvTranspose{dims}D: for {input.dim()}D input, output_size must have {dims} "
                             f"or {non_spatial + dims} elements (got {len(output_size)})")
        min_sizes = [(input.size(d + non_spatial) - 1) * self.stride[d] - 2 * self.padding[d]
                     + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(dims)]
        max_sizes = [min_sizes[d] + self.stride[d] - 1 for d in range(dims)]
        for size, low, high in zip(output_size, min_sizes, max_sizes):
            if size < low or size > high:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {min_sizes} "
                                 f"to {max_sizes} (for an input of {input.size()[2:]})")
        return [output_size[d] - min_sizes[d] for d in range(dims)]


class ConvTranspose1d(_ConvTransposeNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias,
                         dilation, padding_mode, 1, dtype)

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size, 1)
        return F.conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)


class ConvTranspose2d(_ConvTransposeNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias,
                         dilation, padding_mode, 2, dtype)

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size, 2)
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)


class ConvTranspose3d(_ConvTransposeNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias,
                         dilation, padding_mode, 3, dtype)

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size, 3)
        return F.conv_transpose3d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)
