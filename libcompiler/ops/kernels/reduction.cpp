// Reductions over dims: sum, mean, prod, amax/amin, max/min (with indices), argmax, var, std.
// Each works on a ReductionLayout (one contiguous row per output element). Floating sums add in
// PyTorch's order (cascade_sum.h) where it is known (bfloat16 and float16 in float32); other sums
// accumulate in double (int64 for integers).
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/cascade_sum.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/extremum_rows.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/kernels/opmath_arrays.h"
#include "libcompiler/ops/kernels/reduction_layout.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/parallel.h"

namespace kiln::ops {

namespace {

using tensor::DType;

template <typename T>
using accumulate_t = std::conditional_t<tensor::kIsFloatLike<T>, double, int64_t>;

std::vector<bool> dims_of(const Arguments& args, const Tensor& self) {
  if (!args.schema().argument_index("dim")) return std::vector<bool>(self.dim(), true);  // sum(self), max(self)
  if (args[1].is_int()) return reduction_mask({args.int_value(1)}, self.dim());
  return reduction_mask(args[1].is_none() ? std::vector<int64_t>{} : args.int_list(1), self.dim());
}

// Runs a kernel over columns read in place, which writes its results in memory order (block b,
// column c at b * columns + c: outer_cascade_sums, extremum_columns), and puts each output's where
// the output goes.
template <typename T, typename Kernel>
void column_results_into(const CascadeSumPlan& plan, int64_t n, T* out, int64_t outputs, const Kernel& kernel) {
  std::vector<T> results(static_cast<size_t>(outputs));
  kernel(results.data());
  for (int64_t i = 0; i < outputs; ++i) out[i] = results[static_cast<size_t>(outer_sum_position(plan, i, n))];
}

// A sum down columns (sum(0) of a row-major matrix) read where it lies: blocks of columns at a
// time, in ATen's order (cascade_sum.h), then each output taken from its block and column.
void outer_sum(const CascadeSumPlan& plan, const Tensor& self, const Tensor& out, bool mean) {
  const int64_t n = self.numel() / std::max<int64_t>(out.numel(), 1);
  const int64_t blocks = out.numel() / plan.columns;
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (tensor::kIsFloatLike<T>) {
      T* o = out.data_ptr<T>();
      column_results_into(plan, n, o, out.numel(), [&](T* sums) { outer_cascade_sums(plan, self.data_ptr<T>(), n, blocks, sums); });
      if (mean)
        for (int64_t i = 0; i < out.numel(); ++i) o[i] = static_cast<T>(static_cast<opmath_t<T>>(o[i]) / static_cast<opmath_t<T>>(n));
    }
  });
}

