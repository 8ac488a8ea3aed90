#pragma once
// Floating sums in the order PyTorch's CPU sum kernel adds (ATen's cascade_sum): the same float
// additions, so that results agree to the bit, as ill-conditioned programs notice (values that
// cancel to about 0 before a comparison or a `%`). ATen runs this kernel on 32-byte vectors (its
// AVX2 build, also on AVX-512 machines) and in the input's dtype for float32 and float64.
//
// Which order an output gets depends on how TensorIterator lays the reduction out in memory:
// - inner: the reduced dims are the innermost in memory; each output's elements are contiguous.
//   At least one vector of them: lanes summed by row_sum over whole vectors, then the tail and
//   the lanes added one by one; fewer: row_sum over the elements.
// - outer: `columns` kept elements lie innermost, then the reduced dims; the output at column c
//   sums down its column: by multi_row_sum alone in the blocks ATen reads 4 columns (or 4
//   vectors of columns) at a time, by row_sum in the columns left over.
// The result is stored as 0 + sum (so -0.0 comes out +0.0).
//
// bfloat16 and float16 add in float (ATen's accumulate type) in the same order, read through
// ATen's widening loads: a contiguous row 32 bytes (16 elements) at a time, widened to two float
// vectors that are added first; columns 8 elements (one float vector) at a time. Each result is
// rounded once, to the input's dtype.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/vector_clones.h"
#include "libcompiler/tensor/half.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::ops {

struct CascadeSumPlan {
  enum class Kind { Inner, Outer } kind = Kind::Inner;
  int64_t columns = 1;  // Outer: how many kept elements lie below the reduced dims in memory
  std::vector<int64_t> kept_sizes, kept_strides;  // the kept dims, logically: an output's memory offset
};

// `self` with its reduced dims (those of size > 1) swapped among their places into memory order,
// outermost first, so that a row of the layout is their memory order, as TensorIterator adds them
// (a transposed tensor's full sum). Kept dims stay where they are: the outputs keep their order.
tensor::Tensor reduced_dims_in_memory_order(const tensor::Tensor& self, const std::vector<bool>& reduced);

// The plan for summing `self` over the dims marked in `reduced`, as the layout of reduction.cpp
// rows them (each output's elements in logical order); nullopt where ATen's order is not one of
// these (overlapping or gapped memory, reduced dims interleaved with kept ones in memory).
std::optional<CascadeSumPlan> cascade_sum_plan(const tensor::Tensor& self, const std::vector<bool>& reduced);

