#pragma once
// The errors of torch.distributed's store, by the Python class PyTorch raises for each (all
// subclasses of torch.distributed.DistError, itself a RuntimeError): the Python binding raises
// that class. A failed collective is a RuntimeError with Gloo's message, as in PyTorch.
#include <stdexcept>
#include <string>

namespace kiln::distributed {

enum class DistErrorKind {
  Store,    // DistStoreError: a store wait or get timed out, clients did not join
  Network,  // DistNetworkError: the store could not be reached or went away
};

struct DistError : std::runtime_error {
  DistError(DistErrorKind kind, const std::string& message) : std::runtime_error(message), kind(kind) {}
  DistErrorKind kind;
};

}  // namespace kiln::distributed
