# kiln (aot_eager, aot_eager_decomp_partition, inductor): a compiled forward that reads a buffer
# and then mutates it in place applies the mutation again when .backward() runs: the buffer is 1.0
# after the forward and 2.0 after the backward. PyTorch: 1.0 both times.
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("buf", torch.zeros(1))

    def forward(self, x):
        y = x + self.buf
        self.buf.add_(1.0)
        return y * y


m = M()
x = torch.tensor([1.0, 2.0], requires_grad=True)
out = torch.compile(m, backend="aot_eager")(x)
print("after forward ", m.buf.tolist())
out.sum().backward()
print("after backward", m.buf.tolist())
