#include "libcompiler/ops/kernels/extremum_rows.h"

#include <algorithm>
#include <limits>

#include "libcompiler/ops/kernels/cascade_sum.h"
#include "libcompiler/tensor/parallel.h"
#include "libcompiler/ops/kernels/vector_clones.h"

namespace kiln::ops {

namespace {

template <typename T>
KILN_INLINE_INTO_CLONES T row_extremum(const T* row, int64_t n, bool is_max) {
  using Lanes = cascade::Lanes<T>;
  constexpr int64_t kLanes = Lanes::kCount;
  T best = row[0];
  bool nan = best != best;
  int64_t i = 1;
  if (n >= 2 * kLanes) {
    // Lanes compared with selects (a max instruction would not keep NaN), NaNs noted aside; four
    // vectors of running extrema at a time (one would wait on its own compare), merged in order.
    constexpr int64_t kChains = 4;
    using Vector = typename Lanes::Vector;
    Vector chains[kChains];
    for (int64_t k = 0; k < kChains; ++k) chains[k] = Lanes::load(row).v;
    auto nan_lanes = chains[0] != chains[0];
    for (i = kLanes; i + kChains * kLanes <= n; i += kChains * kLanes)
      for (int64_t k = 0; k < kChains; ++k) {
        const Vector x = Lanes::load(row + i + k * kLanes).v;
        chains[k] = (is_max ? x > chains[k] : x < chains[k]) ? x : chains[k];
        nan_lanes |= x != x;
      }
    for (; i + kLanes <= n; i += kLanes) {
      const Vector x = Lanes::load(row + i).v;
      chains[0] = (is_max ? x > chains[0] : x < chains[0]) ? x : chains[0];
      nan_lanes |= x != x;
    }
    Vector best_lanes = chains[0];
    for (int64_t k = 1; k < kChains; ++k) best_lanes = (is_max ? chains[k] > best_lanes : chains[k] < best_lanes) ? chains[k] : best_lanes;
    best = best_lanes[0];
    for (int64_t l = 0; l < kLanes; ++l) {
      nan |= nan_lanes[l] != 0;
      if (is_max ? best_lanes[l] > best : best_lanes[l] < best) best = best_lanes[l];
    }
  }
  for (; i < n; ++i) {
    const T x = row[i];
    nan |= x != x;
    if (is_max ? x > best : x < best) best = x;
  }
  return nan ? std::numeric_limits<T>::quiet_NaN() : best;
}

template <typename T>
KILN_INLINE_INTO_CLONES void rows_extremum(const T* rows, int64_t n, int64_t begin, int64_t end, T* out, bool is_max) {
  for (int64_t r = begin; r < end; ++r) out[r] = row_extremum(rows + r * n, n, is_max);
}

// Vectors of columns [c0, c0 + K * lanes) of one block down its n rows: K vectors at a time so
// that each row's read is whole cache lines (one vector of a row 8 KB from the next left half of
// every line it loaded to a later pass).
template <int K, typename T>
KILN_INLINE_INTO_CLONES void column_vectors(const T* base, int64_t n, int64_t columns, int64_t c0, T* o, bool is_max) {
  using Lanes = cascade::Lanes<T>;
  constexpr int64_t kLanes = Lanes::kCount;
  typename Lanes::Vector best[K];
  decltype(best[0] != best[0]) nan[K];
  for (int k = 0; k < K; ++k) {
    best[k] = Lanes::load(base + c0 + k * kLanes).v;
    nan[k] = best[k] != best[k];
  }
  for (int64_t i = 1; i < n; ++i)
    for (int k = 0; k < K; ++k) {
      const typename Lanes::Vector x = Lanes::load(base + i * columns + c0 + k * kLanes).v;
      best[k] = (is_max ? x > best[k] : x < best[k]) ? x : best[k];
      nan[k] |= x != x;
    }
  for (int k = 0; k < K; ++k)
    for (int64_t l = 0; l < kLanes; ++l) o[c0 + k * kLanes + l] = nan[k][l] ? std::numeric_limits<T>::quiet_NaN() : best[k][l];
}

constexpr int64_t kColumnGroup = 4;

// The chunks of a block's columns: groups of kColumnGroup vectors, the vectors past the last
// group one by one, then the columns past the last vector one by one.
template <typename T>
constexpr int64_t column_chunks(int64_t columns) {
  constexpr int64_t kLanes = cascade::Lanes<T>::kCount;
  const int64_t vectors = columns / kLanes;
  return vectors / kColumnGroup + vectors % kColumnGroup + columns % kLanes;
}

// Tasks [begin, end) of extremum_columns: task t is block t / chunks, chunk t % chunks.
template <typename T>
KILN_INLINE_INTO_CLONES void column_tasks(const T* data, int64_t n, int64_t columns, int64_t begin, int64_t end, T* out, bool is_max) {
  constexpr int64_t kLanes = cascade::Lanes<T>::kCount;
  const int64_t vectors = columns / kLanes;
  const int64_t groups = vectors / kColumnGroup;
  const int64_t chunks = column_chunks<T>(columns);
  for (int64_t task = begin; task < end; ++task) {
    const int64_t b = task / chunks, chunk = task % chunks;
    const T* base = data + b * n * columns;
    T* o = out + b * columns;
    if (chunk < groups) {
      column_vectors<kColumnGroup>(base, n, columns, chunk * kColumnGroup * kLanes, o, is_max);
    } else if (chunk < groups + vectors % kColumnGroup) {
      column_vectors<1>(base, n, columns, (groups * kColumnGroup + chunk - groups) * kLanes, o, is_max);
    } else {
      const int64_t c = vectors * kLanes + (chunk - groups - vectors % kColumnGroup);
      T best = base[c];
      bool nan = best != best;
      for (int64_t i = 1; i < n; ++i) {
        const T x = base[i * columns + c];
        nan |= x != x;
        if (is_max ? x > best : x < best) best = x;
      }
      o[c] = nan ? std::numeric_limits<T>::quiet_NaN() : best;
    }
  }
}

KILN_VECTOR_CLONES void column_task_range(const float* data, int64_t n, int64_t columns, int64_t begin, int64_t end, float* out, bool is_max) {
  column_tasks(data, n, columns, begin, end, out, is_max);
}
KILN_VECTOR_CLONES void column_task_range(const double* data, int64_t n, int64_t columns, int64_t begin, int64_t end, double* out,
                                          bool is_max) {
  column_tasks(data, n, columns, begin, end, out, is_max);
}

template <typename T>
void columns_extremum(const T* data, int64_t n, int64_t columns, int64_t blocks, T* out, bool is_max) {
  constexpr int64_t kLanes = cascade::Lanes<T>::kCount;
  const int64_t chunks = column_chunks<T>(columns);
  tensor::parallel_for(0, blocks * chunks, std::max<int64_t>(1, tensor::kGrainSize / std::max<int64_t>(n * kLanes, 1)),
               [&](int64_t begin, int64_t end) { column_task_range(data, n, columns, begin, end, out, is_max); });
}

}  // namespace

void extremum_columns(const float* data, int64_t n, int64_t columns, int64_t blocks, float* out, bool is_max) {
  columns_extremum(data, n, columns, blocks, out, is_max);
}
void extremum_columns(const double* data, int64_t n, int64_t columns, int64_t blocks, double* out, bool is_max) {
  columns_extremum(data, n, columns, blocks, out, is_max);
}

KILN_VECTOR_CLONES void extremum_rows(const float* rows, int64_t n, int64_t begin, int64_t end, float* out, bool is_max) {
  rows_extremum(rows, n, begin, end, out, is_max);
}
KILN_VECTOR_CLONES void extremum_rows(const double* rows, int64_t n, int64_t begin, int64_t end, double* out, bool is_max) {
  rows_extremum(rows, n, begin, end, out, is_max);
}

}  // namespace kiln::ops
