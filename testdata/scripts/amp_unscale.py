# torch._amp_foreach_non_finite_check_and_unscale_ (GradScaler's unscale) called directly: gradients
# scaled in place, found_inf set by an inf in any of them, a half gradient, and PyTorch's argument errors.
import torch
g = [torch.tensor([1.0, 2.0, 4.0]), torch.tensor([[0.5, float("inf")]]), torch.tensor([3.0], dtype=torch.float16)]
found = torch.zeros(())
inv = torch.full((), 0.25)
torch._amp_foreach_non_finite_check_and_unscale_(g[:1], found, inv)
print(g[0], found)
torch._amp_foreach_non_finite_check_and_unscale_(g, found, inv)
print(g, found)
try:
    torch._amp_foreach_non_finite_check_and_unscale_(g, torch.zeros(2), inv)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch._amp_foreach_non_finite_check_and_unscale_(g, found, inv.double())
except RuntimeError as e:
    print("RuntimeError:", e)