namespace cascade {

inline int64_t ceil_log2(int64_t x) { return x <= 2 ? 1 : static_cast<int64_t>(std::bit_width(static_cast<uint64_t>(x - 1))); }

// ATen's multi_row_sum: kRows running sums over `size` steps, carried through 4 levels of
// accumulators so that only partial sums of similar size meet.
template <typename V, int64_t kRows, typename Load>
KILN_INLINE_INTO_CLONES std::array<V, kRows> multi_row_sum(int64_t size, const Load& load) {
  constexpr int64_t kLevels = 4;
  const int64_t level_power = std::max<int64_t>(4, ceil_log2(size) / kLevels);
  const int64_t level_step = int64_t(1) << level_power;
  const int64_t level_mask = level_step - 1;
  std::array<std::array<V, kRows>, kLevels> acc{};
  int64_t i = 0;
  while (i + level_step <= size) {
    for (int64_t j = 0; j < level_step; ++j, ++i)
      for (int64_t k = 0; k < kRows; ++k) acc[0][k] += load(i, k);
    for (int64_t j = 1; j < kLevels; ++j) {
      for (int64_t k = 0; k < kRows; ++k) {
        acc[j][k] += acc[j - 1][k];
        acc[j - 1][k] = V{};
      }
      if ((i & (level_mask << (j * level_power))) != 0) break;
    }
  }
  for (; i < size; ++i)
    for (int64_t k = 0; k < kRows; ++k) acc[0][k] += load(i, k);
  for (int64_t j = 1; j < kLevels; ++j)
    for (int64_t k = 0; k < kRows; ++k) acc[0][k] += acc[j][k];
  return acc[0];
}

// ATen's row_sum: the row read as rows of 4 (4 independent sums), the rest, then the 4 summed.
template <typename V, typename Load>
KILN_INLINE_INTO_CLONES V row_sum(int64_t size, const Load& load) {
  const int64_t rows = size / 4;
  std::array<V, 4> partial = multi_row_sum<V, 4>(rows, [&](int64_t i, int64_t k) { return load(i * 4 + k); });
  for (int64_t i = rows * 4; i < size; ++i) partial[0] += load(i);
  for (int64_t k = 1; k < 4; ++k) partial[0] += partial[k];
  return partial[0];
}

// One 32-byte vector of T as a GCC vector: it adds as the machine's vector adds (one AVX register,
// or two SSE ones), and each lane's additions are those of scalar code in the same order.
template <typename T>
struct Lanes {
  static constexpr int64_t kCount = 32 / static_cast<int64_t>(sizeof(T));
  typedef T Vector __attribute__((vector_size(32)));
  Vector v{};
  KILN_INLINE_INTO_CLONES static Lanes load(const T* p) {
    Lanes lanes;
    std::memcpy(&lanes.v, p, sizeof lanes.v);
    return lanes;
  }
  KILN_INLINE_INTO_CLONES Lanes& operator+=(const Lanes& other) {
    v += other.v;
    return *this;
  }
};

// 8 float16 elements widened to one float vector (exact).
KILN_INLINE_INTO_CLONES Lanes<float> widen_lanes(const tensor::Half* p) {
  typedef _Float16 Narrow __attribute__((vector_size(16)));
  Narrow halves;
  std::memcpy(&halves, p, sizeof halves);
  Lanes<float> lanes;
  lanes.v = __builtin_convertvector(halves, Lanes<float>::Vector);
  return lanes;
}

// 16 bfloat16 elements as float vectors by shifts (exact): the even ones and the odd ones. Two
// shifts where a widening conversion takes four instructions per 8 elements on AVX2.
struct EvenOdd {
  Lanes<float>::Vector even, odd;
};
KILN_INLINE_INTO_CLONES EvenOdd widen_even_odd(const tensor::BFloat16* p) {
  typedef uint32_t Pairs __attribute__((vector_size(32)));
  Pairs pairs;
  std::memcpy(&pairs, p, sizeof pairs);
  const Pairs even = pairs << 16, odd = pairs & 0xFFFF0000u;  // little-endian: element 2j is the low half
  EvenOdd widened;
  std::memcpy(&widened.even, &even, sizeof even);
  std::memcpy(&widened.odd, &odd, sizeof odd);
  return widened;
}

// How many elements of a contiguous row one vector load reads: 32 bytes of them.
template <typename T>
inline constexpr int64_t kRowLoad = 32 / static_cast<int64_t>(sizeof(T));

// One vector load of a contiguous row, as accumulator lanes: a reduced dtype's 16 elements as
// two float vectors added, lane l = x[l] + x[l + 8]. bfloat16 adds each even (odd) element to
// its partner 8 places on, which leaves lane l at vector lane row_lane(l): a fixed permutation,
// each lane's additions unchanged.
template <typename T>
KILN_INLINE_INTO_CLONES Lanes<opmath_t<T>> load_row(const T* p) {
  if constexpr (std::is_same_v<T, tensor::BFloat16>) {
    const EvenOdd w = widen_even_odd(p);
    const auto even = w.even + __builtin_shufflevector(w.even, w.even, 4, 5, 6, 7, 0, 1, 2, 3);
    const auto odd = w.odd + __builtin_shufflevector(w.odd, w.odd, 4, 5, 6, 7, 0, 1, 2, 3);
    Lanes<float> lanes;
    lanes.v = __builtin_shufflevector(even, odd, 0, 1, 2, 3, 8, 9, 10, 11);
    return lanes;
  } else if constexpr (std::is_same_v<T, tensor::Half>) {
    Lanes<float> lanes = widen_lanes(p);
    lanes += widen_lanes(p + Lanes<float>::kCount);
    return lanes;
  } else {
    return Lanes<T>::load(p);
  }
}
template <typename T>
constexpr int64_t row_lane(int64_t l) {
  return std::is_same_v<T, tensor::BFloat16> ? (l % 2 == 0 ? l / 2 : 4 + l / 2) : l;
}

// A block of 4 accumulator vectors of neighbouring columns (at p) as ATen reads it, vector k.
// Each column is summed alone, so which lane holds it does not change its sum: bfloat16 puts the
// even and the odd columns of 16 in vectors of their own; column_of_lane says where each went.
template <typename T>
KILN_INLINE_INTO_CLONES Lanes<opmath_t<T>> load_column_block(const T* p, int64_t k) {
  constexpr int64_t kLanes = Lanes<opmath_t<T>>::kCount;
  Lanes<opmath_t<T>> lanes;
  if constexpr (std::is_same_v<T, tensor::BFloat16>) {
    const EvenOdd w = widen_even_odd(p + k / 2 * 2 * kLanes);
    lanes.v = k % 2 == 0 ? w.even : w.odd;
  } else if constexpr (std::is_same_v<T, tensor::Half>) {
    lanes = widen_lanes(p + k * kLanes);
  } else {
    lanes = Lanes<T>::load(p + k * kLanes);
  }
  return lanes;
}
template <typename T>
constexpr int64_t column_of_lane(int64_t k, int64_t l) {
  constexpr int64_t kLanes = Lanes<opmath_t<T>>::kCount;
  return std::is_same_v<T, tensor::BFloat16> ? k / 2 * 2 * kLanes + 2 * l + k % 2 : k * kLanes + l;
}

}  // namespace cascade

