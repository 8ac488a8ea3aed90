# torch.amp.GradScaler on the CPU under bfloat16 autocast: the scale grows every growth_interval good
# steps and backs off (skipping the step) after an inf gradient; state_dict, misuse errors and the
# deprecated torch.cuda.amp spellings (which disable themselves without CUDA, as PyTorch's do).
import torch
import warnings
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0**10, growth_interval=2)
x = torch.randn(32, 8); y = torch.randn(32, 4)
for step in range(6):
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = model(x)
        loss = torch.nn.functional.mse_loss(out, y)
    scaled = scaler.scale(loss)
    scaled.backward()
    if step == 3:
        model[0].weight.grad[0, 0] = float("inf")
    scaler.step(opt)
    scaler.update()
    print(step, out.dtype, loss.dtype, f"{loss.item():.4f}", scaler.get_scale(), scaler._get_growth_tracker())
print(scaler.state_dict())
try:
    scaler.step(opt); scaler.step(opt)
except RuntimeError as e:
    print("RuntimeError:", e)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    s = torch.cuda.amp.GradScaler()
    print([str(x.message) for x in w], s.is_enabled())
    a = torch.cuda.amp.autocast()
    print([str(x.message) for x in w][1:])
print(torch.cuda.is_bf16_supported(), torch.get_autocast_dtype("cuda"), torch.is_autocast_enabled("cuda"))
