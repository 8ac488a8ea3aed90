# Tensor.unbind / torch.unbind: the slices along a dimension as views (timm's attention splits its
# packed q, k, v with qkv.unbind(0)); gradients flow back into the packed tensor.
import torch

x = torch.arange(24.0).reshape(2, 3, 4)
for dim in (0, 1, -1):
    parts = x.unbind(dim)
    print(dim, len(parts), [tuple(p.shape) for p in parts], parts[-1].tolist() if dim == 0 else parts[0].sum().item())
print(torch.unbind(x, 1)[2].tolist())
print(x.unbind(0)[1]._base is x, x.unbind(0)[1].data_ptr() - x.data_ptr())
packed = torch.randn(3, 2, 4, generator=torch.Generator().manual_seed(0), requires_grad=True)
q, k, v = packed.unbind(0)
(q * 2 + k * 3 + v).sum().backward()
print(packed.grad[:, 0, 0].tolist())


@torch.compile
def attention(qkv):
    q, k, v = qkv.unbind(0)
    return (q @ k.transpose(-2, -1)).softmax(-1) @ v


print(torch.allclose(attention(packed.detach()), (packed[0] @ packed[1].transpose(-2, -1)).softmax(-1) @ packed[2]))
