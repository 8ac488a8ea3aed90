# The _foreach_* ops on CUDA lists (multi-tensor launches) against their per-tensor ops: more
# tensors and chunks than one launch takes, float32/float16/bfloat16, a non-contiguous tensor and a
# tensor requiring grad (both take the per-tensor ops); then AdamW's foreach step against its
# single-tensor one.
import torch

torch.manual_seed(0)
sizes = [3, 65536, 65537, 1, 200000] + [1000 + i for i in range(60)] + [3 * 65536 + 7] * 20


def lists(dtype, n=3):
    return [[torch.randn(s, device="cuda").to(dtype) for s in sizes] for _ in range(n)]


def same(xs, ys):
    return all(torch.equal(x, y) for x, y in zip(xs, ys))


for dtype in (torch.float32, torch.float16, torch.bfloat16):
    a, b, c = lists(dtype)
    c = [t.abs() + 1 for t in c]
    checks = {
        "add_.Scalar": (lambda xs: torch._foreach_add_(xs, 0.5), lambda x: x.add_(0.5)),
        "mul_.Scalar": (lambda xs: torch._foreach_mul_(xs, 0.9), lambda x: x.mul_(0.9)),
        "div_.Scalar": (lambda xs: torch._foreach_div_(xs, 3.0), lambda x: x.div_(3.0)),
        "lerp_": (lambda xs: torch._foreach_lerp_(xs, b, 0.1), None),
        "addcmul_": (lambda xs: torch._foreach_addcmul_(xs, b, b, 0.05), None),
        "addcdiv_": (lambda xs: torch._foreach_addcdiv_(xs, b, c, -0.01), None),
    }
    per_tensor = {
        "lerp_": lambda xs: [x.lerp_(y, 0.1) for x, y in zip(xs, b)],
        "addcmul_": lambda xs: [x.addcmul_(y, y, value=0.05) for x, y in zip(xs, b)],
        "addcdiv_": lambda xs: [x.addcdiv_(y, z, value=-0.01) for x, y, z in zip(xs, b, c)],
    }
    for name, (foreach, single) in checks.items():
        xs = [t.clone() for t in a]
        ys = [t.clone() for t in a]
        foreach(xs)
        if single:
            for y in ys:
                single(y)
        else:
            per_tensor[name](ys)
        print(dtype, name, same(xs, ys))
    print(dtype, "sqrt", same(torch._foreach_sqrt(c), [t.sqrt() for t in c]))
    print(dtype, "add.List", same(torch._foreach_add(a, b, alpha=2), [x.add(y, alpha=2) for x, y in zip(a, b)]))
    print(dtype, "mul.Scalar", same(torch._foreach_mul(a, 1.5), [x * 1.5 for x in a]))
    strided = [t.clone() for t in a] + [torch.randn(64, 32, device="cuda").to(dtype).t()]
    expected = [t * 2 for t in strided]
    torch._foreach_mul_(strided, 2.0)
    print(dtype, "with a non-contiguous tensor", same(strided, expected))

w = [torch.randn(5, device="cuda", requires_grad=True) for _ in range(3)]
out = torch._foreach_mul([t * 1 for t in w], 3.0)
sum(o.sum() for o in out).backward()
print("grad through _foreach_mul", [t.grad.tolist() for t in w])

for foreach in (False, True):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.GELU(), torch.nn.Linear(256, 8)).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.1, foreach=foreach)
    x = torch.randn(32, 64, device="cuda")
    for _ in range(5):
        opt.zero_grad()
        model(x).square().mean().backward()
        opt.step()
    # Four digits: PyTorch's own foreach and single-tensor steps differ in the eighth, kiln's in the sixth.
    print("AdamW foreach", foreach, f"{sum(p.double().sum().item() for p in model.parameters()):.4f}")
