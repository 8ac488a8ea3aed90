# torch._C: the names of PyTorch's C extension that captured graphs print (torch._C._nn.linear), so
# that the code of a graph (a repro file's Repro.forward) runs as it reads.
import torch._C._nn as _nn
