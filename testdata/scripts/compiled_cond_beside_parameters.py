# torch.cond in a graph that needs a backward for other reasons (a parameter beside it): the
# joint graph's forward part keeps the cond's branch graphs when it is split from the backward
# (aot_eager raised "no tensor bound to this attribute" for the get_attr of true_graph_0).
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.p0 = torch.nn.Parameter(torch.arange(3.0))

    def forward(self, a0, a1):
        v1 = a1 * self.p0
        v2 = torch.empty_like(a0).fill_(1.5)
        v6 = torch.cond(v2.sum() > 0.123, lambda x: x.sin() + 1, lambda x: x.cos() * 2, (v2,))
        return v6, v1


for backend in ["eager", "aot_eager", "aot_eager_decomp_partition", "inductor"]:
    m = M()
    out = torch.compile(m, backend=backend)(torch.ones(3), torch.full((3,), 2.0))
    out[1].sum().backward()
    print(backend, out[0].tolist(), out[1].tolist(), m.p0.grad.tolist())
    torch._dynamo.reset()
