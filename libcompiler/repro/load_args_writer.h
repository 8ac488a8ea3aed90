#pragma once
// The load_args function of a repro file (debug_tools.md §1.4-1.5): a reader.storage(...) call per
// distinct storage and a reader.tensor(...) (reader.symint(...) for a number) per input, arguments
// equal to their defaults left out, the placeholder's name as a trailing comment. An input's
// data goes to the content store when there is one; a small tensor (at most `embed_limit`
// elements) is written into the file instead, so that a minimal repro is self-contained; an input
// known only by its metadata (a compile-time failure has no data) loads as random data.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/repro/repro_state.h"
#include "libcompiler/tensor/device.h"

namespace kiln::repro {

struct LoadArgsOptions {
  std::optional<std::filesystem::path> store;
  int64_t embed_limit = 16;
  // Host tensors stand for tensors on this device (host_placement.h): their lines say it.
  std::optional<tensor::Device> kept_on_host_for;
};

// An input that is None stands for "metadata only": its placeholder's annotation says what it is.
std::vector<std::string> load_args_lines(const ReproState& state, const LoadArgsOptions& options);

}  // namespace kiln::repro
