#include "libcompiler/ops/kernels/cascade_sum.h"

#include "libcompiler/tensor/memory_order.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

tensor::Tensor reduced_dims_in_memory_order(const tensor::Tensor& self, const std::vector<bool>& reduced) {
  const std::optional<std::vector<size_t>> order = tensor::dense_memory_order(self);
  if (!order) return self;
  std::vector<int64_t> places, outermost_first;
  for (size_t d = 0; d < reduced.size(); ++d)
    if (reduced[d] && self.sizes()[d] > 1) places.push_back(static_cast<int64_t>(d));
  for (auto it = order->rbegin(); it != order->rend(); ++it)
    if (reduced[*it]) outermost_first.push_back(static_cast<int64_t>(*it));
  std::vector<int64_t> permutation(reduced.size());
  for (size_t d = 0; d < permutation.size(); ++d) permutation[d] = static_cast<int64_t>(d);
  for (size_t i = 0; i < places.size(); ++i) permutation[places[i]] = outermost_first[i];
  return tensor::permute(self, permutation);
}

std::optional<CascadeSumPlan> cascade_sum_plan(const tensor::Tensor& self, const std::vector<bool>& reduced) {
  const tensor::Shape& sizes = self.sizes();
  const tensor::Shape& strides = self.strides();
  // The dims that matter (size > 1), innermost in memory first; their memory must be dense.
  const std::optional<std::vector<size_t>> order = tensor::dense_memory_order(self);
  if (!order) return std::nullopt;
  const std::vector<size_t>& dims = *order;
  // Memory order: kept dims below the reduced ones (the columns), the reduced ones in one block
  // and in logical order (so that a row of the layout is their memory order), then kept ones.
  CascadeSumPlan plan;
  size_t p = 0;
  for (; p < dims.size() && !reduced[dims[p]]; ++p) plan.columns *= sizes[dims[p]];
  const size_t first_reduced = p;
  for (; p < dims.size() && reduced[dims[p]]; ++p)
    if (p > first_reduced && dims[p] > dims[p - 1]) return std::nullopt;
  if (p == first_reduced) return std::nullopt;
  for (; p < dims.size(); ++p)
    if (reduced[dims[p]]) return std::nullopt;
  plan.kind = first_reduced == 0 ? CascadeSumPlan::Kind::Inner : CascadeSumPlan::Kind::Outer;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (reduced[d]) continue;
    plan.kept_sizes.push_back(sizes[d]);
    plan.kept_strides.push_back(strides[d]);
  }
  return plan;
}

int64_t cascade_sum_column(const CascadeSumPlan& plan, int64_t output_index) {
  int64_t offset = 0;
  for (size_t k = plan.kept_sizes.size(); k-- > 0;) {
    offset += (output_index % plan.kept_sizes[k]) * plan.kept_strides[k];
    output_index /= plan.kept_sizes[k];
  }
  return offset % plan.columns;
}

}  // namespace kiln::ops
