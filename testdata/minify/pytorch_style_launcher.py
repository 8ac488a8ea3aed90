# An after-AOT minifier launcher in the layout PyTorch 2.11 writes (config lines, a Repro class of
# aten calls, load_args with storages absent from the store): `minify --python PY` reduces it with
# PY's torch as the oracle. The relu sits in the middle of the graph.
import os
os.environ['TORCHDYNAMO_REPRO_AFTER'] = 'aot'
os.environ['TORCHDYNAMO_REPRO_LEVEL'] = '2'

import torch
from torch import tensor, device
import torch.fx as fx
from torch._dynamo.testing import rand_strided
from math import inf

import torch._dynamo.config
import torch._inductor.config
import torch._functorch.config

torch._inductor.config.inplace_buffers = True
torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = 'compile_error'
torch._functorch.config.unlift_effect_tokens = True

isolate_fails_code_str = None

from torch.nn import *
class Repro(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, arg0_1, arg1_1, arg2_1):
        permute = torch.ops.aten.permute.default(arg0_1, [1, 0]);  arg0_1 = None
        addmm = torch.ops.aten.addmm.default(arg1_1, arg2_1, permute);  arg1_1 = arg2_1 = permute = None
        tanh = torch.ops.aten.tanh.default(addmm);  addmm = None
        mul = torch.ops.aten.mul.Tensor(tanh, 0.5)
        relu = torch.ops.aten.relu.default(mul);  mul = None
        add = torch.ops.aten.add.Tensor(relu, tanh);  relu = tanh = None
        sigmoid = torch.ops.aten.sigmoid.default(add)
        mul_1 = torch.ops.aten.mul.Tensor(sigmoid, add);  sigmoid = add = None
        sum_1 = torch.ops.aten.sum.dim_IntList(mul_1, [1]);  mul_1 = None
        return (sum_1,)

def load_args(reader):
    buf0 = reader.storage('0123456789abcdef0123456789abcdef01234567', 1024)
    reader.tensor(buf0, (16, 16), is_leaf=True)  # arg0_1
    buf1 = reader.storage('123456789abcdef0123456789abcdef012345678', 64)
    reader.tensor(buf1, (16,), is_leaf=True)  # arg1_1
    buf2 = reader.storage('23456789abcdef0123456789abcdef0123456789', 512)
    reader.tensor(buf2, (8, 16), is_leaf=True)  # arg2_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='minify', save_dir=None, tracing_mode='real', check_str=None)
