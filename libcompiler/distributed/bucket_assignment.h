#pragma once
// DDP's gradient buckets (c10d's compute_bucket_assignment_by_size): parameters are packed in
// the order given into buckets per (dtype, device), a bucket closing once its bytes reach the
// current size limit; each (dtype, device) walks the list of limits one bucket at a time and
// stays on the last (DDP passes [1 MB, bucket_cap_mb] so that the first bucket is small).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "libcompiler/tensor/tensor.h"

namespace kiln::distributed {

struct BucketAssignment {
  std::vector<std::vector<int64_t>> bucket_indices;  // parameter indices per bucket
  std::vector<int64_t> size_limits;                  // the limit each bucket was filled against
};

// `tensor_indices` (optional) gives each tensor's parameter index, the tensors then being in
// the order their gradients became ready; without it, buckets are sorted by their smallest index.
BucketAssignment compute_bucket_assignment_by_size(const std::vector<tensor::Tensor>& tensors,
                                                   const std::vector<int64_t>& size_limits,
                                                   const std::vector<bool>& expect_sparse_gradient = {},
                                                   const std::vector<int64_t>& tensor_indices = {});

}  // namespace kiln::distributed
