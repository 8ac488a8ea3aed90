// softmax and log_softmax along one dim, their backward kernels, and the softmax.int /
// log_softmax.int composites. Rows along `dim` are made contiguous (reduction_layout), computed
// in the dtype's opmath type with the row maximum subtracted first, and copied back to the
// result's layout.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/cascade_sum.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/kernels/opmath_arrays.h"
#include "libcompiler/ops/kernels/reduction_layout.h"
#include "libcompiler/ops/kernels/sleef_vectors.h"
#include "libcompiler/ops/kernels/vector_clones.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

namespace {

std::vector<bool> only(int64_t dim, int64_t ndim) { return reduction_mask({dim}, ndim); }

// The order reduction_layout puts dims in (kept dims, then `dim`), and its inverse.
std::vector<int64_t> inverse_of_moving_last(int64_t dim, int64_t ndim) {
  std::vector<int64_t> order;
  for (int64_t d = 0; d < ndim; ++d)
    if (d != dim) order.push_back(d);
  order.push_back(dim);
  std::vector<int64_t> inverse(ndim);
  for (int64_t i = 0; i < ndim; ++i) inverse[order[i]] = i;
  return inverse;
}

// Copies rows (laid out with `dim` last) back into `out`'s shape.
void scatter_rows(const Tensor& out, const Tensor& rows, int64_t dim) {
  if (out.dim() == 0) {
    tensor::copy_elements(out, tensor::view(rows, {}));
    return;
  }
  Shape permuted_sizes;
  for (int64_t d = 0; d < out.dim(); ++d)
    if (d != dim) permuted_sizes.push_back(out.sizes()[d]);
  permuted_sizes.push_back(out.sizes()[dim]);
  const Tensor shaped = tensor::view(rows, permuted_sizes);
  tensor::copy_elements(out, tensor::permute(shaped, inverse_of_moving_last(dim, out.dim())));
}

// exp on a vector as ATen's Vectorized::exp: SLEEF's where kBytes names a vector target (the
// caller's), libm's lane by lane for kBytes 0 (ATen's DEFAULT build, a CPU without AVX2).
template <int kBytes, typename V>
KILN_INLINE_INTO_CLONES V exp_lanes(V v) {
  if constexpr (kBytes > 0) {
    return sleef::exp(v);
  } else {
    for (size_t l = 0; l < sizeof(V) / sizeof(v[0]); ++l) v[l] = std::exp(v[l]);
    return v;
  }
}

// e = exp(x - max) on [0, n) as ATen's vec::map computes it (whole vectors of V, then the
// partial last one, zero-filled), stored in y unless y is null (log_softmax needs only the sum),
// and the sum of e in the order of ATen's vec::reduce_all on those vectors: the first vector
// (or the n < lanes elements) plus each further whole vector lane by lane, the partial last
// vector into its first lanes; then the lanes combined as vec_reduce_all does: a tree of halves
// for float (its shuffles), one after another for double (and for fewer than lanes elements).
template <int kBytes, typename V, typename T>
KILN_INLINE_INTO_CLONES T exp_of_difference_and_sum(const T* x, T max_value, T* y, int64_t n) {
  constexpr int64_t kLanes = sizeof(V) / sizeof(T);
  V acc{};  // 0 + e is e: the first vector's lanes exactly
  int64_t k = 0;
  // Two vectors a step where there are (both exps first: the second overlaps the first's sum),
  // added to the lanes in order.
  for (; k + 2 * kLanes <= n; k += 2 * kLanes) {
    const V e0 = exp_lanes<kBytes>(sleef::load<V>(x + k) - max_value);
    const V e1 = exp_lanes<kBytes>(sleef::load<V>(x + k + kLanes) - max_value);
    if (y) {
      sleef::store(y + k, e0);
      sleef::store(y + k + kLanes, e1);
    }
    acc += e0;
    acc += e1;
  }
  for (; k + kLanes <= n; k += kLanes) {
    const V e = exp_lanes<kBytes>(sleef::load<V>(x + k) - max_value);
    if (y) sleef::store(y + k, e);
    acc += e;
  }
  if (k < n) {
    const V e = exp_lanes<kBytes>(sleef::load_partial<V>(x + k, n - k) - max_value);
    if (y) sleef::store_partial(y + k, e, n - k);
    for (int64_t l = 0; k + l < n; ++l) acc[l] += e[l];
  }
  if constexpr (std::is_same_v<T, float>) {
    if (n >= kLanes) {
      for (int64_t half = kLanes / 2; half >= 1; half /= 2)
        for (int64_t l = 0; l < half; ++l) acc[l] += acc[l + half];
      return acc[0];
    }
  }
  T total = acc[0];
  for (int64_t l = 1; l < std::min(n, kLanes); ++l) total += acc[l];
  return total;
}

// Rows [begin, end) of float or double softmax on vectors of kBytes, as ATen's lastdim kernels:
// the maximum, exp(x - max) and its sum in ATen's order, then a multiply by 1 / sum (log: x -
// max - log(sum), where the sum and its log pass through `store`: ATen keeps them in the input
// dtype, so half and bfloat16 round them). kBytes 0: a CPU without AVX2 (32-byte vectors, as
// ATen's DEFAULT build has).
template <int kBytes, typename T, typename Store>
KILN_INLINE_INTO_CLONES void vector_softmax_rows(const T* in, T* out, int64_t n, int64_t begin, int64_t end, bool log, Store store) {
  using V = sleef::Vector<T, (kBytes > 0 ? kBytes : 32)>;
  constexpr int64_t kLanes = sizeof(V) / sizeof(T);
  for (int64_t r = begin; r < end; ++r) {
    const T* x = in + r * n;
    T* y = out + r * n;
    // The maximum is exact in any order; a NaN anywhere in the row makes the sum, and so every
    // result, NaN whichever maximum it leaves. Four chains of vectors: one waits on the
    // comparison's latency.
    T max_value = -std::numeric_limits<T>::infinity();
    int64_t k = 0;
    if (n >= 4 * kLanes) {
      V lanes[4];
      for (int64_t c = 0; c < 4; ++c) lanes[c] = sleef::load<V>(x + c * kLanes);
      for (k = 4 * kLanes; k + 4 * kLanes <= n; k += 4 * kLanes)
        for (int64_t c = 0; c < 4; ++c) {
          const V v = sleef::load<V>(x + k + c * kLanes);
          lanes[c] = v > lanes[c] ? v : lanes[c];
        }
      for (int64_t c = 1; c < 4; ++c) lanes[0] = lanes[c] > lanes[0] ? lanes[c] : lanes[0];
      for (int64_t l = 0; l < kLanes; ++l) max_value = std::max(max_value, lanes[0][l]);
    }
    for (; k < n; ++k) max_value = std::max(max_value, x[k]);
    const T total = exp_of_difference_and_sum<kBytes, V>(x, max_value, log ? nullptr : y, n);
    if (log) {
      const T log_total = store(std::log(store(total)));
      for (k = 0; k < n; ++k) y[k] = x[k] - max_value - log_total;
    } else {
      const T scale = T(1) / total;
      for (k = 0; k < n; ++k) y[k] *= scale;
    }
  }
}

// A float as the dtype T holds it.
template <typename T>
float stored_as(float value) {
  return static_cast<float>(T(value));
}

using FloatStore = float (*)(float);

double unrounded(double value) { return value; }

// The rows on AVX-512 where the CPU has it (ATen's softmax runs there: perf shows
// Sleef_expd8_u10avx512f), else AVX2 with FMA.
template <typename T, typename Store>
KILN_AVX512_TARGET void softmax_rows_avx512(const T* in, T* out, int64_t n, int64_t begin, int64_t end, bool log, Store store) {
  vector_softmax_rows<64>(in, out, n, begin, end, log, store);
}

template <typename T, typename Store>
KILN_AVX2_FMA_TARGET void softmax_rows_avx2(const T* in, T* out, int64_t n, int64_t begin, int64_t end, bool log, Store store) {
  vector_softmax_rows<32>(in, out, n, begin, end, log, store);
}

template <typename T, typename Store>
void softmax_rows(const T* in, T* out, int64_t n, int64_t begin, int64_t end, bool log, Store store) {
  if (cpu_has_avx512()) return softmax_rows_avx512(in, out, n, begin, end, log, store);
  if (cpu_has_avx2_fma()) return softmax_rows_avx2(in, out, n, begin, end, log, store);
  vector_softmax_rows<0>(in, out, n, begin, end, log, store);
}

std::vector<Tensor> softmax_forward(const Arguments& args, bool log) {
  const Tensor out = allocate_outputs(meta_softmax(args))[0];
  const Tensor& self = args.tensor(0);
  const int64_t dim = tensor::wrap_dim(args.int_value(1), self.dim());
  const ReductionLayout layout = reduction_layout(tensor::to_dtype(self, out.dtype()), only(dim, self.dim()));
  // Rows along the last dim of a contiguous result are written in place.
  const bool in_place = dim == self.dim() - 1 && out.is_contiguous();
  const Tensor rows = in_place ? out : Tensor::empty({layout.outer * layout.inner}, out.dtype());
  const int64_t n = layout.inner;
  visit_floating_dtype(out.dtype(), "softmax_lastdim_kernel_impl", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = layout.data.data_ptr<T>();
    T* o = rows.data_ptr<T>();
    if constexpr (tensor::kIsReducedFloat<T>) {
      // As ATen's lastdim kernels for reduced floats: each row widened to float, the float
      // kernel, one rounding at the end.
      for_each_row_range(layout, [&](int64_t begin, int64_t end) {
        std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
        for (int64_t r = begin; r < end; ++r) {
          widen_to_float(in + r * n, x.data(), n);
          softmax_rows(x.data(), y.data(), n, 0, 1, log, stored_as<T>);
          round_from_float(y.data(), o + r * n, n);
        }
      });
    } else {
      for_each_row_range(layout, [&](int64_t begin, int64_t end) {
        if constexpr (std::is_same_v<T, float>) softmax_rows(in, o, n, begin, end, log, stored_as<float>);
        else softmax_rows(in, o, n, begin, end, log, unrounded);
      });
    }
  });
  if (!in_place) scatter_rows(out, rows, dim);
  return {out};
}