// out[i] = finish(sum or product of row i), in out's dtype.
std::vector<Tensor> sum_like(const Arguments& args, const std::vector<TensorMeta>& meta, bool product, bool mean) {
  const Tensor out = allocate_outputs(meta)[0];
  const std::vector<bool> reduced = dims_of(args, args.tensor(0));
  const DType in_dtype = args.tensor(0).dtype();
  if (mean && in_dtype == out.dtype() && tensor::is_reduced_floating_point(in_dtype)) {
    // As ATen's mean of these on the CPU: a float32 sum of a float32 copy, divided, rounded once.
    std::vector<int64_t> dims;
    for (size_t d = 0; d < reduced.size(); ++d)
      if (reduced[d]) dims.push_back(static_cast<int64_t>(d));
    // (_to_copy keeps a dense input's layout: a transposed one converts in memory order. The
    // table ops here run inside this op, which records its own autograd.)
    NoGradGuard no_grad;
    const Tensor wide = ops::to_copy(args.tensor(0), DType::Float32);
    const bool keepdim = out.dim() == wide.dim() && !dims.empty();
    tensor::copy_elements(out, ops::mean(wide, dims, keepdim));
    return {out};
  }
  // Floating sums add in PyTorch's order where its layout of the sum is known.
  const Tensor self = product ? args.tensor(0) : reduced_dims_in_memory_order(args.tensor(0), reduced);
  const std::optional<CascadeSumPlan> plan = product ? std::nullopt : cascade_sum_plan(self, reduced);
  if (plan && plan->kind == CascadeSumPlan::Kind::Outer && self.dtype() == out.dtype() && self.numel() > 0 &&
      tensor::is_floating_point(out.dtype())) {
    outer_sum(*plan, self, out, mean);
    return {out};
  }
  const ReductionLayout layout = reduction_layout(tensor::to_dtype(self, out.dtype()), reduced);
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = accumulate_t<T>;
    const T* in = layout.data.data_ptr<T>();
    T* o = out.data_ptr<T>();
    if constexpr (tensor::kIsFloatLike<T>) {
      if (plan && layout.outer == 1 && layout.inner > 0) {
        const T sum = cascade_full_sum(in, layout.inner);
        o[0] = mean ? static_cast<T>(static_cast<opmath_t<T>>(sum) / static_cast<opmath_t<T>>(layout.inner)) : sum;
        return;
      }
      if (plan) {
        for_each_row_range(layout, [&](int64_t begin, int64_t end) { cascade_sum_rows(*plan, in, layout.inner, begin, end, o, mean); });
        return;
      }
    }
    for_each_row(layout, [&](int64_t i) {
      const T* row = in + i * layout.inner;
      Acc acc = product ? Acc(1) : Acc(0);
      if (product) {
        for (int64_t k = 0; k < layout.inner; ++k) acc *= static_cast<Acc>(row[k]);
      } else {
        for (int64_t k = 0; k < layout.inner; ++k) acc += static_cast<Acc>(row[k]);
      }
      if (mean) {
        if constexpr (std::is_floating_point_v<Acc>) acc /= static_cast<Acc>(layout.inner);
      }
      o[i] = static_cast<T>(acc);
    });
  });
  return {out};
}

// Running extremum that lets NaN win, as PyTorch's max/min do.
template <typename C>
bool replaces(C candidate, C best, bool is_max) {
  if constexpr (std::is_floating_point_v<C>) {
    if (best != best) return false;
    if (candidate != candidate) return true;
  }
  return is_max ? candidate > best : candidate < best;
}

// values[i] (and indices[i] when defined) = extremum of row i and its first position.
void extremum(const ReductionLayout& layout, const Tensor& values, const Tensor& indices, bool is_max) {
  tensor::visit_dtype(layout.data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const T* in = layout.data.data_ptr<T>();
    T* v = values.defined() ? values.data_ptr<T>() : nullptr;
    int64_t* idx = indices.defined() ? indices.data_ptr<int64_t>() : nullptr;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || tensor::kIsReducedFloat<T>) {
      // The extremum on whole vectors, then the first element that is it (the first NaN for a
      // NaN) in a second pass over the row, in cache: the scalar search's element and position.
      // Half and bfloat16 rows widened to float first (exactly: the same extremum and position).
      if (layout.inner > 0) {
        for_each_row_range(layout, [&](int64_t begin, int64_t end) {
          std::vector<float> widened(tensor::kIsReducedFloat<T> ? static_cast<size_t>(layout.inner) : 0);
          using R = std::conditional_t<tensor::kIsReducedFloat<T>, float, T>;
          for (int64_t i = begin; i < end; ++i) {
            const R* row;
            if constexpr (tensor::kIsReducedFloat<T>) {
              widen_to_float(in + i * layout.inner, widened.data(), layout.inner);
              row = widened.data();
            } else {
              row = in + i * layout.inner;
            }
            R found;
            extremum_rows(row, layout.inner, 0, 1, &found, is_max);
            int64_t k = 0;
            if (found != found) {
              while (row[k] == row[k]) ++k;
            } else {
              while (row[k] != found) ++k;
            }
            if (v) v[i] = in[i * layout.inner + k];
            if (idx) idx[i] = k;
          }
        });
        return;
      }
    }
    for_each_row(layout, [&](int64_t i) {
      const T* row = in + i * layout.inner;
      C best = static_cast<C>(row[0]);
      int64_t best_index = 0;
      for (int64_t k = 1; k < layout.inner; ++k) {
        const C x = static_cast<C>(row[k]);
        if (replaces(x, best, is_max)) {
          best = x;
          best_index = k;
        }
      }
      if (v) v[i] = static_cast<T>(best);
      if (idx) idx[i] = best_index;
    });
  });
}

