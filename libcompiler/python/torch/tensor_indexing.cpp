#include "libcompiler/python/torch/tensor_indexing.h"

#include <algorithm>
#include <numeric>

#include "libcompiler/ops/ops.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/shape.h"
#include "libcompiler/tensor/size_traits.h"
#include "libcompiler/tensor/views.h"

namespace kiln::python {

namespace {

using tensor::DType;
using tensor::Tensor;

// An index tensor and the dimension of the (basic-indexed) view it indexes.
struct AdvancedIndex {
  int64_t dim;
  Tensor index;  // int64, or bool for a mask over index.dim() dimensions
};

// The view left by the basic keys, and the advanced keys in order.
struct Indexed {
  Tensor view;
  std::vector<AdvancedIndex> advanced;
};

bool is_meta(const Tensor& t) { return t.device().type == tensor::DeviceType::Meta; }

// A list key as PyTorch's binding turns it into a tensor: bools make a mask, ints an index.
Tensor list_index(Interpreter& ip, const Ref& key) {
  const std::vector<Ref> items = to_vector(ip, key);
  const bool all_bools = !items.empty() && std::all_of(items.begin(), items.end(), [](const Ref& i) { return i->kind == ObjectKind::Bool; });
  std::vector<int64_t> values;
  for (const Ref& item : items) {
    if (is_tensor(item) || item->kind == ObjectKind::List || item->kind == ObjectKind::Tuple)
      raise_error(ExcType::NotImplementedError, "kiln does not support indexing a tensor with nested sequences");
    values.push_back(to_index(ip, item));
  }
  Tensor t = tensor::tensor_from_values(values, {static_cast<int64_t>(values.size())});
  return all_bools ? tensor::to_dtype(t, DType::Bool) : t;
}

Indexed apply_basic_keys(Interpreter& ip, Tensor t, const Ref& key) {
  std::vector<Ref> keys = key->kind == ObjectKind::Tuple && key->type == builtin_types().tuple
                              ? as<TupleObject>(key).items : std::vector<Ref>{key};
  // Tensor keys as tensors (lists converted once); how many dimensions the keys consume.
  std::vector<Tensor> tensor_keys(keys.size());
  int64_t consumed = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const Ref& k = keys[i];
    if (is_tensor(k)) tensor_keys[i] = static_cast<TensorObject&>(*k).value;
    else if (k->kind == ObjectKind::List) tensor_keys[i] = list_index(ip, k);
    if (tensor_keys[i].defined()) consumed += tensor_keys[i].dtype() == DType::Bool ? tensor_keys[i].dim() : 1;
    else if (!is_none(k) && k.get() != ellipsis().get()) ++consumed;
  }
  if (consumed > t.dim())
    raise_error(ExcType::IndexError, "too many indices for tensor of dimension " + std::to_string(t.dim()));
  Indexed out;
  int64_t dim = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const Ref& k = keys[i];
    if (k.get() == ellipsis().get()) {
      dim += t.dim() - dim - consumed;
      consumed = 0;
      continue;
    }
    if (is_none(k)) {
      t = ops::unsqueeze(t, dim++);
      continue;
    }
    if (tensor_keys[i].defined()) {
      const Tensor& index = tensor_keys[i];
      if (index.dtype() != DType::Bool && !tensor::is_integral(index.dtype(), false))
        raise_error(ExcType::IndexError, "tensors used as indices must be long, int, byte or bool tensors");
      const int64_t span = index.dtype() == DType::Bool ? index.dim() : 1;
      out.advanced.push_back({dim, index});
      dim += span;
      consumed -= span;
      continue;
    }
    --consumed;
    if (k->kind == ObjectKind::Int || k->kind == ObjectKind::Bool) {
      const int64_t index = to_index(ip, k), n = t.size(dim);
      if (index < -n || index >= n)
        raise_error(ExcType::IndexError, "index " + std::to_string(index) + " is out of bounds for dimension " +
                                             std::to_string(dim) + " with size " + std::to_string(n));
      t = ops::select(t, dim, index);
    } else if (k->kind == ObjectKind::Slice) {
      const auto& s = as<SliceObject>(k);
      const int64_t step = is_none(s.step) ? 1 : to_index(ip, s.step);
      if (step <= 0) raise_error(ExcType::ValueError, "step must be greater than zero");
      std::optional<int64_t> start, stop;
      if (!is_none(s.lower)) start = to_index(ip, s.lower);
      if (!is_none(s.upper)) stop = to_index(ip, s.upper);
      t = ops::slice(t, dim++, start, stop, step);
    } else {
      raise_error(ExcType::IndexError,
                  "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got " +
                      type_name(k) + ")");
    }
  }
  out.view = t;
  return out;
}

