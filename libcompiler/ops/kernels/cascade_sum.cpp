#include "libcompiler/ops/kernels/cascade_sum.h"

#include <algorithm>
#include <mutex>

#include "libcompiler/tensor/parallel.h"
#include "libcompiler/ops/kernels/vector_clones.h"
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
  // Already in that order (every contiguous tensor): self itself, not a view of it made per call.
  if (std::is_sorted(permutation.begin(), permutation.end())) return self;
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

namespace {

// The memory offset of an output's first element.
int64_t kept_offset(const CascadeSumPlan& plan, int64_t output_index) {
  int64_t offset = 0;
  for (size_t k = plan.kept_sizes.size(); k-- > 0;) {
    offset += (output_index % plan.kept_sizes[k]) * plan.kept_strides[k];
    output_index /= plan.kept_sizes[k];
  }
  return offset;
}

}  // namespace

int64_t cascade_sum_column(const CascadeSumPlan& plan, int64_t output_index) { return kept_offset(plan, output_index) % plan.columns; }

int64_t outer_sum_position(const CascadeSumPlan& plan, int64_t output_index, int64_t n) {
  const int64_t offset = kept_offset(plan, output_index);
  return offset / (n * plan.columns) * plan.columns + offset % plan.columns;
}

namespace {

template <typename T>
KILN_INLINE_INTO_CLONES void sum_rows(const CascadeSumPlan& plan, const T* rows, int64_t n, int64_t begin, int64_t end, T* out, bool mean) {
  for (int64_t i = begin; i < end; ++i) {
    const int64_t column = plan.kind == CascadeSumPlan::Kind::Outer ? cascade_sum_column(plan, i) : 0;
    const opmath_t<T> sum = cascade_sum(plan, rows + i * n, n, column);
    out[i] = static_cast<T>(mean ? sum / static_cast<opmath_t<T>>(n) : sum);
  }
}

// How outer_cascade_sums splits a block of memory: tasks of a block of columns each, then one
// task per column left over.
struct OuterTasks {
  int64_t block, blocked, per_block;
};

template <typename T>
OuterTasks outer_tasks(const CascadeSumPlan& plan) {
  constexpr int64_t kLanes = cascade::Lanes<opmath_t<T>>::kCount;
  const int64_t block = plan.columns >= kLanes ? 4 * kLanes : 4;
  const int64_t blocked = plan.columns / block * block;
  return {block, blocked, blocked / block + (plan.columns - blocked)};
}

template <typename T>
KILN_INLINE_INTO_CLONES void outer_sum_tasks(const CascadeSumPlan& plan, const T* data, int64_t n, int64_t begin, int64_t end, T* sums) {
  using Acc = opmath_t<T>;
  using cascade::Lanes;
  constexpr int64_t kLanes = Lanes<Acc>::kCount;
  const int64_t columns = plan.columns;
  const OuterTasks tasks = outer_tasks<T>(plan);
  for (int64_t task = begin; task < end; ++task) {
    const int64_t b = task / tasks.per_block, t = task % tasks.per_block;
    const T* base = data + b * n * columns;
    T* out = sums + b * columns;
    if (t < tasks.blocked / tasks.block) {
      const int64_t c0 = t * tasks.block;
      if (columns >= kLanes) {
        const auto lanes = cascade::multi_row_sum<Lanes<Acc>, 4>(
            n, [&](int64_t i, int64_t k) { return cascade::load_column_block(base + i * columns + c0, k); });
        for (int64_t k = 0; k < 4; ++k)
          for (int64_t l = 0; l < kLanes; ++l) out[c0 + cascade::column_of_lane<T>(k, l)] = static_cast<T>(Acc(0) + lanes[k].v[l]);
      } else {
        const auto four =
            cascade::multi_row_sum<Acc, 4>(n, [&](int64_t i, int64_t k) { return static_cast<Acc>(base[i * columns + c0 + k]); });
        for (int64_t k = 0; k < 4; ++k) out[c0 + k] = static_cast<T>(Acc(0) + four[k]);
      }
    } else {
      const int64_t c = tasks.blocked + (t - tasks.blocked / tasks.block);
      out[c] = static_cast<T>(Acc(0) + cascade::row_sum<Acc>(n, [&](int64_t i) { return static_cast<Acc>(base[i * columns + c]); }));
    }
  }
}

KILN_VECTOR_CLONES void outer_sum_task_range(const CascadeSumPlan& plan, const float* data, int64_t n, int64_t begin, int64_t end, float* sums) {
  outer_sum_tasks(plan, data, n, begin, end, sums);
}
KILN_VECTOR_CLONES void outer_sum_task_range(const CascadeSumPlan& plan, const double* data, int64_t n, int64_t begin, int64_t end, double* sums) {
  outer_sum_tasks(plan, data, n, begin, end, sums);
}
KILN_VECTOR_CLONES void outer_sum_task_range(const CascadeSumPlan& plan, const tensor::BFloat16* data, int64_t n, int64_t begin,
                                             int64_t end, tensor::BFloat16* sums) {
  outer_sum_tasks(plan, data, n, begin, end, sums);
}
KILN_VECTOR_CLONES void outer_sum_task_range(const CascadeSumPlan& plan, const tensor::Half* data, int64_t n, int64_t begin, int64_t end,
                                             tensor::Half* sums) {
  outer_sum_tasks(plan, data, n, begin, end, sums);
}

template <typename T>
void outer_sums(const CascadeSumPlan& plan, const T* data, int64_t n, int64_t blocks, T* sums) {
  const OuterTasks tasks = outer_tasks<T>(plan);
  // Spread when the tasks read enough between them.
  tensor::parallel_for(0, blocks * tasks.per_block, std::max<int64_t>(1, tensor::kGrainSize / std::max<int64_t>(n * tasks.block, 1)),
               [&](int64_t begin, int64_t end) { outer_sum_task_range(plan, data, n, begin, end, sums); });
}

}  // namespace

