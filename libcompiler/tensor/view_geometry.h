#pragma once
// The geometry of views, once for every size type: the sizes and strides of view, reshape,
// permute, transpose, t, unsqueeze, squeeze, expand, slice and select, broadcasting and
// contiguity, with the checks (and error texts) PyTorch makes. Tensor views (views.h) run them on
// int64 sizes, the op table's meta functions on whatever size type their arguments carry
// (symbolic sizes in libcompiler/ir's shape propagation).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libcompiler/tensor/dtype.h"
#include "libcompiler/tensor/shape.h"
#include "libcompiler/tensor/size_traits.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

// A view's layout; offset is what it adds to its base's storage offset.
template <typename Size>
struct ViewGeometry {
  std::vector<Size> sizes;
  std::vector<Size> strides;
  Size offset = SizeTraits<Size>::constant(0);
};

// Row-major strides of `sizes`; a size-0 or size-1 dimension counts as 1 for the ones outside
// it (c10).
template <typename Size>
std::vector<Size> row_major_strides(const std::vector<Size>& sizes) {
  std::vector<Size> strides(sizes.size());
  const Size one = SizeTraits<Size>::constant(1);
  Size running = one;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    // c10's max(size, 1), without a guard: s - 1 (never below 1) is itself, s - 2 is Max(1, s - 2).
    if (i > 0) running = running * SizeTraits<Size>::max(sizes[i], one);
  }
  return strides;
}

// strides == row_major_strides(sizes), for concrete sizes, without building the comparison's
// vector (every elementwise op call asks it).
inline bool has_row_major_strides(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides) {
  if (strides.size() != sizes.size()) return false;
  int64_t running = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (strides[i] != running) return false;
    running *= std::max<int64_t>(sizes[i], 1);
  }
  return true;
}

// c10's definition: size-1 dimensions may have any stride, empty tensors are contiguous.
template <typename Size>
bool is_contiguous_layout(const std::vector<Size>& sizes, const std::vector<Size>& strides) {
  if (size_is(element_count(sizes), 0)) return true;
  Size expected = SizeTraits<Size>::constant(1);
  for (size_t d = sizes.size(); d-- > 0;) {
    if (size_is(sizes[d], 1)) continue;
    if (!SizeTraits<Size>::equal(strides[d], expected)) return false;
    expected = expected * sizes[d];
  }
  return true;
}

// The broadcast of two shapes; "The size of tensor a (3) must match the size of tensor b (4) at
// non-singleton dimension 1" when they do not broadcast.
template <typename Size>
std::vector<Size> broadcast_sizes(const std::vector<Size>& a, const std::vector<Size>& b) {
  const size_t ndim = std::max(a.size(), b.size());
  std::vector<Size> out(ndim);
  for (size_t i = 0; i < ndim; ++i) {
    const bool has_a = i < a.size(), has_b = i < b.size();
    const Size sa = has_a ? a[a.size() - 1 - i] : SizeTraits<Size>::constant(1);
    const Size sb = has_b ? b[b.size() - 1 - i] : SizeTraits<Size>::constant(1);
    // Size 1 is tested first: a symbolic size is compared with another only when neither is 1.
    if (!size_is(sa, 1) && !size_is(sb, 1) && !SizeTraits<Size>::equal(sa, sb))
      throw_runtime_error("The size of tensor a (" + SizeTraits<Size>::text(sa) + ") must match the size of tensor b (" +
                          SizeTraits<Size>::text(sb) + ") at non-singleton dimension " + std::to_string(ndim - 1 - i));
    out[ndim - 1 - i] = size_is(sa, 1) ? sb : sa;
  }
  return out;
}