// A mask over dimensions [dim, dim + k) as k integer indices of its set elements (nonzero), read
// from its data: the result's size depends on it, which fake tensors do not have.
std::vector<AdvancedIndex> expand_mask(const AdvancedIndex& mask, const Tensor& view) {
  if (is_meta(mask.index))
    raise_error(ExcType::NotImplementedError,
                "kiln cannot capture indexing by a boolean mask (its result's size depends on the data)");
  const Tensor m = tensor::contiguous(mask.index);
  for (int64_t d = 0; d < m.dim(); ++d)
    if (m.size(d) != view.size(mask.dim + d))
      raise_error(ExcType::IndexError, "The shape of the mask " + tensor::sizes_text(m.sizes()) + " at index " +
                                           std::to_string(d) + " does not match the shape of the indexed tensor " +
                                           tensor::sizes_text(view.sizes()) + " at index " + std::to_string(mask.dim + d));
  std::vector<std::vector<int64_t>> coordinates(static_cast<size_t>(m.dim()));
  const bool* data = m.data_ptr<bool>();
  const std::vector<int64_t> strides = tensor::contiguous_strides(m.sizes());
  for (int64_t flat = 0; flat < m.numel(); ++flat) {
    if (!data[flat]) continue;
    for (int64_t d = 0; d < m.dim(); ++d) coordinates[d].push_back(flat / strides[d] % m.size(d));
  }
  std::vector<AdvancedIndex> out;
  for (int64_t d = 0; d < m.dim(); ++d) {
    const int64_t n = static_cast<int64_t>(coordinates[d].size());
    out.push_back({mask.dim + d, tensor::tensor_from_values(coordinates[d], {n})});
  }
  return out;
}

// ATen's index: the index tensors broadcast together; the result has their shape in place of the
// indexed dimensions, at the first of them when they are adjacent, in front otherwise. Computed
// on the indexed dimensions moved to the front and merged into one: index_put_ writes through the
// same layout that index reads.
struct MergedLayout {
  std::vector<int64_t> order;       // the view's dimensions: the indexed ones first, then the rest
  std::vector<int64_t> flat_sizes;  // {product of the indexed sizes, rest...}
  std::vector<int64_t> out_sizes;   // {broadcast index shape..., rest...}
  std::vector<int64_t> back;        // out_sizes' order to the result's (empty: already in order)
  Tensor linear;                    // the flat position of each indexed element, (count,) int64
};

