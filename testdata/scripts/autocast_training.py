# torch.autocast and GradScaler on one device (KILN_TEST_DEVICE: cpu, the default, or cuda; the GPU
# suite keeps its own copy, tests/device/cuda_autocast.py: a launcher importing this file deadlocked
# PyTorch's compile workers on the import lock): the dtype each op returns under float16 and
# bfloat16 autocast (that device's lists: lower precision, float32, float32 results, promotion),
# tensors of the other device left alone, an eager and a compiled float16 training step with loss
# scaling, and autocast entered inside a compiled function. Values are rounded: float16 GEMMs may
# sum in another order than PyTorch's.
import os

import torch
import torch.nn.functional as F

DEVICE = os.environ.get("KILN_TEST_DEVICE", "cpu")

torch.manual_seed(0)
a = torch.randn(16, 32, device=DEVICE)
b = torch.randn(32, 8, device=DEVICE)
h = torch.randn(4, 8, device=DEVICE, dtype=torch.float16)
image = torch.randn(2, 3, 8, 8, device=DEVICE)
conv_weight = torch.randn(4, 3, 3, 3, device=DEVICE)
target = torch.randint(0, 8, (4,), device=DEVICE)

cases = {
    "mm": lambda: a @ b,
    "linear": lambda: F.linear(a, b.t()),
    "bmm": lambda: torch.bmm(a.view(2, 8, 32), b.expand(2, 32, 8)),
    "conv2d": lambda: F.conv2d(image, conv_weight),
    "exp": lambda: torch.exp(h),
    "log_softmax": lambda: F.log_softmax(h, dim=-1),
    "softmax": lambda: torch.softmax(h, -1),
    "sum": lambda: h.sum(),
    "sum_dtype": lambda: h.sum(dtype=torch.float16),
    "mean": lambda: h.mean(),
    "layer_norm": lambda: F.layer_norm(h, (8,)),
    "pow": lambda: h.pow(2),
    "cross_entropy": lambda: F.cross_entropy(h, target),
    "mse_loss": lambda: F.mse_loss(h, h.float()),
    "cat": lambda: torch.cat([h, h.float()]),
    "stack_half": lambda: torch.stack([h, h]),
    "addcmul": lambda: torch.addcmul(h.float(), h, h),
    "relu": lambda: torch.relu(h),
    "add": lambda: h + a[:4, :8],
    "float64_mm": lambda: a.double() @ b.double(),
    "cpu_mm": lambda: a.cpu() @ b.cpu(),
}
for dtype in (torch.float16, torch.bfloat16):
    with torch.autocast(DEVICE, dtype=dtype):
        print(dtype, torch.is_autocast_enabled(DEVICE), torch.get_autocast_dtype(DEVICE),
              torch.is_autocast_enabled("cpu" if DEVICE == "cuda" else "cuda"))
        for name, case in cases.items():
            try:
                print(f"  {name}: {case().dtype}")
            except RuntimeError as e:  # promotion of float16 under bfloat16 autocast (and back)
                print(f"  {name}: RuntimeError: {e}")
        with torch.autocast(DEVICE, enabled=False):
            print("  disabled inside:", (a @ b).dtype)
print("after:", torch.is_autocast_enabled(DEVICE), (a @ b).dtype)
with torch.autocast(DEVICE):
    print("value:", round((a @ b).float().sum().item(), 1), round(torch.softmax(h, -1).sum().item(), 3))


def make_model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.LayerNorm(64),
                               torch.nn.Linear(64, 8)).to(DEVICE)


def train(step_fn, label):
    model = make_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(DEVICE, init_scale=2.0**12, growth_interval=3)
    labels = torch.randint(0, 8, (16,), device=DEVICE)
    for step in range(6):
        optimizer.zero_grad(set_to_none=True)
        loss, logits_dtype = step_fn(model, a, labels)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
        print(label, step, logits_dtype, loss.dtype, round(loss.item(), 2), round(norm.item(), 1), scaler.get_scale())


def eager_step(model, inputs, labels):
    with torch.autocast(DEVICE, dtype=torch.float16):
        logits = model(inputs)
        loss = F.cross_entropy(logits, labels)
    return loss, logits.dtype


torch.manual_seed(1)
train(eager_step, "eager")
torch.manual_seed(1)
train(torch.compile(eager_step), "compiled")


@torch.compile
def attention(q, k, v):
    with torch.autocast(DEVICE, dtype=torch.bfloat16):
        scores = (q @ k.transpose(-2, -1)) / 8.0
        out = torch.softmax(scores, dim=-1) @ v
    return out, scores.dtype


q = torch.randn(2, 4, 16, 8, device=DEVICE)
out, scores_dtype = attention(q, q, q)
print("compiled region:", out.dtype, scores_dtype, round(out.float().abs().sum().item(), 0))
with torch.autocast(DEVICE, dtype=torch.float16):
    product, sum_dtype = torch.compile(lambda x: (x @ x.transpose(-2, -1), x.sum().dtype))(q)
print("compiled under an outer region:", product.dtype, sum_dtype)
