# kiln, aot_eager_decomp_partition: once automatic dynamic shapes recompile the forward (second
# call, new size), the in-place update of a module buffer is no longer written back: the buffer
# stays 3.0. aot_eager, inductor and PyTorch: 3.0, 8.0, 15.0. With dynamic=True no update is
# written back at all; in other graphs the write-back fails with "TypeError: input must be Tensor,
# not int" (as if it took a symbolic-size output for the buffer's new value).
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("buf", torch.zeros(1))

    def forward(self, x):
        self.buf.add_(x.sum())
        return x * 2


m = M()
cf = torch.compile(m, backend="aot_eager_decomp_partition")
for n in [3, 5, 7]:
    cf(torch.ones(n))
    print(n, m.buf.tolist())
