#include "libcompiler/tensor/random_ops.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/distributions.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/elementwise_loop.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/python_number_format.h"
#include "libcompiler/tensor/scalar_cast.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/views.h"

namespace kiln::tensor {

Tensor rand(const Shape& sizes, DType dtype, CpuGenerator& generator) {
  Tensor out = Tensor::empty(sizes, dtype);
  uniform_(out, 0.0, 1.0, generator);
  return out;
}

Tensor randn(const Shape& sizes, DType dtype, CpuGenerator& generator) {
  Tensor out = Tensor::empty(sizes, dtype);
  normal_(out, 0.0, 1.0, generator);
  return out;
}

Tensor randint(int64_t low, int64_t high, const Shape& sizes, DType dtype, CpuGenerator& generator) {
  Tensor out = Tensor::empty(sizes, dtype);
  random_(out, low, high, generator);
  return out;
}

namespace {

// Without replacement: the indices of the `samples` largest weight / Exp(1) ratios of each row
// (the exponential-race form of the Gumbel-max trick), ties by position.
template <typename T>
void sample_without_replacement(const T* weights, int64_t rows, int64_t categories, int64_t samples,
                                int64_t* out, CpuGenerator& generator) {
  const Tensor noise = Tensor::empty({rows, categories}, dtype_of<T>());
  exponential_(noise, 1.0, generator);
  const T* q = noise.data_ptr<T>();
  std::vector<double> ratio(static_cast<size_t>(categories));
  std::vector<int64_t> order(static_cast<size_t>(categories));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < categories; ++c)
      ratio[c] = static_cast<double>(static_cast<T>(weights[r * categories + c] / q[r * categories + c]));
    for (int64_t c = 0; c < categories; ++c) order[c] = c;
    std::partial_sort(order.begin(), order.begin() + samples, order.end(), [&](int64_t a, int64_t b) {
      const bool a_nan = std::isnan(ratio[a]), b_nan = std::isnan(ratio[b]);
      if (a_nan != b_nan) return a_nan;
      if (ratio[a] != ratio[b]) return ratio[a] > ratio[b];
      return a < b;
    });
    for (int64_t s = 0; s < samples; ++s) out[r * samples + s] = order[s];
  }
}

// With replacement: each draw finds the first category whose normalised cumulative weight is not
// below a uniform double; the last bucket is set to exactly 1.
template <typename T>
void sample_with_replacement(const T* weights, int64_t rows, int64_t categories, int64_t samples, int64_t* out,
                             CpuGenerator& generator) {
  std::vector<T> cumulative(static_cast<size_t>(categories));
  std::lock_guard lock(generator.mutex());
  for (int64_t r = 0; r < rows; ++r) {
    T sum = 0;
    for (int64_t c = 0; c < categories; ++c) {
      const T value = weights[r * categories + c];
      if (!(value >= T(0))) throw_runtime_error("invalid multinomial distribution (encountering probability entry < 0)");
      if (!std::isfinite(static_cast<double>(value)))
        throw_runtime_error("invalid multinomial distribution (encountering probability entry = infinity or NaN)");
      sum = static_cast<T>(sum + value);
      cumulative[c] = sum;
    }
    if (!(sum > T(0))) throw_runtime_error("invalid multinomial distribution (sum of probabilities <= 0)");
    for (T& c : cumulative) c = static_cast<T>(c / sum);
    cumulative.back() = T(1);
    for (int64_t s = 0; s < samples; ++s) {
      const double u = uniform_double(generator);
      int64_t left = 0, right = categories;
      while (right - left > 0) {
        const int64_t mid = left + (right - left) / 2;
        if (static_cast<double>(cumulative[mid]) < u) left = mid + 1;
        else right = mid;
      }
      out[r * samples + s] = left;
    }
  }
}

}  // namespace

