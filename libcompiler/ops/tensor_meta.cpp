#include "libcompiler/ops/tensor_meta.h"

namespace kiln::ops {

std::vector<bool> reduction_mask(const std::vector<int64_t>& dims, int64_t ndim) {
  std::vector<bool> mask(static_cast<size_t>(ndim), dims.empty());
  for (int64_t d : dims) {
    const int64_t wrapped = tensor::wrap_dim(d, ndim);
    if (ndim == 0) continue;  // a 0-dim tensor accepts dim 0 / -1 and reduces nothing more
    if (mask[wrapped])
      tensor::throw_runtime_error("dim " + std::to_string(wrapped) + " appears multiple times in the list of dims");
    mask[wrapped] = true;
  }
  return mask;
}

}  // namespace kiln::ops