// out = amax/amin of float32 or float64 `self` (out of its dtype) over `reduced`, on whole vectors.
void vector_extremum(const Tensor& self, const std::vector<bool>& reduced, const Tensor& out, bool is_max) {
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      // Down the columns in place where the reduced dims lie above kept ones in memory, as sums do.
      const Tensor ordered = reduced_dims_in_memory_order(self, reduced);
      const std::optional<CascadeSumPlan> plan = cascade_sum_plan(ordered, reduced);
      T* o = out.data_ptr<T>();
      if (plan && plan->kind == CascadeSumPlan::Kind::Outer) {
        const int64_t n = self.numel() / out.numel();
        column_results_into(*plan, n, o, out.numel(), [&](T* found) {
          extremum_columns(ordered.data_ptr<T>(), n, plan->columns, out.numel() / plan->columns, found, is_max);
        });
        return;
      }
      const ReductionLayout layout = reduction_layout(self, reduced);
      const T* in = layout.data.data_ptr<T>();
      for_each_row_range(layout, [&](int64_t begin, int64_t end) { extremum_rows(in, layout.inner, begin, end, o, is_max); });
    }
  });
}

std::vector<Tensor> extremum_values(const Arguments& args, const std::vector<TensorMeta>& meta, bool is_max) {
  const Tensor& self = args.tensor(0);
  const Tensor out = allocate_outputs(meta)[0];
  if (out.numel() == 0) return {out};
  const std::vector<bool> reduced = dims_of(args, self);
  if (self.dtype() == out.dtype() && self.numel() > 0) {
    if (out.dtype() == DType::Float32 || out.dtype() == DType::Float64) {
      vector_extremum(self, reduced, out, is_max);
      return {out};
    }
    if (tensor::is_reduced_floating_point(out.dtype())) {
      // Half and bfloat16 widen to float32 exactly, so the float32 extremum is theirs. Contiguous
      // rows (the trailing dims reduced): a row widened at a time, in cache.
      const int64_t ndim = self.dim();
      int64_t kept = 0;
      while (kept < ndim && !reduced[kept]) ++kept;
      const bool trailing = std::all_of(reduced.begin() + kept, reduced.end(), [](bool r) { return r; });
      if (self.is_contiguous() && trailing) {
        const int64_t rows = out.numel(), n = self.numel() / rows;
        tensor::visit_dtype(out.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          if constexpr (tensor::kIsReducedFloat<T>) {
            const T* in = self.data_ptr<T>();
            T* o = out.data_ptr<T>();
            tensor::parallel_for(0, rows, std::max<int64_t>(1, tensor::kGrainSize / std::max<int64_t>(n, 1)), [&](int64_t begin, int64_t end) {
              std::vector<float> row(static_cast<size_t>(n));
              for (int64_t r = begin; r < end; ++r) {
                widen_to_float(in + r * n, row.data(), n);
                float found;
                extremum_rows(row.data(), n, 0, 1, &found, is_max);
                o[r] = static_cast<T>(found);
              }
            });
          }
        });
        return {out};
      }
      // Otherwise on a float32 copy (_to_copy keeps a dense input's layout, so the column path
      // still applies).
      NoGradGuard no_grad;
      const Tensor wide_out = Tensor::empty(out.sizes(), DType::Float32);
      vector_extremum(ops::to_copy(self, DType::Float32), reduced, wide_out, is_max);
      tensor::copy_elements(out, wide_out);
      return {out};
    }
  }
  extremum(reduction_layout(self, reduced), out, Tensor(), is_max);
  return {out};
}

std::vector<Tensor> extremum_with_indices(const Arguments& args, bool is_max) {
  const Tensor& self = args.tensor(0);
  std::vector<Tensor> outputs = allocate_outputs(meta_max_min_dim(args));
  if (outputs[0].numel() == 0) return outputs;
  extremum(reduction_layout(self, dims_of(args, self)), outputs[0], outputs[1], is_max);
  return outputs;
}

