// cumsum and cumprod along a dimension, accumulated as ATen's CPU kernel accumulates (in double
// for float32 and float64, float for half and bfloat16, int64 for integers, each partial result
// cast to the output dtype), and flip, a copy with the given dimensions reversed.
#include <cstring>

#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/shape.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

namespace {

// at::acc_type<T, /*is_cuda=*/false>: double for float32 and float64, float for half and
// bfloat16, int64 for integers and bool.
template <typename T>
using CumulativeAcc = std::conditional_t<tensor::kIsReducedFloat<T>, float, std::conditional_t<tensor::kIsFloatLike<T>, double, int64_t>>;

template <bool Product>
std::vector<Tensor> cumulative(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_cumulative(args))[0];
  const Tensor self = tensor::contiguous(tensor::to_dtype(args.tensor(0), out.dtype()));
  const int64_t dim = self.dim() == 0 ? 0 : tensor::wrap_dim(args.int_value(1), self.dim());
  int64_t outer = 1, extent = 1, inner = 1;
  for (int64_t d = 0; d < self.dim(); ++d) (d < dim ? outer : d == dim ? extent : inner) *= self.size(d);
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = CumulativeAcc<T>;
    const T* in = self.data_ptr<T>();
    T* o = out.data_ptr<T>();
    int64_t first = 0;
    if (inner == 1) {
      // Rows along the last dim, four at a time: each row's chain of additions waits on the
      // adder's latency, four chains fill it.
      constexpr int64_t kRows = 4;
      for (; first + kRows <= outer; first += kRows) {
        Acc acc[kRows];
        for (int64_t r = 0; r < kRows; ++r) acc[r] = Product ? Acc(1) : Acc(0);
        for (int64_t j = 0; j < extent; ++j)
          for (int64_t r = 0; r < kRows; ++r) {
            const int64_t at = (first + r) * extent + j;
            const Acc x = static_cast<Acc>(in[at]);
            acc[r] = Product ? acc[r] * x : acc[r] + x;
            o[at] = static_cast<T>(acc[r]);
          }
      }
    }
    for (int64_t a = first; a < outer; ++a)
      for (int64_t i = 0; i < inner; ++i) {
        Acc acc = Product ? Acc(1) : Acc(0);
        for (int64_t j = 0; j < extent; ++j) {
          const int64_t at = (a * extent + j) * inner + i;
          const Acc x = static_cast<Acc>(in[at]);
          acc = Product ? acc * x : acc + x;
          o[at] = static_cast<T>(acc);
        }
      }
  });
  return {out};
}

}  // namespace

std::vector<Tensor> kernel_cumsum(const Arguments& args) { return cumulative<false>(args); }

std::vector<Tensor> kernel_cumprod(const Arguments& args) { return cumulative<true>(args); }

std::vector<Tensor> kernel_flip(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_flip(args))[0];
  const Tensor self = tensor::contiguous(args.tensor(0));
  const int64_t ndim = self.dim();
  std::vector<bool> flipped(static_cast<size_t>(ndim), false);
  for (int64_t d : args.int_list(1)) flipped[tensor::wrap_dim(d, ndim)] = true;
  const tensor::Shape strides = tensor::contiguous_strides(self.sizes());
  const size_t item = self.itemsize();
  const char* src = static_cast<const char*>(self.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  std::vector<int64_t> counter(static_cast<size_t>(ndim), 0);
  for (int64_t p = 0; p < self.numel(); ++p) {
    int64_t from = 0;
    for (int64_t d = 0; d < ndim; ++d) from += (flipped[d] ? self.size(d) - 1 - counter[d] : counter[d]) * strides[d];
    std::memcpy(dst + p * item, src + from * item, item);
    for (int64_t d = ndim; d-- > 0;) {
      if (++counter[d] < self.size(d)) break;
      counter[d] = 0;
    }
  }
  return {out};
}

}  // namespace kiln::ops
