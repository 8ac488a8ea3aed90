# A linear / gelu / layer_norm / sigmoid / tanh chain under aot_eager_decomp_partition (Inductor's
# decompositions and the min-cut partition): the joint graph, the forward and backward graphs
# (gelu and layer_norm recomputed in the backward from the saved matmul), then the inference graph.
import torch


def f(x, w, b, ln_w, ln_b):
    h = torch.nn.functional.linear(x, w, b)
    h = torch.nn.functional.gelu(h)
    h = torch.nn.functional.layer_norm(h, (5,), ln_w, ln_b)
    return torch.sigmoid(h).tanh().sum()


cf = torch.compile(f, backend="aot_eager_decomp_partition")
torch.manual_seed(0)
x = torch.randn(4, 3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(5, requires_grad=True)
ln_w = torch.randn(5, requires_grad=True)
ln_b = torch.randn(5, requires_grad=True)
cf(x, w, b, ln_w, ln_b).backward()
with torch.no_grad():
    cf(x, w, b, ln_w, ln_b)
