#include "libcompiler/ops/kernels/reduction_layout.h"

#include "libcompiler/tensor/views.h"

namespace kiln::ops {

ReductionLayout reduction_layout(const tensor::Tensor& self, const std::vector<bool>& reduced) {
  std::vector<int64_t> order;
  ReductionLayout layout;
  for (int64_t d = 0; d < self.dim(); ++d)
    if (!reduced[d]) {
      order.push_back(d);
      layout.outer *= self.sizes()[d];
    }
  for (int64_t d = 0; d < self.dim(); ++d)
    if (reduced[d]) {
      order.push_back(d);
      layout.inner *= self.sizes()[d];
    }
  // Reduced dims already last (a full or an innermost reduction): no view to make first.
  layout.data = tensor::contiguous(std::is_sorted(order.begin(), order.end()) ? self : tensor::permute(self, order));
  return layout;
}

}  // namespace kiln::ops
