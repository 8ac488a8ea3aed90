# A CUDA model whose relu the triton testing knob breaks (RELU_BUG: accuracy, x + 1, by default;
# compile_error or runtime_error), for tests/device/minify_cuda: under TORCHDYNAMO_REPRO_AFTER
# and TORCHDYNAMO_REPRO_LEVEL both PyTorch and Kiln write a minifier launcher with CUDA inputs.
import os
import torch
import torch._inductor.config

torch._inductor.config.triton.inject_relu_bug_TESTING_ONLY = os.environ.get("RELU_BUG", "accuracy")
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.LayerNorm(32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).cuda()
x = torch.randn(8, 16).cuda()
print(torch.compile(model)(x).sum().item())
