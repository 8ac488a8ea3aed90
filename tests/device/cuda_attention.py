# scaled_dot_product_attention on the GPU (tests/device/compare): PyTorch runs its fused
# efficient-attention kernel here, Kiln its own (libcompiler/cuda/attention.h). Each case prints the
# output's and the gradients' layouts and whether they match attention computed in float64 on the
# CPU within the dtype's tolerance, eager and compiled.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
TOLERANCE = {torch.float32: 2e-4, torch.float16: 2e-2, torch.bfloat16: 6e-2}


def reference(q, k, v, causal, scale):
    q, k, v = (t.detach().cpu().double().requires_grad_() for t in (q, k, v))
    s = (q @ k.transpose(-2, -1)) * (scale if scale is not None else q.shape[-1] ** -0.5)
    if causal:
        s = s.masked_fill(torch.ones(s.shape[-2:], dtype=torch.bool).tril().logical_not(), float("-inf"))
    return s.softmax(-1) @ v, (q, k, v)


def check(name, shape, keys=None, causal=True, scale=None, dtype=torch.float32, layout="bthd", compiled=False):
    b, h, t, d = shape
    n = keys or t
    def make(rows):
        x = torch.randn(b, rows, h, d) if layout == "bthd" else torch.randn(b, h, rows, d)
        x = x.to("cuda", dtype)
        return (x.transpose(1, 2) if layout == "bthd" else x).detach().requires_grad_()
    q, k, v = make(t), make(n), make(n)
    grad = torch.randn(b, h, t, d).to("cuda", dtype)
    attend = lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)
    fn = torch.compile(attend) if compiled else attend
    out = fn(q, k, v)
    out.backward(grad)
    expected, leaves = reference(q, k, v, causal, scale)
    expected.backward(grad.cpu().double())
    tol = TOLERANCE[dtype]
    errors = [(out.double().cpu() - expected).abs().max().item()]
    errors += [(x.grad.double().cpu() - r.grad).abs().max().item() / max(1.0, r.grad.abs().max().item()) for x, r in zip((q, k, v), leaves)]
    verdict = "ok" if all(e <= tol for e in errors) else "off by " + ", ".join(f"{e:.2e}" for e in errors)
    print(name, tuple(out.shape), out.stride(), q.grad.stride(), out.dtype, verdict)


check("gpt_causal", (2, 8, 256, 64))
check("two_tiles_causal", (2, 3, 80, 64), layout="bhtd")
check("more_keys", (1, 2, 70, 64), keys=100, causal=False, scale=0.3, layout="bhtd")
check("fewer_keys_causal", (1, 2, 100, 32), keys=40, layout="bhtd")
check("head_128", (1, 2, 96, 128))
check("head_16", (3, 1, 33, 16), causal=False)
check("half", (2, 2, 64, 64), dtype=torch.float16)
check("bfloat16", (2, 2, 130, 64), dtype=torch.bfloat16)
check("compiled_gpt", (2, 4, 128, 64), compiled=True)
check("compiled_more_keys", (1, 2, 70, 32), keys=90, causal=False, compiled=True)
with torch.no_grad():
    q = torch.randn(1, 2, 16, 64, device="cuda")
    out = F.scaled_dot_product_attention(q, q, q, is_causal=True)
    print("no_grad", out.stride(), round(out.sum().item(), 3))