// The sizes of view/reshape with at most one -1, as ATen's infer_size. The -1 is the element
// count over the given sizes, with the factors they share cancelled first so that symbolic sizes
// divide exactly ([s0, 4] viewed as [s0, 2, -1] infers 2, not (4*s0)//(2*s0)); a symbolic -1 is
// inferred only when the division is exact for every value of the symbols (the size traits raise
// their guard error otherwise).
template <typename Size>
std::vector<Size> infer_view_sizes(const std::vector<Size>& shape, const std::vector<Size>& self_sizes) {
  using Traits = SizeTraits<Size>;
  const Size numel = element_count(self_sizes);
  std::vector<Size> result = shape;
  std::vector<Size> known_factors;
  std::optional<size_t> inferred;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (size_is(shape[i], -1)) {
      if (inferred) throw_runtime_error("only one dimension can be inferred");
      inferred = i;
    } else if (!Traits::less(shape[i], Traits::constant(0))) {
      known_factors.push_back(shape[i]);
    } else {
      throw_runtime_error("invalid shape dimension " + Traits::text(shape[i]));
    }
  }
  const Size known = element_count(known_factors);
  if (Traits::equal(numel, known)) {
    if (inferred) {
      // A -1 beside a zero-sized dimension is ambiguous.
      if (size_is(known, 0))
        throw_runtime_error("cannot reshape tensor of 0 elements into shape " + sizes_text(shape) +
                            " because the unspecified dimension size -1 can be any value and is ambiguous");
      result[*inferred] = Traits::constant(1);
    }
    return result;
  }
  if (inferred && Traits::less(Traits::constant(0), known)) {
    // floor(a*c / (b*c)) is floor(a / b) for c > 0, so cancelling is exact on int64 too.
    std::vector<Size> numerator = self_sizes;
    std::vector<Size> denominator;
    for (const Size& factor : known_factors) {
      const auto same = std::find(numerator.begin(), numerator.end(), factor);
      if (same != numerator.end()) numerator.erase(same);
      else denominator.push_back(factor);
    }
    const Size quotient = Traits::floor_divide(element_count(numerator), element_count(denominator));
    if (Traits::equal(quotient * known, numel)) {
      result[*inferred] = quotient;
      return result;
    }
  }
  throw_runtime_error("shape '" + sizes_text(shape) + "' is invalid for input of size " + Traits::text(numel));
}

