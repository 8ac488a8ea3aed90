# torch.autocast on the CPU: which ops run in bfloat16/float16, which in float32, promotion, nesting,
# the decorator form, gradients flowing back in float32, and the state functions.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
a = torch.randn(4, 4)
b = torch.randn(4, 4)
lin = nn.Linear(4, 3)
conv = nn.Conv2d(2, 2, 3)
img = torch.randn(1, 2, 5, 5)
print(torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"), torch.is_autocast_enabled())
with torch.autocast("cpu"):
    print(torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
    mm = torch.mm(a, b)
    print("mm", mm.dtype, mm)
    print("matmul", (a @ b).dtype, "linear", lin(a).dtype, "conv2d", conv(img).dtype)
    print("bmm", torch.bmm(a[None], b[None]).dtype, "addmm", torch.addmm(a, a, b).dtype)
    h = lin(a)
    print("relu", F.relu(h).dtype, "add", (h + 1).dtype, "softmax", torch.softmax(h, -1).dtype,
          "layer_norm", F.layer_norm(h, (3,)).dtype, "sum", h.sum().dtype, "exp", torch.exp(a).dtype)
    target = torch.tensor([0, 1, 2, 1])
    print("cross_entropy", F.cross_entropy(h, target).dtype, "mse", F.mse_loss(h, torch.zeros(4, 3)).dtype,
          "prod", h.prod().dtype)
    print("cat", torch.cat([h, a[:, :3]]).dtype, torch.cat([h, h]).dtype, "stack", torch.stack([h, a[:, :3]]).dtype)
    print("double", torch.mm(a.double(), b.double()).dtype, "int", (torch.ones(2, dtype=torch.long) * 2).dtype)
    with torch.autocast("cpu", enabled=False):
        print("disabled", torch.mm(a, b).dtype, torch.is_autocast_enabled("cpu"))
    print("after inner", torch.mm(a, b).dtype)
print(torch.is_autocast_enabled("cpu"), torch.mm(a, b).dtype)

with torch.autocast(device_type="cpu", dtype=torch.float16):
    print("float16", torch.mm(a, b).dtype, torch.get_autocast_dtype("cpu"))


@torch.autocast("cpu")
def project(x):
    return lin(x)


print("decorated", project(a).dtype, torch.is_autocast_enabled("cpu"))

lin.zero_grad()
with torch.autocast("cpu"):
    out = lin(a)
    loss = F.mse_loss(out, torch.zeros(4, 3))
loss.backward()
print(out.grad_fn.name(), loss.dtype, lin.weight.grad.dtype, lin.weight.grad)
with torch.autocast("cpu", dtype=torch.float32):
    print("unsupported dtype", torch.mm(a, b).dtype)
try:
    torch.autocast(device_type=torch.device("cpu"))
except ValueError as error:
    print(error)
try:
    torch.autocast("gpu")
except RuntimeError as error:
    print(error)
