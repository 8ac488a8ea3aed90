# kiln (aot_eager and the other AOT backends): backward of a compiled function returning
# torch.max(a, 0)[0] together with another output of `a` fails with "Expected all tensors to be on
# the same device, but found at least two devices, meta and cpu!" (alone, or with amax, it works).
# (Perhaps the same cause as aot_factory_and_dtype_ops_make_meta_tensors.py: its backward makes a
# zeros tensor to scatter into.)
# PyTorch prints [2.0, 2.0, 2.0, 3.0, 3.0, 3.0].
import torch


def f(a):
    return (torch.max(a, 0)[0], a * 2)


a = torch.arange(6.0).reshape(2, 3).requires_grad_(True)
o = torch.compile(f, backend="aot_eager")(a)
(o[0].sum() + o[1].sum()).backward()
print(a.grad.flatten().tolist())