std::vector<Tensor> softmax_backward(const Arguments& args, bool log) {
  const Tensor out = allocate_outputs(meta_softmax_backward(args))[0];
  const Tensor& output = args.tensor(1);
  const int64_t dim = tensor::wrap_dim(args.int_value(2), output.dim());
  const auto mask = only(dim, output.dim());
  const ReductionLayout grad = reduction_layout(tensor::to_dtype(args.tensor(0), output.dtype()), mask);
  const ReductionLayout y = reduction_layout(output, mask);
  const Tensor rows = Tensor::empty({grad.outer * grad.inner}, output.dtype());
  tensor::visit_dtype(output.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    if constexpr (std::is_floating_point_v<C>) {
      const T* g = grad.data.data_ptr<T>();
      const T* yv = y.data.data_ptr<T>();
      T* o = rows.data_ptr<T>();
      for_each_row(grad, [&](int64_t i) {
        const T* gr = g + i * grad.inner;
        const T* yr = yv + i * grad.inner;
        T* r = o + i * grad.inner;
        C total = 0;
        for (int64_t k = 0; k < grad.inner; ++k)
          total += log ? static_cast<C>(gr[k]) : static_cast<C>(gr[k]) * static_cast<C>(yr[k]);
        for (int64_t k = 0; k < grad.inner; ++k)
          r[k] = static_cast<T>(log ? static_cast<C>(gr[k]) - std::exp(static_cast<C>(yr[k])) * total
                                    : static_cast<C>(yr[k]) * (static_cast<C>(gr[k]) - total));
      });
    }
  });
  const Tensor result = out.dtype() == output.dtype() ? out : Tensor::empty(out.sizes(), output.dtype());
  scatter_rows(result, rows, dim);
  if (!result.is_same(out)) tensor::copy_elements(out, result);
  return {out};
}

Tensor converted_input(const Arguments& args) {
  const auto dtype = args.optional_dtype(2);
  return dtype ? ops::to_dtype(args.tensor(0), *dtype) : args.tensor(0);
}

}  // namespace

std::vector<Tensor> kernel_softmax(const Arguments& args) { return softmax_forward(args, false); }
std::vector<Tensor> kernel_log_softmax(const Arguments& args) { return softmax_forward(args, true); }
std::vector<Tensor> kernel_softmax_backward_data(const Arguments& args) { return softmax_backward(args, false); }
std::vector<Tensor> kernel_log_softmax_backward_data(const Arguments& args) { return softmax_backward(args, true); }

std::vector<Tensor> kernel_softmax_composite(const Arguments& args) {
  return {_softmax(converted_input(args), args.int_value(1), false)};
}

std::vector<Tensor> kernel_log_softmax_composite(const Arguments& args) {
  return {_log_softmax(converted_input(args), args.int_value(1), false)};
}

}  // namespace kiln::ops
