#pragma once
// TensorMeta: what a meta function says about one output (dtype, sizes, strides, device), and
// the shape rules meta functions are written with.
//
// The rules are templates over the size type (tensor::SizeTraits) so the capture can run them on
// symbolic sizes; the eager path instantiates them with int64_t, the symbolic shape propagation of
// libcompiler/ir with SymExpr.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/tensor/device.h"
#include "libcompiler/tensor/dtype.h"
#include "libcompiler/tensor/shape.h"
#include "libcompiler/tensor/size_traits.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/view_geometry.h"

namespace kiln::ops {

// The size-generic rules live in libcompiler/tensor (size_traits.h, view_geometry.h); the meta
// functions use them unqualified.
using tensor::broadcast_sizes;
using tensor::element_count;
using tensor::row_major_strides;
using tensor::same_sizes;
using tensor::size_is;
using tensor::sizes_text;
using tensor::SizeTraits;

template <typename Size>
struct TensorMetaT {
  std::vector<Size> sizes;
  std::vector<Size> strides;
  tensor::DType dtype = tensor::DType::Float32;
  tensor::Device device = tensor::kCPU;
  // False for an output the op leaves undefined (a gradient output_mask does not ask for).
  bool defined = true;
};
using TensorMeta = TensorMetaT<int64_t>;

// One input of an elementwise op, as TensorIterator sees it when it lays out the output.
template <typename Size>
struct StridedOperand {
  std::vector<Size> sizes;
  std::vector<Size> strides;
};

// The output strides TensorIterator gives an elementwise result of `shape`: the output follows
// the memory order of its inputs (a transposed input gives a transposed output), dense and
// non-overlapping. This is ATen's reorder_dimensions (insertion sort of dims by the inputs'
// strides, broadcast dims undecided, ties broken by size) followed by contiguous strides in that
// order.
template <typename Size>
std::vector<Size> elementwise_output_strides(const std::vector<Size>& shape,
                                             const std::vector<StridedOperand<Size>>& inputs) {
  const size_t ndim = shape.size();
  // Inputs' strides aligned to the output, 0 where broadcast.
  std::vector<std::vector<Size>> strides;
  for (const auto& in : inputs) {
    std::vector<Size> s(ndim, SizeTraits<Size>::constant(0));
    const size_t lead = ndim - in.sizes.size();
    for (size_t d = 0; d < in.sizes.size(); ++d)
      s[lead + d] = (size_is(in.sizes[d], 1) && !size_is(shape[lead + d], 1)) ? SizeTraits<Size>::constant(0)
                                                                             : in.strides[d];
    strides.push_back(std::move(s));
  }
  // 1: dim0 goes after dim1 in memory (outer); -1: before; 0: undecided.
  auto should_swap = [&](size_t dim0, size_t dim1) {
    for (const auto& s : strides) {
      const Size stride0 = s[dim0], stride1 = s[dim1];
      if (size_is(stride0, 0) || size_is(stride1, 0)) continue;
      if (SizeTraits<Size>::less(stride0, stride1)) return -1;
      if (SizeTraits<Size>::less(stride1, stride0)) return 1;
      if (SizeTraits<Size>::less(shape[dim1], shape[dim0])) return 1;
    }
    return 0;
  };
  std::vector<size_t> perm(ndim);  // innermost first
  for (size_t i = 0; i < ndim; ++i) perm[i] = ndim - 1 - i;
  for (size_t i = 1; i < ndim; ++i) {
    size_t dim1 = i;
    for (size_t dim0 = i; dim0-- > 0;) {
      const int comparison = should_swap(perm[dim0], perm[dim1]);
      if (comparison > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (comparison < 0) {
        break;
      }
    }
  }
  std::vector<Size> out(ndim);
  const Size one = SizeTraits<Size>::constant(1);
  Size running = one;
  for (size_t d : perm) {
    out[d] = running;
    running = running * (SizeTraits<Size>::less(one, shape[d]) ? shape[d] : one);
  }
  return out;
}

// The sizes after reducing the dims flagged in `reduced` (kept as 1 with keepdim).
template <typename Size>
std::vector<Size> reduced_sizes(const std::vector<Size>& sizes, const std::vector<bool>& reduced, bool keepdim) {
  std::vector<Size> out;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (!reduced[d]) out.push_back(sizes[d]);
    else if (keepdim) out.push_back(SizeTraits<Size>::constant(1));
  }
  return out;
}

// Which dims a reduction over `dims` touches; an empty list means all of them (PyTorch's
// dim=None / dim=[]). Wraps negative dims; "dim 0 appears multiple times in the list of dims".
std::vector<bool> reduction_mask(const std::vector<int64_t>& dims, int64_t ndim);

}  // namespace kiln::ops
