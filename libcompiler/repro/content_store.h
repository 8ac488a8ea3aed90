#pragma once
// Where repro files keep the data of their inputs (debug_tools.md §1.5), in the layout of
// torch.utils._content_store: each storage once, named by the SHA-1 of its bytes, as
// <dir>/storages/<sha1>, a torch.save file of an UntypedStorage. PyTorch's InputReader loads
// Kiln's stores and Kiln's reader PyTorch's (whose names are hashes of PyTorch's own making; the
// name is only a key). Stores of older Kiln builds (<sha1>.bin, raw bytes) are still read.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "libcompiler/tensor/storage.h"

namespace kiln::repro {

std::string sha1_hex(std::string_view bytes);

// Writes the bytes unless the store already has them; returns their hash. The file names the
// device the storage lives on, where PyTorch's reader loads it.
std::string write_storage(const std::filesystem::path& dir, std::string_view bytes, const tensor::Device& device = tensor::kCPU);
// The bytes stored under `hash`, or nullopt when the store lacks them.
std::optional<std::string> read_storage(const std::filesystem::path& dir, const std::string& hash);

}  // namespace kiln::repro