Tensor multinomial(const Tensor& probabilities, int64_t samples, bool replacement, CpuGenerator& generator) {
  const Tensor weights = contiguous(probabilities);
  const int64_t categories = weights.size(-1), rows = weights.dim() == 1 ? 1 : weights.size(0);
  Shape sizes = weights.sizes();
  sizes.back() = samples;
  Tensor out = Tensor::empty(sizes, DType::Int64);
  int64_t* result = out.data_ptr<int64_t>();
  visit_dtype(weights.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloatLike<T>) {
      const T* w = weights.data_ptr<T>();
      if (replacement && samples > 1) return sample_with_replacement<T>(w, rows, categories, samples, result, generator);
      bool valid = true;
      for (int64_t i = 0; i < weights.numel(); ++i) {
        const double value = static_cast<double>(w[i]);
        valid = valid && value < std::numeric_limits<double>::infinity() && value >= 0.0;
      }
      if (!valid) throw_runtime_error("probability tensor contains either `inf`, `nan` or element < 0");
      for (int64_t r = 0; r < rows; ++r) {
        double sum = 0;
        for (int64_t c = 0; c < categories; ++c) sum += static_cast<double>(w[r * categories + c]);
        if (sum == 0) throw_runtime_error("invalid multinomial distribution (sum of probabilities <= 0)");
      }
      sample_without_replacement<T>(w, rows, categories, samples, result, generator);
    }
  });
  return out;
}

Tensor randperm(int64_t n, DType dtype, CpuGenerator& generator) {
  if (n < 0) throw_runtime_error("n must be non-negative, got" + std::to_string(n));
  std::vector<int64_t> values(n);
  {
    std::lock_guard lock(generator.mutex());
    if (n < static_cast<int64_t>(std::numeric_limits<uint32_t>::max() / 20)) {
      // Swap position i with a uniform pick among positions i..n-1.
      for (int64_t i = 0; i < n; ++i) values[i] = i;
      for (int64_t i = 0; i + 1 < n; ++i) {
        const int64_t z = static_cast<int64_t>(generator.random() % static_cast<uint64_t>(n - i));
        std::swap(values[i], values[z + i]);
      }
    } else {
      // For n near 2^32, 32-bit draws would be visibly non-uniform: the inside-out variant on
      // 64-bit draws.
      for (int64_t i = 0; i < n; ++i) {
        const int64_t z = static_cast<int64_t>(generator.random64() % static_cast<uint64_t>(i + 1));
        values[i] = values[z];
        values[z] = i;
      }
    }
  }
  return tensor_from_values(values, {n}, dtype);
}

Tensor dropout(const Tensor& input, double p, bool train, CpuGenerator& generator) {
  if (p < 0.0 || p > 1.0)
    throw_runtime_error("dropout probability has to be between 0 and 1, but got " + python_float_repr(p));
  if (!train || p == 0.0 || input.numel() == 0) return input;
  Tensor out = Tensor::empty(input.sizes(), input.dtype());
  if (p == 1.0) {
    fill_elements(out, Scalar(0));
    return out;
  }
  Tensor noise = Tensor::empty(input.sizes(), input.dtype());
  bernoulli_(noise, 1.0 - p, generator);
  visit_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kIsFloatLike<T>) {
      throw_runtime_error("dropout: expected a floating point input, got " + torch_name(input.dtype()));
    } else {
      // noise.div_(1 - p) then input * noise: two ops, each computed in the dtype's arithmetic
      // type and rounded to the dtype.
      using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;
      const Acc keep = static_cast<Acc>(1.0 - p);
      ElementwiseLoop loop({out}, {input, noise});
      loop.for_each([&](char* const* data, const int64_t* strides, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
          T x, mask;
          std::memcpy(&x, data[1] + i * strides[1], sizeof(T));
          std::memcpy(&mask, data[2] + i * strides[2], sizeof(T));
          const T scaled = static_cast<T>(static_cast<Acc>(mask) / keep);
          const T product = static_cast<T>(static_cast<Acc>(x) * static_cast<Acc>(scaled));
          std::memcpy(data[0] + i * strides[0], &product, sizeof(T));
        }
      });
    }
  });
  return out;
}

}  // namespace kiln::tensor