// Variance of every row with Bessel-style correction, computed in double in two passes; the
// row means too when with_mean (var_mean).
std::vector<Tensor> variance(const Arguments& args, bool take_sqrt, bool with_mean) {
  const Tensor& self = args.tensor(0);
  const std::vector<Tensor> outputs = allocate_outputs(with_mean ? meta_var_mean(args) : meta_var_std(args));
  const Tensor& out = outputs[0];
  const double correction = args[2].is_none() ? 1.0 : args[2].to_double();
  const ReductionLayout layout = reduction_layout(self, dims_of(args, self));
  tensor::visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = layout.data.data_ptr<T>();
    T* o = out.data_ptr<T>();
    T* mean_out = with_mean ? outputs[1].data_ptr<T>() : nullptr;
    for_each_row(layout, [&](int64_t i) {
      const T* row = in + i * layout.inner;
      double mean = 0;
      for (int64_t k = 0; k < layout.inner; ++k) mean += static_cast<double>(row[k]);
      mean /= static_cast<double>(layout.inner);
      double squares = 0;
      for (int64_t k = 0; k < layout.inner; ++k) {
        const double d = static_cast<double>(row[k]) - mean;
        squares += d * d;
      }
      const double divisor = std::max(0.0, static_cast<double>(layout.inner) - correction);
      const double result = squares / divisor;
      o[i] = static_cast<T>(take_sqrt ? std::sqrt(result) : result);
      if (mean_out) mean_out[i] = static_cast<T>(mean);
    });
  });
  return outputs;
}

// all / any over every element: whether every / some element is nonzero (NaN is nonzero).
std::vector<Tensor> truth_of_all(const Arguments& args, bool every) {
  const Tensor out = allocate_outputs(meta_all_any(args))[0];
  const Tensor in = tensor::clone_contiguous(args.tensor(0));
  bool result = every;
  tensor::visit_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* values = in.data_ptr<T>();
    for (int64_t i = 0; i < in.numel(); ++i)
      if ((static_cast<double>(values[i]) != 0.0) != every) {
        result = !every;
        break;
      }
  });
  out.data_ptr<bool>()[0] = result;
  return {out};
}

}  // namespace

std::vector<Tensor> kernel_all(const Arguments& args) { return truth_of_all(args, true); }
std::vector<Tensor> kernel_any(const Arguments& args) { return truth_of_all(args, false); }
std::vector<Tensor> kernel_sum(const Arguments& args) { return sum_like(args, meta_sum(args), false, false); }
std::vector<Tensor> kernel_mean(const Arguments& args) { return sum_like(args, meta_mean(args), false, true); }
std::vector<Tensor> kernel_prod(const Arguments& args) { return sum_like(args, meta_prod(args), true, false); }
std::vector<Tensor> kernel_amax(const Arguments& args) { return extremum_values(args, meta_amax_amin(args), true); }
std::vector<Tensor> kernel_amin(const Arguments& args) { return extremum_values(args, meta_amax_amin(args), false); }
std::vector<Tensor> kernel_max(const Arguments& args) { return extremum_values(args, meta_full_max_min(args), true); }
std::vector<Tensor> kernel_min(const Arguments& args) { return extremum_values(args, meta_full_max_min(args), false); }
std::vector<Tensor> kernel_max_dim(const Arguments& args) { return extremum_with_indices(args, true); }
std::vector<Tensor> kernel_min_dim(const Arguments& args) { return extremum_with_indices(args, false); }

std::vector<Tensor> kernel_argmax(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor out = allocate_outputs(meta_argmax(args))[0];
  const auto dim = args.optional_int(1);
  const auto mask = reduction_mask(dim ? std::vector<int64_t>{*dim} : std::vector<int64_t>{}, self.dim());
  extremum(reduction_layout(self, mask), Tensor(), out, true);
  return {out};
}

std::vector<Tensor> kernel_var(const Arguments& args) { return variance(args, false, false); }
std::vector<Tensor> kernel_std(const Arguments& args) { return variance(args, true, false); }
std::vector<Tensor> kernel_var_mean(const Arguments& args) { return variance(args, false, true); }

std::vector<Tensor> kernel_variance_unbiased(const Arguments& args) {
  const OpInfo& correction_overload = *find_op(args.schema().name + ".correction");
  return call(correction_overload,
              Arguments(correction_overload.schema, {args[0], args[1], Scalar(args.bool_value(2) ? 1 : 0), args[3]}));
}

}  // namespace kiln::ops