// The strides of a view of (old_sizes, old_strides) as new_sizes, or nullopt when a new dimension
// would span memory that is not uniformly strided (ATen's computeStride).
template <typename Size>
std::optional<std::vector<Size>> view_strides(const std::vector<Size>& old_sizes, const std::vector<Size>& old_strides,
                                              const std::vector<Size>& new_sizes) {
  using Traits = SizeTraits<Size>;
  if (old_sizes.empty()) return std::vector<Size>(new_sizes.size(), Traits::constant(1));
  if (size_is(element_count(old_sizes), 0)) {
    if (same_sizes(old_sizes, new_sizes)) return old_strides;
    return row_major_strides(new_sizes);
  }
  // Walk the old dimensions from the innermost, grouping them into chunks that are contiguous
  // with each other; every chunk must be matched exactly by a run of new dimensions.
  std::vector<Size> new_strides(new_sizes.size());
  int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
  Size chunk_base_stride = old_strides.back();
  Size tensor_numel = Traits::constant(1);
  Size view_numel = Traits::constant(1);
  for (int64_t tensor_d = static_cast<int64_t>(old_sizes.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel = tensor_numel * old_sizes[tensor_d];
    const bool chunk_ends = tensor_d == 0 || (!size_is(old_sizes[tensor_d - 1], 1) &&
                                              !Traits::equal(old_strides[tensor_d - 1], tensor_numel * chunk_base_stride));
    if (!chunk_ends) continue;
    while (view_d >= 0 && (Traits::less(view_numel, tensor_numel) || size_is(new_sizes[view_d], 1))) {
      new_strides[view_d] = view_numel * chunk_base_stride;
      view_numel = view_numel * new_sizes[view_d];
      --view_d;
    }
    if (!Traits::equal(view_numel, tensor_numel)) return std::nullopt;
    if (tensor_d > 0) {
      chunk_base_stride = old_strides[tensor_d - 1];
      tensor_numel = Traits::constant(1);
      view_numel = Traits::constant(1);
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

// Tensor.view(shape): one -1 allowed; PyTorch's error when the strides forbid a view.
template <typename Size>
ViewGeometry<Size> view_geometry(const std::vector<Size>& sizes, const std::vector<Size>& strides,
                                 const std::vector<Size>& shape) {
  std::vector<Size> new_sizes = infer_view_sizes(shape, sizes);
  auto new_strides = view_strides(sizes, strides, new_sizes);
  if (!new_strides)
    throw_runtime_error(
        "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
        "two contiguous subspaces). Use .reshape(...) instead.");
  return {std::move(new_sizes), std::move(*new_strides)};
}

template <typename Size>
ViewGeometry<Size> permute_geometry(const std::vector<Size>& sizes, const std::vector<Size>& strides,
                                    const std::vector<int64_t>& dims) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  if (static_cast<int64_t>(dims.size()) != ndim)
    throw_runtime_error(
        "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
        "ordering of dimensions i.e. input.dim() = " +
        std::to_string(ndim) + " is not equal to len(dims) = " + std::to_string(dims.size()));
  ViewGeometry<Size> out{sizes, strides};
  std::vector<bool> seen(ndim, false);
  for (int64_t i = 0; i < ndim; ++i) {
    const int64_t d = wrap_dim(dims[i], ndim);
    if (seen[d]) throw_runtime_error("permute(): duplicate dims are not allowed.");
    seen[d] = true;
    out.sizes[i] = sizes[d];
    out.strides[i] = strides[d];
  }
  return out;
}

template <typename Size>
ViewGeometry<Size> transpose_geometry(const std::vector<Size>& sizes, const std::vector<Size>& strides, int64_t dim0,
                                      int64_t dim1) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  const int64_t a = wrap_dim(dim0, ndim), b = wrap_dim(dim1, ndim);
  ViewGeometry<Size> out{sizes, strides};
  if (ndim > 0) {
    std::swap(out.sizes[a], out.sizes[b]);
    std::swap(out.strides[a], out.strides[b]);
  }
  return out;
}

// Tensor.t(): 0-D and 1-D tensors keep their geometry; 2-D are transposed.
template <typename Size>
ViewGeometry<Size> t_geometry(const std::vector<Size>& sizes, const std::vector<Size>& strides) {
  if (sizes.size() > 2)
    throw_runtime_error("t() expects a tensor with <= 2 dimensions, but self is " + std::to_string(sizes.size()) + "D");
  if (sizes.size() < 2) return {sizes, strides};
  return transpose_geometry(sizes, strides, 0, 1);
}

template <typename Size>
ViewGeometry<Size> unsqueeze_geometry(const std::vector<Size>& sizes, const std::vector<Size>& strides, int64_t dim) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  const int64_t d = wrap_dim(dim, ndim + 1);
  ViewGeometry<Size> out{sizes, strides};
  const Size new_stride = d >= ndim ? SizeTraits<Size>::constant(1) : sizes[d] * strides[d];
  out.sizes.insert(out.sizes.begin() + d, SizeTraits<Size>::constant(1));
  out.strides.insert(out.strides.begin() + d, new_stride);
  return out;
}

// Drops those of `dims` that have size 1.
template <typename Size>
ViewGeometry<Size> squeeze_geometry(const std::vector<Size>& sizes, const std::vector<Size>& strides,
                                    const std::vector<int64_t>& dims) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  std::vector<bool> drop(ndim, false);
  for (int64_t dim : dims) {
    const int64_t d = wrap_dim(dim, ndim);
    if (ndim > 0 && size_is(sizes[d], 1)) drop[d] = true;
  }
  ViewGeometry<Size> out;
  for (int64_t d = 0; d < ndim; ++d) {
    if (drop[d]) continue;
    out.sizes.push_back(sizes[d]);
    out.strides.push_back(strides[d]);
  }
  return out;
}

