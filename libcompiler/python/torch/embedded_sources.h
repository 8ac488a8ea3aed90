#pragma once
// The Python sources of the torch package (python/torch/...), compiled into the binary by CMake
// (embedded_sources.cpp is generated from them).
#include <vector>

namespace kiln::python {

struct EmbeddedSource {
  const char* module;  // "torch.nn"
  const char* path;    // "torch/nn/__init__.py", as tracebacks name it
  const char* text;
};

const std::vector<EmbeddedSource>& embedded_torch_sources();

}  // namespace kiln::python
