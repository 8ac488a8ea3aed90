// View lowerings: no computation, only a new way to index the same elements. A view of a strided
// buffer view stays a strided view when strides can express it (what extern kernels are given);
// otherwise it indexes through floor divisions and moduli, which simplification mostly removes.
#include <numeric>

#include "libcompiler/inductor/lowerings.h"
#include "libcompiler/ir/sym_size_traits.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/view_geometry.h"

namespace kiln::inductor {

namespace {

using IndexMap = std::function<std::vector<IndexExpr>(const std::vector<IndexExpr>&, const VarRanges&)>;

TensorBox remap(const TensorBox& in, std::vector<SizeExpr> sizes, IndexMap map, std::optional<BufferLayout> view) {
  TensorBox out;
  out.sizes = std::move(sizes);
  out.dtype = in.dtype;
  if (in.buffer && view) {
    out.buffer = in.buffer;
    out.view = *view;
    out.view.dtype = in.dtype;
  }
  out.loader = [inner = in.loader, map](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    return inner(map(index, ranges), ranges);
  };
  return out;
}

BufferLayout with_geometry(const TensorBox& in, std::vector<SizeExpr> sizes, std::vector<SizeExpr> strides, SizeExpr offset) {
  BufferLayout view = in.view;
  view.sizes = std::move(sizes);
  view.strides = std::move(strides);
  view.offset = offset;
  return view;
}

}  // namespace

std::vector<TensorBox> lower_view(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  const std::vector<SizeExpr> sizes = lowering.out_sizes();
  std::optional<BufferLayout> view;
  if (in.buffer) {
    try {
      if (auto strides = tensor::view_strides(in.sizes, in.view.strides, sizes)) view = with_geometry(in, sizes, *strides, in.view.offset);
    } catch (const tensor::TorchError&) {
      // Symbolic sizes whose comparison depends on their values: the view reads through its loader.
    }
  }
  const std::vector<SizeExpr> new_strides = tensor::row_major_strides(sizes), old_strides = tensor::row_major_strides(in.sizes), old_sizes = in.sizes;
  return {remap(in, sizes, [=](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    IndexExpr flat = IndexExpr::constant(0);
    for (size_t i = 0; i < index.size(); ++i) flat = flat + index[i] * new_strides[i];
    std::vector<IndexExpr> old;
    for (size_t j = 0; j < old_sizes.size(); ++j) old.push_back(flat.floordiv(old_strides[j], ranges).mod(old_sizes[j], ranges));
    return old;
  }, view)};
}

std::vector<TensorBox> lower_alias(GraphLowering& lowering) { return {lowering.tensor(lowering.arg(0))}; }

namespace {

TensorBox permute(const TensorBox& in, const std::vector<int64_t>& dims) {
  std::vector<SizeExpr> sizes, strides;
  for (int64_t d : dims) {
    sizes.push_back(in.sizes[d]);
    if (in.buffer) strides.push_back(in.view.strides[d]);
  }
  std::optional<BufferLayout> view;
  if (in.buffer) view = with_geometry(in, sizes, strides, in.view.offset);
  return remap(in, sizes, [dims](const std::vector<IndexExpr>& index, const VarRanges&) {
    std::vector<IndexExpr> old(index.size());
    for (size_t k = 0; k < dims.size(); ++k) old[dims[k]] = index[k];
    return old;
  }, view);
}

}  // namespace

std::vector<TensorBox> lower_permute(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  std::vector<int64_t> dims = lowering.integers(lowering.arg(1));
  for (int64_t& d : dims) d = wrap_dim(d, in.sizes.size());
  return {permute(in, dims)};
}

std::vector<TensorBox> lower_t(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  if (in.sizes.size() < 2) return {in};
  return {permute(in, {1, 0})};
}

std::vector<TensorBox> lower_transpose(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  std::vector<int64_t> dims(in.sizes.size());
  std::iota(dims.begin(), dims.end(), 0);
  if (dims.empty()) return {in};
  std::swap(dims[wrap_dim(lowering.integer(lowering.arg(1)), in.sizes.size())],
            dims[wrap_dim(lowering.integer(lowering.arg(2)), in.sizes.size())]);
  return {permute(in, dims)};
}

std::vector<TensorBox> lower_expand(GraphLowering& lowering) {
  return {GraphLowering::broadcast_to(lowering.tensor(lowering.arg(0)), lowering.out_sizes())};
}

std::vector<TensorBox> lower_unsqueeze(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  const size_t dim = static_cast<size_t>(wrap_dim(lowering.integer(lowering.arg(1)), in.sizes.size() + 1));
  std::vector<SizeExpr> sizes = in.sizes;
  sizes.insert(sizes.begin() + static_cast<long>(dim), size_constant(1));
  std::optional<BufferLayout> view;
  if (in.buffer) {
    std::vector<SizeExpr> strides = in.view.strides;
    strides.insert(strides.begin() + static_cast<long>(dim), dim < in.sizes.size() ? in.view.strides[dim] * in.sizes[dim] : size_constant(1));
    view = with_geometry(in, sizes, strides, in.view.offset);
  }
  return {remap(in, sizes, [dim](const std::vector<IndexExpr>& index, const VarRanges&) {
    std::vector<IndexExpr> old = index;
    old.erase(old.begin() + static_cast<long>(dim));
    return old;
  }, view)};
}

std::vector<TensorBox> lower_squeeze(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  std::vector<bool> drop(in.sizes.size(), false);
  if (lowering.node().args().size() > 1) {
    for (int64_t d : lowering.integers(lowering.arg(1))) {
      const size_t w = static_cast<size_t>(wrap_dim(d, in.sizes.size()));
      if (w < in.sizes.size() && in.sizes[w] == size_constant(1)) drop[w] = true;
    }
  } else {
    for (size_t i = 0; i < in.sizes.size(); ++i) drop[i] = in.sizes[i] == size_constant(1);
  }
  std::vector<SizeExpr> sizes, strides;
  for (size_t i = 0; i < in.sizes.size(); ++i) {
    if (drop[i]) continue;
    sizes.push_back(in.sizes[i]);
    if (in.buffer) strides.push_back(in.view.strides[i]);
  }
  std::optional<BufferLayout> view;
  if (in.buffer) view = with_geometry(in, sizes, strides, in.view.offset);
  return {remap(in, sizes, [drop](const std::vector<IndexExpr>& index, const VarRanges&) {
    std::vector<IndexExpr> old;
    size_t k = 0;
    for (bool d : drop) old.push_back(d ? IndexExpr::constant(0) : index[k++]);
    return old;
  }, view)};
}

std::vector<TensorBox> lower_select(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  const size_t dim = static_cast<size_t>(wrap_dim(lowering.integer(lowering.arg(1)), in.sizes.size()));
  SizeExpr at = lowering.size(lowering.arg(2));
  if (!always_nonnegative(at)) at = at + in.sizes[dim];
  if (!always_nonnegative(at)) throw UseFallback("select index of unknown sign");
  std::vector<SizeExpr> sizes = in.sizes, strides;
  sizes.erase(sizes.begin() + static_cast<long>(dim));
  std::optional<BufferLayout> view;
  if (in.buffer) {
    strides = in.view.strides;
    strides.erase(strides.begin() + static_cast<long>(dim));
    view = with_geometry(in, sizes, strides, in.view.offset + at * in.view.strides[dim]);
  }
  return {remap(in, sizes, [dim, at](const std::vector<IndexExpr>& index, const VarRanges&) {
    std::vector<IndexExpr> old = index;
    old.insert(old.begin() + static_cast<long>(dim), IndexExpr::constant(at));
    return old;
  }, view)};
}

std::vector<TensorBox> lower_slice(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  const ir::Argument* dim_arg = lowering.arg_or_kwarg(1, "dim");
  const ir::Argument* start_arg = lowering.arg_or_kwarg(2, "start");
  const ir::Argument* step_arg = lowering.arg_or_kwarg(4, "step");
  const size_t dim = static_cast<size_t>(wrap_dim(dim_arg ? lowering.integer(*dim_arg) : 0, in.sizes.size()));
  SizeExpr start = start_arg && !std::holds_alternative<ir::NoneValue>(start_arg->value) ? lowering.size(*start_arg) : size_constant(0);
  const int64_t step = step_arg ? lowering.integer(*step_arg) : 1;
  const SizeExpr& extent = in.sizes[dim];
  // Python's clamping of the start into [0, size], decided for every value of the sizes.
  if (!always_nonnegative(start)) {
    const SizeExpr from_end = start + extent;
    start = always_nonnegative(from_end) ? from_end : always_nonnegative(-from_end) ? size_constant(0) : throw UseFallback("slice start");
  }
  if (!always_nonnegative(extent - start)) {
    if (!always_nonnegative(start - extent)) throw UseFallback("slice start");
    start = extent;
  }
  const std::vector<SizeExpr> sizes = lowering.out_sizes();
  std::optional<BufferLayout> view;
  if (in.buffer) {
    std::vector<SizeExpr> strides = in.view.strides;
    strides[dim] = strides[dim] * size_constant(step);
    view = with_geometry(in, sizes, strides, in.view.offset + start * in.view.strides[dim]);
  }
  return {remap(in, sizes, [dim, start, step](const std::vector<IndexExpr>& index, const VarRanges&) {
    std::vector<IndexExpr> old = index;
    old[dim] = index[dim] * step + IndexExpr::constant(start);
    return old;
  }, view)};
}

}  // namespace kiln::inductor
