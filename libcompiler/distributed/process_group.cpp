#include "libcompiler/distributed/process_group.h"

#include "libcompiler/distributed/process_group_gloo.h"
#if KILN_WITH_NCCL
#include "libcompiler/distributed/process_group_nccl.h"
#endif
#include "libcompiler/tensor/shape.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::distributed {

namespace {

using Factory = std::unique_ptr<ProcessGroup> (*)(const ProcessGroupOptions&);

const Factory* factory_of(const std::string& backend) {
#define KILN_DIST_BACKEND(name, factory)      \
  if (backend == name) {                      \
    static constexpr Factory made = &factory; \
    return &made;                             \
  }
#include "libcompiler/distributed/backends.def"
  return nullptr;
}

}  // namespace

Tensor chunk(const Tensor& buffer, int64_t index, const Tensor& like) {
  return Tensor::make_view(buffer, like.sizes(), tensor::contiguous_strides(like.sizes()), buffer.storage_offset() + index * like.numel());
}

std::unique_ptr<ProcessGroup> make_process_group(const std::string& backend, const ProcessGroupOptions& options) {
  if (const Factory* factory = factory_of(backend)) return (*factory)(options);
  if (backend == "nccl") tensor::throw_runtime_error("Distributed package doesn't have NCCL built in");
  tensor::throw_runtime_error("Invalid backend: '" + backend + "'");
}

bool backend_available(const std::string& backend) { return factory_of(backend) != nullptr; }

}  // namespace kiln::distributed
