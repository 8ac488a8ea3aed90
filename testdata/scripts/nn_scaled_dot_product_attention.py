# F.scaled_dot_product_attention: causal, boolean and additive masks, an explicit scale, fully
# masked rows, gradients, and compiled by every backend (graphs print torch._C._nn's name).
import torch
import torch.nn.functional as F
torch.manual_seed(0)
q, k, v = (torch.randn(2, 3, 5, 4, requires_grad=True) for _ in range(3))
out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(out[0, 0])
out.sum().backward()
print(q.grad[1, 2], k.grad[0, 1, 3], v.grad[1, 0, 4])
mask = torch.rand(5, 5) > 0.3
mask[2] = False
print(F.scaled_dot_product_attention(q, k, v, attn_mask=mask)[0, 1, 2])
print(F.scaled_dot_product_attention(q, k, v, attn_mask=mask)[0, 1, 2])
bias = torch.randn(5, 5)
print(F.scaled_dot_product_attention(q, k, v, attn_mask=bias, scale=0.3)[1, 1])
print(F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=True)[1, 2, 3])
def attend(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True).sum()
for backend in ["eager", "aot_eager", "aot_eager_decomp_partition", "inductor"]:
    torch._dynamo.reset()
    qq = q.detach().clone().requires_grad_(True)
    total = torch.compile(attend, backend=backend)(qq, k.detach(), v.detach())
    total.backward()
    print(backend, f"{total.item():.4f}", f"{qq.grad.abs().sum().item():.4f}")