// The sum of one output's elements (`row`: its n elements in logical order; `column`: for Outer,
// the output's place among plan.columns) in ATen's order, in the accumulate type.
template <typename T>
KILN_INLINE_INTO_CLONES opmath_t<T> cascade_sum(const CascadeSumPlan& plan, const T* row, int64_t n, int64_t column) {
  using Acc = opmath_t<T>;
  using cascade::Lanes;
  constexpr int64_t kLanes = Lanes<Acc>::kCount;
  constexpr int64_t kRowLoad = cascade::kRowLoad<T>;
  const auto element = [row](int64_t i) { return static_cast<Acc>(row[i]); };
  Acc sum = 0;
  if (plan.kind == CascadeSumPlan::Kind::Inner) {
    if (n >= kRowLoad) {
      const int64_t vectors = n / kRowLoad;
      const Lanes<Acc> lanes = cascade::row_sum<Lanes<Acc>>(vectors, [row](int64_t i) { return cascade::load_row(row + i * kRowLoad); });
      for (int64_t i = vectors * kRowLoad; i < n; ++i) sum += element(i);
      for (int64_t l = 0; l < kLanes; ++l) sum += lanes.v[cascade::row_lane<T>(l)];
    } else {
      sum = cascade::row_sum<Acc>(n, element);
    }
  } else {
    // Columns read in blocks of 4 vectors (at least a vector of columns), else of 4 columns.
    const int64_t block = plan.columns >= kLanes ? 4 * kLanes : 4;
    if (column < plan.columns / block * block)
      sum = cascade::multi_row_sum<Acc, 1>(n, [&](int64_t i, int64_t) { return element(i); })[0];
    else
      sum = cascade::row_sum<Acc>(n, element);
  }
  return Acc(0) + sum;
}

// The output's column (Outer plans): its first element's memory offset, within the columns.
int64_t cascade_sum_column(const CascadeSumPlan& plan, int64_t output_index);

// Where an output's sum lies among outer_cascade_sums' results (n: the reduced elements per output).
int64_t outer_sum_position(const CascadeSumPlan& plan, int64_t output_index, int64_t n);

// Rows [begin, end) of `rows` ([rows][n], each an output's elements in logical order):
// out[i] = their sum in ATen's order for the plan (divided by n for a mean).
void cascade_sum_rows(const CascadeSumPlan& plan, const float* rows, int64_t n, int64_t begin, int64_t end, float* out, bool mean);
void cascade_sum_rows(const CascadeSumPlan& plan, const double* rows, int64_t n, int64_t begin, int64_t end, double* out, bool mean);
void cascade_sum_rows(const CascadeSumPlan& plan, const tensor::BFloat16* rows, int64_t n, int64_t begin, int64_t end,
                      tensor::BFloat16* out, bool mean);
void cascade_sum_rows(const CascadeSumPlan& plan, const tensor::Half* rows, int64_t n, int64_t begin, int64_t end,
                      tensor::Half* out, bool mean);

// The sum of all n elements of dense memory (an Inner plan with one output), as ATen's two-pass
// reduction adds them: at::parallel_for's chunks each summed alone, then added in chunk order
// (so, as PyTorch's, the result depends on the thread count). A reduced dtype's chunk sums are
// rounded to it before they are added, as ATen keeps them in a buffer of the output's dtype.
float cascade_full_sum(const float* data, int64_t n);
double cascade_full_sum(const double* data, int64_t n);
tensor::BFloat16 cascade_full_sum(const tensor::BFloat16* data, int64_t n);
tensor::Half cascade_full_sum(const tensor::Half* data, int64_t n);

// Outer plans read in place: `data` is the tensor's memory, `blocks` blocks of [n reduced]
// [plan.columns] (the reduced dims between the columns and the kept dims above them); the sums
// of block b go to sums[b * columns + c]. Columns ATen reads in blocks are summed a block at a
// time, lane by lane in the order each column gets alone, so no transposed copy is made.
void outer_cascade_sums(const CascadeSumPlan& plan, const float* data, int64_t n, int64_t blocks, float* sums);
void outer_cascade_sums(const CascadeSumPlan& plan, const double* data, int64_t n, int64_t blocks, double* sums);
void outer_cascade_sums(const CascadeSumPlan& plan, const tensor::BFloat16* data, int64_t n, int64_t blocks, tensor::BFloat16* sums);
void outer_cascade_sums(const CascadeSumPlan& plan, const tensor::Half* data, int64_t n, int64_t blocks, tensor::Half* sums);

}  // namespace kiln::ops
