# Module dtype conversion: double/half/bfloat16/float and .to(dtype) convert floating parameters, their
# gradients and floating buffers (not integer ones) through Tensor.data assignment (set_data); a
# buffer assigned anew stays a buffer; PyTorch's errors.
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
x = torch.randn(5, 3)
net(x).sum().backward()
net.double()
print(net[0].weight.dtype, net[0].weight.grad.dtype, net[1].running_mean.dtype, net[1].num_batches_tracked.dtype)
print(net(x.double()).dtype, net.state_dict()["1.running_var"].dtype)
net.half()
print(net[3].bias.dtype, net[1].running_mean.dtype)
net.to(torch.bfloat16)
print(net[3].bias.dtype, net[1].running_var.dtype)
net.float()
print(net[3].bias.dtype, net[1].running_var.dtype, net(x).dtype)


class Tracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("average", torch.zeros(2))

    def forward(self, x):
        self.average = 0.9 * self.average + 0.1 * x.mean(0)
        return x - self.average


t = Tracker()
t(torch.ones(3, 2))
print(t.state_dict()["average"], t.double().average.dtype)
try:
    t.average = 3
except TypeError as e:
    print(e)
try:
    net.to(torch.int32)
except TypeError as e:
    print(e)
