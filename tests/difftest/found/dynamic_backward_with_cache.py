# kiln, inductor with its compile cache on (the default; TORCHINDUCTOR_FORCE_DISABLE_CACHES=1
# hides it): after the automatic-dynamic recompile (sizes 4, 6, then 8) the compiled backward
# returns a gradient of the previous size: "CompiledFunctionBackward returned an invalid gradient
# at index 1 - got [6] but expected shape compatible with [8]". PyTorch prints the 3 gradients.
# (Variants: torch.max(a + b, -1)[0] gives "IndexError: index out of bounds".)
import torch


def f(a, b):
    return (a * b).sum()


cf = torch.compile(f, backend="inductor")
for n in [4, 6, 8]:
    a = torch.arange(float(n)).requires_grad_(True)
    b = torch.ones(n, requires_grad=True)
    cf(a, b).backward()
    print(n, a.grad.tolist())
