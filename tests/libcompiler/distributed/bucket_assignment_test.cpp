// DDP's bucket assignment: sizes against the limit list, per dtype, and the order buckets come in.
#include <gtest/gtest.h>

#include "libcompiler/distributed/bucket_assignment.h"

namespace kiln::distributed {
namespace {

using tensor::DType;
using tensor::Tensor;

std::vector<Tensor> floats(std::initializer_list<int64_t> numels) {
  std::vector<Tensor> tensors;
  for (int64_t n : numels) tensors.push_back(Tensor::empty({n}));
  return tensors;
}

TEST(BucketAssignment, ClosesABucketOnceItReachesTheLimitAndMovesToTheNextLimit) {
  // 4-byte floats: 40, 40, 400, 40, 40, 40 bytes; limits 64 bytes then 100.
  const BucketAssignment a = compute_bucket_assignment_by_size(floats({10, 10, 100, 10, 10, 10}), {64, 100});
  EXPECT_EQ(a.bucket_indices, (std::vector<std::vector<int64_t>>{{0, 1}, {2}, {3, 4, 5}}));
  EXPECT_EQ(a.size_limits, (std::vector<int64_t>{64, 100, 100}));
}

TEST(BucketAssignment, OneLimitAsLargeAsAnythingMakesOneBucket) {
  const BucketAssignment a = compute_bucket_assignment_by_size(floats({10, 1000, 3}), {INT64_MAX});
  EXPECT_EQ(a.bucket_indices, (std::vector<std::vector<int64_t>>{{0, 1, 2}}));
}

TEST(BucketAssignment, DTypesAreBucketedApartAndBucketsSortedByTheirFirstIndex) {
  std::vector<Tensor> tensors = {Tensor::empty({4}, DType::Float64), Tensor::empty({4}), Tensor::empty({4}, DType::Float64),
                                 Tensor::empty({4})};
  const BucketAssignment a = compute_bucket_assignment_by_size(tensors, {1000});
  EXPECT_EQ(a.bucket_indices, (std::vector<std::vector<int64_t>>{{0, 2}, {1, 3}}));
}

TEST(BucketAssignment, GivenIndicesKeepTheGradientReadyOrder) {
  const BucketAssignment a = compute_bucket_assignment_by_size(floats({10, 10, 10}), {40, 80}, {}, {2, 0, 1});
  EXPECT_EQ(a.bucket_indices, (std::vector<std::vector<int64_t>>{{2}, {0, 1}}));
}

}  // namespace
}  // namespace kiln::distributed
