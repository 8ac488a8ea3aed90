# torch.device objects as dict keys and set members: equal devices (made apart) are one key, as the
# optimizers' grouping of tensors by (device, dtype) needs.
import torch

a, b = torch.ones(1), torch.ones(2)
groups = {}
for t in (a, b, torch.ones(3, dtype=torch.float64)):
    groups.setdefault((t.device, t.dtype), []).append(t.numel())
print(groups)
print(len({torch.device("cpu"), torch.device("cpu"), a.device}))
print(torch.device("cuda") == torch.device("cuda:0"), len({torch.device("cuda"), torch.device("cuda:0"), torch.device("cuda", 0)}))
print(hash(torch.device("cuda:1")) == hash(torch.device("cuda", 1)))
