# torch.compile on the GPU (tests/device/compare): Kiln's fused CUDA kernels against PyTorch's
# Triton ones. Compiled and eager results agree within float32 rounding; the triton testing knob
# breaks relu the same way in both.
import torch
import torch._inductor.config

torch.manual_seed(0)
x = torch.randn(64, 128).cuda()
weight = torch.randn(128).cuda()
bias = torch.randn(128).cuda()


def softmax_norm(x):
    e = (x - x.amax(-1, keepdim=True)).exp()
    y = e / e.sum(-1, keepdim=True) * 3 + x
    mean = y.mean(-1, keepdim=True)
    var = (y - mean).pow(2).mean(-1, keepdim=True)
    return ((y - mean) * (var + 1e-5).rsqrt() * weight + bias).relu().sum(0)


eager = softmax_norm(x)
compiled = torch.compile(softmax_norm)(x)
print(compiled.shape, compiled.device, compiled.dtype)
print((compiled - eager).abs().max().item() < 1e-3)

model = torch.nn.Sequential(torch.nn.Linear(128, 64), torch.nn.Tanh(), torch.nn.Linear(64, 8)).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
step = torch.compile(lambda inputs: model(inputs).pow(2).mean())
for i in range(3):
    loss = step(x)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(i, round(loss.item(), 3))

torch._inductor.config.triton.inject_relu_bug_TESTING_ONLY = "accuracy"
torch._dynamo.reset()


def doubled_relu(x):
    return torch.relu(x) * 2


print(torch.compile(doubled_relu)(x[:2, :4]))
