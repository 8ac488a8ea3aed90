#pragma once
// torch.save / torch.load's native half: PyTorch's checkpoint format (a zip archive holding
// data.pkl, a protocol-2 pickle whose tensors refer to storages by persistent id, one raw
// little-endian record per storage under data/, and the byteorder/version records), both ways.
// The Python half (python/torch/serialization.py) checks the arguments.
#include "libcompiler/python/interp/object.h"

namespace kiln::python {

// Installs torch._save_checkpoint(obj, path) and torch._load_checkpoint(path, weights_only).
void install_serialization(ModuleObject& torch);

}  // namespace kiln::python
