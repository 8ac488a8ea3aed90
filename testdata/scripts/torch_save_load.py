# torch.save / torch.load round trips (state dicts, shared storages, parameters), the load errors,
# and load_state_dict's results and errors.
import os

import torch
import torch.nn as nn

folder = os.environ.get("TMPDIR", "/tmp")
path = folder + "/kiln_torch_save_load_" + str(os.getpid()) + ".pt"

torch.manual_seed(0)
model = nn.Linear(3, 2)
torch.save(model.state_dict(), path)
state = torch.load(path)
print(type(state).__name__, list(state.keys()), torch.equal(state["weight"], model.weight))
fresh = nn.Linear(3, 2)
print(fresh.load_state_dict(state), torch.equal(fresh.bias, model.bias))

base = torch.arange(10.0)
torch.save([base, base[2:5], base[::3], {"alias": base}], path)
whole, window, strided, nested = torch.load(path)
whole[3] = -1.0
print(window, strided, nested["alias"] is whole, window.storage_offset(), strided.stride())

torch.save({"w": nn.Parameter(torch.ones(2)), "n": torch.tensor([1, 2], dtype=torch.int32), "t": (1.5, "x", None)},
           path)
loaded = torch.load(path, map_location="cpu", weights_only=True)
print(type(loaded["w"]).__name__, loaded["w"].requires_grad, loaded["n"].dtype, loaded["t"])

for bad in ([1, 2], {"a": [torch.zeros(1)]}):
    torch.save(bad, path)
    print(torch.load(path))

os.remove(path)
try:
    torch.load(path)
except FileNotFoundError as error:
    print("FileNotFoundError", str(error).replace(path, "<path>"))

try:
    fresh.load_state_dict({"weight": torch.zeros(2, 3), "extra": torch.zeros(1)})
except RuntimeError as error:
    print(error)
try:
    fresh.load_state_dict({"weight": torch.zeros(3, 3), "bias": torch.zeros(2)})
except RuntimeError as error:
    print(error)
print(fresh.load_state_dict({"weight": torch.ones(2, 3)}, strict=False))
print(fresh.weight)