MergedLayout merge_indexed_dims(const Tensor& view, const std::vector<AdvancedIndex>& advanced) {
  std::vector<AdvancedIndex> indices;
  for (const AdvancedIndex& a : advanced) {
    if (a.index.dtype() == DType::Bool) {
      for (const AdvancedIndex& e : expand_mask(a, view)) indices.push_back(e);
    } else {
      indices.push_back({a.dim, ops::to_dtype(a.index, DType::Int64)});
    }
  }
  tensor::Shape broadcast;
  for (const AdvancedIndex& a : indices) broadcast = tensor::broadcast_shapes(broadcast, a.index.sizes());
  bool adjacent = true;
  for (size_t i = 1; i < indices.size(); ++i) adjacent = adjacent && indices[i].dim == indices[i - 1].dim + 1;
  MergedLayout layout;
  std::vector<int64_t> rest_sizes;
  for (const AdvancedIndex& a : indices) layout.order.push_back(a.dim);
  for (int64_t d = 0; d < view.dim(); ++d)
    if (std::find(layout.order.begin(), layout.order.end(), d) == layout.order.end()) {
      layout.order.push_back(d);
      rest_sizes.push_back(view.size(d));
    }
  // The flat position in the merged dimensions: each index wrapped and bounds-checked, times the
  // stride of its dimension among them.
  int64_t merged = 1;
  for (size_t i = indices.size(); i-- > 0;) {
    const int64_t size = view.size(indices[i].dim);
    Tensor index = ops::expand(indices[i].index, broadcast);
    if (!is_meta(index)) {
      const Tensor flat = tensor::contiguous(index);
      const int64_t* p = flat.data_ptr<int64_t>();
      for (int64_t j = 0; j < flat.numel(); ++j)
        if (p[j] < -size || p[j] >= size)
          raise_error(ExcType::IndexError, "index " + std::to_string(p[j]) + " is out of bounds for dimension " +
                                               std::to_string(indices[i].dim) + " with size " + std::to_string(size));
    }
    index = ops::where(ops::lt(index, tensor::Scalar(0)), ops::add(index, tensor::Scalar(size)), index);
    const Tensor term = merged == 1 ? index : ops::mul(index, tensor::Scalar(merged));
    layout.linear = layout.linear.defined() ? ops::add(layout.linear, term) : term;
    merged *= size;
  }
  layout.linear = ops::reshape(layout.linear, {tensor::numel_of(broadcast)});
  layout.flat_sizes = {merged};
  layout.flat_sizes.insert(layout.flat_sizes.end(), rest_sizes.begin(), rest_sizes.end());
  layout.out_sizes.assign(broadcast.begin(), broadcast.end());
  layout.out_sizes.insert(layout.out_sizes.end(), rest_sizes.begin(), rest_sizes.end());
  const int64_t first = indices.front().dim, b = static_cast<int64_t>(broadcast.size());
  if (adjacent && first != 0) {
    // Adjacent indices keep their place: the broadcast dimensions move back after the leading rest.
    for (int64_t d = 0; d < first; ++d) layout.back.push_back(b + d);
    for (int64_t d = 0; d < b; ++d) layout.back.push_back(d);
    for (int64_t d = b + first; d < static_cast<int64_t>(layout.out_sizes.size()); ++d) layout.back.push_back(d);
  }
  return layout;
}

// The value of an assignment as a tensor: a number becomes a 0-dim tensor of the target's dtype.
Tensor value_tensor(Interpreter& ip, const Ref& value, const Tensor& target) {
  if (is_tensor(value)) return static_cast<TensorObject&>(*value).value;
  return ops::full({}, to_ivalue(ip, value).to_scalar(), target.dtype(), target.device());
}

std::vector<int64_t> inverse_permutation(const std::vector<int64_t>& permutation) {
  std::vector<int64_t> inverse(permutation.size());
  for (size_t i = 0; i < permutation.size(); ++i) inverse[static_cast<size_t>(permutation[i])] = static_cast<int64_t>(i);
  return inverse;
}

Tensor gather_advanced(const Tensor& view, const std::vector<AdvancedIndex>& advanced) {
  const MergedLayout layout = merge_indexed_dims(view, advanced);
  const Tensor flat = ops::reshape(ops::permute(view, layout.order), layout.flat_sizes);
  const Tensor out = ops::reshape(ops::index_select(flat, 0, layout.linear), layout.out_sizes);
  return layout.back.empty() ? out : ops::permute(out, layout.back);
}

