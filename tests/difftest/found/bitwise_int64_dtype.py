# kiln's bitwise ops on int64 tensors return torch.bool (values truncated to 0/1); PyTorch keeps
# int64: `i & i`, `i ^ 3`, `~i` and bool & int64 are all int64 tensors.
import torch

i = torch.tensor([2, 5, -3])
b = torch.tensor([True, False, True])
for name, v in [("i & i", i & i), ("i ^ 3", i ^ 3), ("~i", ~i), ("b & i", b & i), ("i | 4", i | 4)]:
    print(name, v.dtype, v.tolist())
