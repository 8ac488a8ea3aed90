# torch._C._nn: the torch.nn.functional functions PyTorch implements in C++ (graphs name them so).
from torch.nn.functional import gelu, linear