KILN_VECTOR_CLONES void cascade_sum_rows(const CascadeSumPlan& plan, const float* rows, int64_t n, int64_t begin, int64_t end, float* out, bool mean) {
  sum_rows(plan, rows, n, begin, end, out, mean);
}
KILN_VECTOR_CLONES void cascade_sum_rows(const CascadeSumPlan& plan, const double* rows, int64_t n, int64_t begin, int64_t end, double* out,
                                         bool mean) {
  sum_rows(plan, rows, n, begin, end, out, mean);
}
KILN_VECTOR_CLONES void cascade_sum_rows(const CascadeSumPlan& plan, const tensor::BFloat16* rows, int64_t n, int64_t begin, int64_t end,
                                         tensor::BFloat16* out, bool mean) {
  sum_rows(plan, rows, n, begin, end, out, mean);
}
KILN_VECTOR_CLONES void cascade_sum_rows(const CascadeSumPlan& plan, const tensor::Half* rows, int64_t n, int64_t begin, int64_t end,
                                         tensor::Half* out, bool mean) {
  sum_rows(plan, rows, n, begin, end, out, mean);
}

namespace {

template <typename T>
T full_sum(const T* data, int64_t n) {
  std::mutex mutex;
  std::vector<std::pair<int64_t, T>> chunk_sums;  // (chunk's first element, its sum)
  tensor::parallel_for(0, n, tensor::kGrainSize, [&](int64_t begin, int64_t end) {
    T sum = 0;
    cascade_sum_rows(CascadeSumPlan{}, data + begin, end - begin, 0, 1, &sum, false);
    std::lock_guard lock(mutex);
    chunk_sums.emplace_back(begin, sum);
  });
  std::sort(chunk_sums.begin(), chunk_sums.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  opmath_t<T> total = chunk_sums.front().second;
  for (size_t c = 1; c < chunk_sums.size(); ++c) total += chunk_sums[c].second;
  return static_cast<T>(total);
}

}  // namespace

float cascade_full_sum(const float* data, int64_t n) { return full_sum(data, n); }
double cascade_full_sum(const double* data, int64_t n) { return full_sum(data, n); }
tensor::BFloat16 cascade_full_sum(const tensor::BFloat16* data, int64_t n) { return full_sum(data, n); }
tensor::Half cascade_full_sum(const tensor::Half* data, int64_t n) { return full_sum(data, n); }

void outer_cascade_sums(const CascadeSumPlan& plan, const float* data, int64_t n, int64_t blocks, float* sums) {
  outer_sums(plan, data, n, blocks, sums);
}
void outer_cascade_sums(const CascadeSumPlan& plan, const double* data, int64_t n, int64_t blocks, double* sums) {
  outer_sums(plan, data, n, blocks, sums);
}
void outer_cascade_sums(const CascadeSumPlan& plan, const tensor::BFloat16* data, int64_t n, int64_t blocks, tensor::BFloat16* sums) {
  outer_sums(plan, data, n, blocks, sums);
}
void outer_cascade_sums(const CascadeSumPlan& plan, const tensor::Half* data, int64_t n, int64_t blocks, tensor::Half* sums) {
  outer_sums(plan, data, n, blocks, sums);
}

}  // namespace kiln::ops