// index_put_: values (broadcast to what index would return) written at the indexed places, or
// added with accumulate. Written as where(written, scattered values, view) over the merged layout
// and copied back, so autograd and capture see table ops. Without accumulate, a place indexed twice
// takes the sum of its values where PyTorch keeps one of them (an order it leaves undefined);
// a single value is exact.
void put_advanced(const Tensor& view, const std::vector<AdvancedIndex>& advanced, Tensor values, bool accumulate) {
  const MergedLayout layout = merge_indexed_dims(view, advanced);
  const Tensor flat = ops::reshape(ops::permute(view, layout.order), layout.flat_sizes);
  std::vector<int64_t> result_sizes = layout.out_sizes;
  if (!layout.back.empty())
    for (size_t i = 0; i < layout.back.size(); ++i) result_sizes[i] = layout.out_sizes[static_cast<size_t>(layout.back[i])];
  values = ops::to_dtype(values, view.dtype());
  const Tensor single_value = values.dim() == 0 ? values : Tensor();
  values = ops::expand(values, result_sizes);
  if (!layout.back.empty()) values = ops::permute(values, inverse_permutation(layout.back));
  std::vector<int64_t> rows_sizes{layout.linear.size(0)};
  rows_sizes.insert(rows_sizes.end(), layout.flat_sizes.begin() + 1, layout.flat_sizes.end());
  values = ops::reshape(values, rows_sizes);
  Tensor updated;
  if (accumulate) {
    updated = ops::index_add(flat, 0, layout.linear, values);
  } else {
    std::vector<int64_t> mask_sizes(layout.flat_sizes.size(), 1);
    mask_sizes[0] = layout.flat_sizes[0];
    const Tensor hits = ops::index_add(ops::full({layout.flat_sizes[0]}, tensor::Scalar(0), DType::Int64, view.device()), 0,
                                       layout.linear, ops::ones_like(layout.linear));
    const Tensor written = ops::reshape(ops::gt(hits, tensor::Scalar(0)), mask_sizes);
    const Tensor scattered = single_value.defined() ? single_value : ops::index_add(ops::zeros_like(flat), 0, layout.linear, values);
    updated = ops::where(written, scattered, flat);
  }
  std::vector<int64_t> permuted_sizes;
  for (int64_t d : layout.order) permuted_sizes.push_back(view.size(d));
  ops::copy_(view, ops::permute(ops::reshape(updated, permuted_sizes), inverse_permutation(layout.order)));
}

}  // namespace

Tensor index_tensor(Interpreter& ip, const Tensor& self, const Ref& key) {
  Indexed indexed = apply_basic_keys(ip, self, key);
  if (indexed.advanced.empty()) return indexed.view;
  return gather_advanced(indexed.view, indexed.advanced);
}

void assign_index(Interpreter& ip, const Tensor& self, const Ref& key, const Ref& value) {
  Indexed indexed = apply_basic_keys(ip, self, key);
  if (indexed.advanced.empty()) {
    if (is_tensor(value)) ops::copy_(indexed.view, static_cast<TensorObject&>(*value).value);
    else ops::fill_(indexed.view, to_ivalue(ip, value).to_scalar());
    return;
  }
  // One boolean mask with a single value: masked_fill_ of the mask broadcast over the dimensions
  // after it (index_put_ computes the same; it also works on fake tensors, whose masks have no data).
  const bool single_value = !is_tensor(value) || static_cast<TensorObject&>(*value).value.dim() == 0;
  if (indexed.advanced.size() == 1 && indexed.advanced[0].index.dtype() == DType::Bool && single_value) {
    const AdvancedIndex& mask = indexed.advanced[0];
    Tensor m = mask.index;
    for (int64_t d = mask.dim + m.dim(); d < indexed.view.dim(); ++d) m = ops::unsqueeze(m, -1);
    std::vector<Ref> args{wrap_tensor(indexed.view), wrap_tensor(m), value};
    call_op(ip, "masked_fill_", std::move(args), {});
    return;
  }
  put_advanced(indexed.view, indexed.advanced, value_tensor(ip, value, indexed.view), false);
}

void index_put(Interpreter& ip, const Tensor& self, const Ref& indices, const Ref& values, bool accumulate) {
  if (indices->kind != ObjectKind::Tuple && indices->kind != ObjectKind::List)
    raise_error(ExcType::TypeError, "index_put_(): argument 'indices' must be tuple of Tensors, not " + type_name(indices));
  std::vector<AdvancedIndex> advanced;
  int64_t dim = 0;
  for (const Ref& index : sequence_items(indices)) {
    if (!is_tensor(index))
      raise_error(ExcType::TypeError, "index_put_(): argument 'indices' must be tuple of Tensors, not " + type_name(index));
    const Tensor& t = static_cast<TensorObject&>(*index).value;
    advanced.push_back({dim, t});
    dim += t.dtype() == DType::Bool ? t.dim() : 1;
  }
  if (dim > self.dim()) raise_error(ExcType::IndexError, "too many indices for tensor of dimension " + std::to_string(self.dim()));
  if (advanced.empty()) return;
  put_advanced(self, advanced, value_tensor(ip, values, self), accumulate);
}

}  // namespace kiln::python
