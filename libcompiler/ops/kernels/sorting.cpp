// topk: the k largest (or smallest) elements of each slice along dim with their indices, NaN
// ordered above every number as PyTorch orders it.
#include <algorithm>
#include <cmath>
#include <utility>

#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/shape.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

namespace {

template <typename C>
bool is_nan(C x) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(x);
  return false;
}

}  // namespace

// ATen's topk_impl_loop: (value, index) pairs in order, then a partial sort when k is small
// beside the slice (k * 64 <= n), else nth_element and a sort of the first k - 1, with comparators
// that do not break ties: equal values come out in the order these algorithms leave them.
std::vector<Tensor> kernel_topk(const Arguments& args) {
  const std::vector<Tensor> outs = allocate_outputs(meta_topk(args));
  const Tensor self = tensor::contiguous(args.tensor(0));
  const int64_t k = args.int_value(1);
  const int64_t dim = self.dim() == 0 ? 0 : tensor::wrap_dim(args.int_value(2), self.dim());
  const bool largest = args.bool_value(3), sorted = args.bool_value(4);
  int64_t outer = 1, extent = 1, inner = 1;
  for (int64_t d = 0; d < self.dim(); ++d) (d < dim ? outer : d == dim ? extent : inner) *= self.size(d);
  if (k == 0) return outs;
  // The outputs are contiguous with k along dim.
  int64_t* indices = outs[1].data_ptr<int64_t>();
  tensor::visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    using Element = std::pair<C, int64_t>;
    const T* in = self.data_ptr<T>();
    T* values = outs[0].data_ptr<T>();
    auto before = [largest](const Element& x, const Element& y) {
      return largest ? (is_nan(x.first) && !is_nan(y.first)) || x.first > y.first
                     : (!is_nan(x.first) && is_nan(y.first)) || x.first < y.first;
    };
    std::vector<Element> queue(static_cast<size_t>(extent));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        for (int64_t j = 0; j < extent; ++j) queue[j] = {static_cast<C>(in[(o * extent + j) * inner + i]), j};
        if (k * 64 <= extent) {
          std::partial_sort(queue.begin(), queue.begin() + k, queue.end(), before);
        } else {
          std::nth_element(queue.begin(), queue.begin() + k - 1, queue.end(), before);
          if (sorted) std::sort(queue.begin(), queue.begin() + k - 1, before);
        }
        for (int64_t j = 0; j < k; ++j) {
          const int64_t position = (o * k + j) * inner + i;
          values[position] = static_cast<T>(queue[j].first);
          indices[position] = queue[j].second;
        }
      }
  });
  return outs;
}

}  // namespace kiln::ops
