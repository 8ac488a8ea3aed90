#include "libcompiler/distributed/bucket_assignment.h"

#include <algorithm>
#include <tuple>

#include "libcompiler/tensor/torch_error.h"

namespace kiln::distributed {

BucketAssignment compute_bucket_assignment_by_size(const std::vector<tensor::Tensor>& tensors,
                                                   const std::vector<int64_t>& size_limits,
                                                   const std::vector<bool>& expect_sparse_gradient,
                                                   const std::vector<int64_t>& tensor_indices) {
  if (size_limits.empty()) tensor::throw_runtime_error("Expected at least one bucket size limit");
  if (!tensor_indices.empty() && tensor_indices.size() != tensors.size())
    tensor::throw_runtime_error("Expected one index per tensor");
  struct OpenBucket {
    std::tuple<int, int, int> key;  // dtype, device type, device index
    std::vector<int64_t> indices;
    int64_t bytes = 0;
    size_t limit = 0;  // position in size_limits
  };
  std::vector<OpenBucket> open;  // in order of first use, one per (dtype, device)
  BucketAssignment result;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const tensor::Tensor& t = tensors[i];
    const int64_t index = tensor_indices.empty() ? static_cast<int64_t>(i) : tensor_indices[i];
    if (static_cast<size_t>(index) < expect_sparse_gradient.size() && expect_sparse_gradient[static_cast<size_t>(index)]) {
      result.bucket_indices.push_back({index});
      result.size_limits.push_back(size_limits.front());
      continue;
    }
    const std::tuple<int, int, int> key{static_cast<int>(t.dtype()), static_cast<int>(t.device().type), t.device().index};
    auto bucket = std::find_if(open.begin(), open.end(), [&](const OpenBucket& b) { return b.key == key; });
    if (bucket == open.end()) bucket = open.insert(open.end(), OpenBucket{key, {}, 0, 0});
    bucket->indices.push_back(index);
    bucket->bytes += t.numel() * static_cast<int64_t>(t.itemsize());
    if (bucket->bytes >= size_limits[bucket->limit]) {
      result.bucket_indices.push_back(std::move(bucket->indices));
      result.size_limits.push_back(size_limits[bucket->limit]);
      bucket->indices.clear();
      bucket->bytes = 0;
      if (bucket->limit + 1 < size_limits.size()) ++bucket->limit;
    }
  }
  for (OpenBucket& bucket : open)
    if (!bucket.indices.empty()) {
      result.bucket_indices.push_back(std::move(bucket.indices));
      result.size_limits.push_back(size_limits[bucket.limit]);
    }
  if (tensor_indices.empty()) {
    // Buckets in the order their first parameters come, so that they fill one after the other.
    std::vector<size_t> order(result.bucket_indices.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto smallest = [&](size_t b) { return *std::min_element(result.bucket_indices[b].begin(), result.bucket_indices[b].end()); };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return smallest(a) < smallest(b); });
    BucketAssignment sorted;
    for (size_t b : order) {
      sorted.bucket_indices.push_back(std::move(result.bucket_indices[b]));
      sorted.size_limits.push_back(result.size_limits[b]);
    }
    return sorted;
  }
  return result;
}

}  // namespace kiln::distributed
