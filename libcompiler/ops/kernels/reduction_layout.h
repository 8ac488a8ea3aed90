#pragma once
// The layout every reduction kernel works on: the input permuted so that the reduced dims come
// last and made contiguous, so each output element reduces one contiguous row of `inner` values
// and rows follow the output's (row-major) order.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "libcompiler/tensor/parallel.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::ops {

struct ReductionLayout {
  tensor::Tensor data;  // contiguous, [outer rows][inner]
  int64_t outer = 1;
  int64_t inner = 1;
};

ReductionLayout reduction_layout(const tensor::Tensor& self, const std::vector<bool>& reduced);

// Calls rows(begin, end) over ranges that cover every row, spread over the thread pool when there
// is enough work.
template <typename Rows>
void for_each_row_range(const ReductionLayout& layout, const Rows& rows) {
  tensor::parallel_for(0, layout.outer, std::max<int64_t>(1, tensor::kGrainSize / std::max<int64_t>(layout.inner, 1)), rows);
}

// Calls row(i) for every row.
template <typename Row>
void for_each_row(const ReductionLayout& layout, const Row& row) {
  for_each_row_range(layout, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) row(i);
  });
}

}  // namespace kiln::ops
