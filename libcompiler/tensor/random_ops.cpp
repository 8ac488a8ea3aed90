#include "libcompiler/tensor/random_ops.h"

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
