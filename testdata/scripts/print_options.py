# torch.set_printoptions: precision, threshold (float('inf') too), edgeitems, linewidth, the
# default/short/full profiles, sci_mode (set on every call, None deciding from the values).
import torch
x = torch.arange(2000, dtype=torch.float32) / 7
print(x)
torch.set_printoptions(precision=2)
print(x[:5])
torch.set_printoptions(threshold=float("inf"), linewidth=60)
print(x[:30])
torch.set_printoptions(profile="short")
print(x)
torch.set_printoptions(sci_mode=True)
print(x[:4])
torch.set_printoptions(profile="default")
print(x[:4])
torch.set_printoptions(edgeitems=1, threshold=5)
print(torch.ones(3, 10))
