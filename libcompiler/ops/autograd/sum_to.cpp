#include "libcompiler/ops/autograd/sum_to.h"

#include "libcompiler/ops/ops.h"

namespace kiln::ops {

bool is_expandable_to(const tensor::Shape& sizes, const tensor::Shape& target) {
  if (sizes.size() > target.size()) return false;
  const size_t lead = target.size() - sizes.size();
  for (size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] != 1 && sizes[i] != target[lead + i]) return false;
  return true;
}

tensor::Tensor sum_to(const tensor::Tensor& grad, const tensor::Shape& sizes) {
  if (grad.sizes() == sizes) return grad;
  const int64_t lead = grad.dim() - static_cast<int64_t>(sizes.size());
  std::vector<int64_t> reduce_dims;
  for (int64_t d = 0; d < grad.dim(); ++d)
    if (d < lead || (sizes[d - lead] == 1 && grad.sizes()[d] != 1)) reduce_dims.push_back(d);
  tensor::Tensor reduced = reduce_dims.empty() ? grad : sum(grad, reduce_dims, /*keepdim=*/true);
  return ops::view(reduced, sizes);
}

}  // namespace kiln::ops
