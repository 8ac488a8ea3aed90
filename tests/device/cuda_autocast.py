# torch.autocast("cuda") and GradScaler on the GPU: the dtype each op returns under float16 and
# bfloat16 autocast (PyTorch's CUDA lists: lower precision, float32, float32 results, promotion),
# CPU tensors left alone inside a CUDA region, an eager and a compiled float16 training step with
# loss scaling, and autocast entered inside a compiled function. Values are rounded: float16 GEMMs
# may sum in another order than PyTorch's.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
a = torch.randn(16, 32, device="cuda")
b = torch.randn(32, 8, device="cuda")
h = torch.randn(4, 8, device="cuda", dtype=torch.float16)
image = torch.randn(2, 3, 8, 8, device="cuda")
conv_weight = torch.randn(4, 3, 3, 3, device="cuda")
target = torch.randint(0, 8, (4,), device="cuda")

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
    with torch.autocast("cuda", dtype=dtype):
        print(dtype, torch.is_autocast_enabled("cuda"), torch.get_autocast_dtype("cuda"),
              torch.is_autocast_enabled("cpu"))
        for name, case in cases.items():
            print(f"  {name}: {case().dtype}")
        with torch.autocast("cuda", enabled=False):
            print("  disabled inside:", (a @ b).dtype)
print("after:", torch.is_autocast_enabled("cuda"), (a @ b).dtype)
with torch.autocast("cuda"):
    print("value:", round((a @ b).float().sum().item(), 1), round(torch.softmax(h, -1).sum().item(), 3))


def make_model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.LayerNorm(64),
                               torch.nn.Linear(64, 8)).cuda()


def train(step_fn, label):
    model = make_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler("cuda", init_scale=2.0**12, growth_interval=3)
    labels = torch.randint(0, 8, (16,), device="cuda")
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
    with torch.autocast("cuda", dtype=torch.float16):
        logits = model(inputs)
        loss = F.cross_entropy(logits, labels)
    return loss, logits.dtype


torch.manual_seed(1)
train(eager_step, "eager")
torch.manual_seed(1)
train(torch.compile(eager_step), "compiled")


@torch.compile
def attention(q, k, v):
    with torch.autocast("cuda", dtype=torch.bfloat16):
        scores = (q @ k.transpose(-2, -1)) / 8.0
        out = torch.softmax(scores, dim=-1) @ v
    return out, scores.dtype


q = torch.randn(2, 4, 16, 8, device="cuda")
out, scores_dtype = attention(q, q, q)
print("compiled region:", out.dtype, scores_dtype, round(out.float().abs().sum().item(), 0))
with torch.autocast("cuda", dtype=torch.float16):
    product, sum_dtype = torch.compile(lambda x: (x @ x.transpose(-2, -1), x.sum().dtype))(q)
print("compiled under an outer region:", product.dtype, sum_dtype)
