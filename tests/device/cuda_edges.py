# Eager CUDA paths that pick a kernel by shape and alignment (tests/device/compare): addmm through
# cuBLASLt's bias epilogue and its fallbacks (a 2-d addend, beta other than 1, a strided bias, a
# transposed operand, alpha), and float32 elementwise ops four elements a thread (sizes that are
# not multiples of four, views that do not start at a 16-byte boundary, in-place ops).
import torch

torch.manual_seed(0)


def close(got, expected):
    scale = expected.abs().max().item() + 1e-6
    return (got - expected).abs().max().item() / scale < 1e-5


def check(name, got, expected):
    print(name, tuple(got.shape), got.dtype, got.stride(), close(got.cpu().double(), expected))


a = torch.randn(33, 70)
b = torch.randn(70, 45)
bias = torch.randn(45)
reference = a.double() @ b.double()
ca, cb, cbias = a.cuda(), b.cuda(), bias.cuda()
check("addmm bias", torch.addmm(cbias, ca, cb), reference + bias.double())
check("addmm alpha", torch.addmm(cbias, ca, cb, alpha=0.5), 0.5 * reference + bias.double())
check("addmm beta", torch.addmm(cbias, ca, cb, beta=2.0), reference + 2 * bias.double())
check("addmm 2-d addend", torch.addmm(cbias.expand(33, 45).contiguous(), ca, cb), reference + bias.double())
transposed_b = cb.t().contiguous().t()
check("addmm transposed operand", torch.addmm(cbias, ca, transposed_b), reference + bias.double())
strided_bias = torch.randn(90).cuda()[::2]
check("addmm strided bias", torch.addmm(strided_bias, ca, cb), reference + strided_bias.cpu().double())
linear = torch.nn.Linear(70, 45).cuda()
check("linear", linear(ca), (a.double() @ linear.weight.cpu().double().t()) + linear.bias.cpu().double())
check("linear 3-d", linear(ca.view(3, 11, 70)), ((a.double() @ linear.weight.cpu().double().t()) + linear.bias.cpu().double()).view(3, 11, 45))

for n in (1, 3, 4, 5, 1001, 4096, 4099):
    x = torch.randn(n + 1)
    y = torch.randn(n + 1)
    cx, cy = x.cuda(), y.cuda()
    check(f"add {n}", cx[:n] + cy[:n], x[:n].double() + y[:n].double())
    check(f"mul unaligned {n}", cx[1:] * cy[1:], x[1:].double() * y[1:].double())
    z = cx[:n].clone()
    z.mul_(0.5).add_(cy[:n], alpha=2.0)
    check(f"in place {n}", z, x[:n].double() * 0.5 + 2.0 * y[:n].double())
    check(f"lerp {n}", torch.lerp(cx[:n], cy[:n], 0.25), torch.lerp(x[:n].double(), y[:n].double(), 0.25))
    check(f"sqrt {n}", cx[:n].abs().sqrt(), x[:n].double().abs().sqrt())
    check(f"double {n}", cx[:n].double() * 3, x[:n].double() * 3)


# Compiled pointwise kernels take four neighbouring points a thread as float4 where every float32
# buffer they meet only at the point itself is 16-byte aligned: sizes that leave one to three
# points over, views that start past that boundary (one point a thread), a broadcast bias read a
# point at a time, a float64 operand, and an input updated in place.
def fused(x, y, bias):
    return torch.nn.functional.gelu(x * 1.5 + bias) * torch.sigmoid(y)


compiled = torch.compile(fused, dynamic=False)
for n in (5, 1027, 65537):  # 15, 3081 and 196611 points: 3, 1 and 3 left after the quads
    x = torch.randn(n + 1, 3)
    y = torch.randn(n + 1, 3)
    bias = torch.randn(3)
    cx, cy, cbias = x.cuda(), y.cuda(), bias.cuda()
    expected = fused(x.double(), y.double(), bias.double())
    check(f"compiled {n}", compiled(cx[:n], cy[:n], cbias), expected[:n])
    unaligned = fused(x.double()[1:], y.double()[1:], bias.double())
    check(f"compiled unaligned {n}", compiled(cx[1:], cy[1:], cbias), unaligned)


@torch.compile(dynamic=False)
def update(weight, grad, scale):
    weight.add_(grad.double() * scale)
    return weight.sum()


for n in (6, 1027):
    w = torch.randn(n, dtype=torch.float64)
    g = torch.randn(n)
    expected = w + g.double() * 0.5
    cw = w.cuda()
    update(cw, g.cuda(), 0.5)
    check(f"compiled in place {n}", cw, expected)


# Compiled row kernels (softmax, layer norm) take four neighbouring points of a row a thread where
# the row's length is a multiple of four and the row's buffers are aligned: rows of 64 from an
# aligned tensor and from a view one float in, and rows of 30.
def rows(x, weight, bias):
    return torch.softmax(x, -1) + torch.nn.functional.layer_norm(x, (x.shape[-1],), weight, bias).relu()


compiled_rows = torch.compile(rows, dynamic=False)
for n, width in ((96, 64), (5, 30)):
    flat = torch.randn(n * width + 1)
    weight, bias = torch.randn(width), torch.randn(width)
    cflat, cweight, cbias = flat.cuda(), weight.cuda(), bias.cuda()
    aligned, shifted = flat[:-1].view(n, width), flat[1:].view(n, width)
    check(f"compiled rows {n}x{width}", compiled_rows(cflat[:-1].view(n, width), cweight, cbias), rows(aligned.double(), weight.double(), bias.double()))
    check(f"compiled rows unaligned {n}x{width}", compiled_rows(cflat[1:].view(n, width), cweight, cbias),
          rows(shifted.double(), weight.double(), bias.double()))


# Compiled half and bfloat16 kernels compute in float32 and round where they store or convert:
# within a unit in the last place of a float32 reference (a sum within one of its own).
def low_precision(x, y):
    z = (x * 1.5 + y).relu()
    return z, z.sum(-1), z.float() * 2


compiled_low = torch.compile(low_precision, dynamic=False)
for dtype, ulp in ((torch.bfloat16, 2.0 ** -8), (torch.float16, 2.0 ** -11)):
    x, y = torch.randn(16, 40).to(dtype), torch.randn(16, 40).to(dtype)
    got = compiled_low(x.cuda(), y.cuda())
    expected = low_precision(x.float(), y.float())
    print(dtype, [t.dtype for t in got], [t.shape for t in got])
    for name, g, e in zip(("pointwise", "sum", "widened"), got, expected):
        error = ((g.cpu().float() - e).abs() / (e.abs() + 1)).max().item()
        print(dtype, name, error <= 2 * ulp)
