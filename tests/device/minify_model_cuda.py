# A CUDA model whose relu the triton testing knob breaks (accuracy: x + 1), for
# tests/device/minify_cuda: under TORCHDYNAMO_REPRO_AFTER=aot and TORCHDYNAMO_REPRO_LEVEL=4 both
# PyTorch and Kiln write a minifier launcher with CUDA inputs.
import torch
import torch._inductor.config

torch._inductor.config.triton.inject_relu_bug_TESTING_ONLY = "accuracy"
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.LayerNorm(32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).cuda()
x = torch.randn(8, 16).cuda()
print(torch.compile(model)(x).sum().item())