// Tensor.expand(target): -1 keeps a size; new leading dims and expanded size-1 dims get stride 0.
template <typename Size>
ViewGeometry<Size> expand_geometry(const std::vector<Size>& sizes, const std::vector<Size>& strides,
                                   const std::vector<Size>& target, DType dtype) {
  using Traits = SizeTraits<Size>;
  const int64_t ndim = static_cast<int64_t>(target.size());
  const int64_t self_ndim = static_cast<int64_t>(sizes.size());
  if (ndim < self_ndim)
    throw_runtime_error("expand(" + torch_name(dtype) + "{" + sizes_text(sizes) + "}, size=" + sizes_text(target) +
                        "): the number of sizes provided (" + std::to_string(ndim) +
                        ") must be greater or equal to the number of dimensions in the tensor (" +
                        std::to_string(self_ndim) + ")");
  ViewGeometry<Size> out{std::vector<Size>(ndim), std::vector<Size>(ndim)};
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t self_dim = self_ndim - 1 - (ndim - 1 - i);
    const Size size = self_dim >= 0 ? sizes[self_dim] : Traits::constant(1);
    const Size stride = self_dim >= 0 ? strides[self_dim] : Traits::constant(0);
    Size wanted = target[i];
    if (size_is(wanted, -1)) {
      if (self_dim < 0)
        throw_runtime_error("The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension " +
                            std::to_string(i));
      wanted = size;
    }
    const bool same = Traits::equal(size, wanted);
    if (!same && !size_is(size, 1))
      throw_runtime_error("The expanded size of the tensor (" + Traits::text(wanted) +
                          ") must match the existing size (" + Traits::text(size) + ") at non-singleton dimension " +
                          std::to_string(i) + ".  Target sizes: " + sizes_text(target) +
                          ".  Tensor sizes: " + sizes_text(sizes));
    out.sizes[i] = wanted;
    out.strides[i] = (self_dim < 0 || !same) ? Traits::constant(0) : stride;
  }
  return out;
}

// self[start:end:step] along dim, with Python's clamping of out-of-range bounds.
template <typename Size>
ViewGeometry<Size> slice_geometry(const std::vector<Size>& sizes, const std::vector<Size>& strides, int64_t dim,
                                  const std::optional<Size>& start, const std::optional<Size>& end, const Size& step) {
  using Traits = SizeTraits<Size>;
  if (sizes.empty()) throw_index_error("slice() cannot be applied to a 0-dim tensor.");
  const Size zero = Traits::constant(0);
  if (!Traits::less(zero, step)) throw_runtime_error("slice step must be positive");
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(sizes.size()));
  const Size size = sizes[d];
  Size begin = start ? *start : zero, stop = end ? *end : size;
  if (Traits::less(begin, zero)) begin = begin + size;
  if (Traits::less(stop, zero)) stop = stop + size;
  if (Traits::less(begin, zero)) begin = zero;
  if (Traits::less(size, begin)) begin = size;
  if (Traits::less(stop, begin)) stop = begin;
  if (Traits::less(size, stop)) stop = size;
  ViewGeometry<Size> out{sizes, strides, begin * strides[d]};
  out.sizes[d] = Traits::floor_divide(stop - begin + step - Traits::constant(1), step);
  out.strides[d] = strides[d] * step;
  return out;
}

// self.select(dim, index): drops dim.
template <typename Size>
ViewGeometry<Size> select_geometry(const std::vector<Size>& sizes, const std::vector<Size>& strides, int64_t dim,
                                   const Size& index) {
  using Traits = SizeTraits<Size>;
  if (sizes.empty()) throw_index_error("select() cannot be applied to a 0-dim tensor.");
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(sizes.size()));
  const Size size = sizes[d];
  if (Traits::less(index, Traits::constant(0) - size) || !Traits::less(index, size))
    throw_index_error("select(): index " + Traits::text(index) + " out of range for tensor of size " +
                      sizes_text(sizes) + " at dimension " + std::to_string(d));
  const Size position = Traits::less(index, Traits::constant(0)) ? index + size : index;
  ViewGeometry<Size> out{sizes, strides, position * strides[d]};
  out.sizes.erase(out.sizes.begin() + d);
  out.strides.erase(out.strides.begin() + d);
  return out;
}

}  // namespace kiln::tensor
