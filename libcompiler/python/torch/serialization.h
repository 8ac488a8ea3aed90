#pragma once
// torch.save / torch.load's native half: PyTorch's checkpoint format (a zip archive holding
// data.pkl, a protocol-2 pickle whose tensors refer to storages by persistent id, one raw
// little-endian record per storage under data/, and the byteorder/version records), both ways.
// The Python half (python/torch/serialization.py) checks the arguments.
#include <optional>
#include <string>
#include <string_view>

#include "libcompiler/python/interp/object.h"

namespace kiln::python {

// Installs torch._save_checkpoint(obj, path) and torch._load_checkpoint(path, weights_only).
void install_serialization(ModuleObject& torch);

// One storage as torch.save writes an UntypedStorage: the file torch.utils._content_store keeps
// under storages/<hash>, which PyTorch's InputReader loads on the device the file names
// (`location`: "cpu", "cuda:0"). And the bytes of such a file, written by PyTorch or by Kiln
// (nullopt when there is no such file; a runtime_error when it is corrupt).
void save_untyped_storage(const std::string& path, std::string_view bytes, const std::string& location);
std::optional<std::string> load_untyped_storage(const std::string& path);

}  // namespace kiln::python
