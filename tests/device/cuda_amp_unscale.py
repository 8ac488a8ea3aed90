# GradScaler's unscale on CUDA gradients: more tensors and chunks than one multi-tensor launch
# takes (48 tensors, 320 chunks of 65536), float32/float16/float64, a non-contiguous gradient,
# and an inf in the last tensor of a long list; bfloat16 gradients, which ATen's CUDA kernel refuses.
import torch

torch.manual_seed(0)
sizes = [3, 65536, 65537, 1, 200000] + [1000 + i for i in range(60)] + [5 * 65536 + 7] * 70
for dtype in (torch.float32, torch.float16, torch.float64):
    grads = [torch.randn(n, device="cuda").to(dtype) for n in sizes]
    grads.append(torch.randn(64, 32, device="cuda").to(dtype).t())
    expected = [(g.float() * 0.125).to(dtype) for g in grads]
    found = torch.zeros((), device="cuda")
    torch._amp_foreach_non_finite_check_and_unscale_(grads, found, torch.full((), 0.125, device="cuda"))
    print(dtype, "found", found.item(), "all equal", all(torch.equal(g, e) for g, e in zip(grads, expected)))
    grads[-2][-1] = float("inf")
    torch._amp_foreach_non_finite_check_and_unscale_(grads, found, torch.full((), 1.0, device="cuda"))
    print(dtype, "found after an inf", found.item(), "sum of the first", grads[0].float().sum().item())
try:
    torch._amp_foreach_non_finite_check_and_unscale_([torch.ones(3, device="cuda", dtype=torch.bfloat16)], found,
                                                     torch.full((), 0.5, device="cuda"))
except NotImplementedError as e:
    print("NotImplementedError:", e)
