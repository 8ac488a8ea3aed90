// Indexing kernels: index_select, index_add, gather, scatter_add, embedding and its dense
// backward. All work on contiguous copies viewed as [outer, size along dim, inner] blocks, with
// PyTorch's bounds errors.
#include <cstring>

#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

namespace {

// A tensor as [outer][size][inner] around `dim`.
struct Blocks {
  int64_t outer = 1, size = 1, inner = 1;
};

Blocks blocks_of(const Shape& sizes, int64_t dim) {
  Blocks b;
  for (int64_t d = 0; d < static_cast<int64_t>(sizes.size()); ++d) {
    if (d < dim) b.outer *= sizes[d];
    else if (d == dim) b.size = sizes[d];
    else b.inner *= sizes[d];
  }
  return b;
}

std::vector<int64_t> indices_of(const Tensor& index) {
  const Tensor as_long = tensor::contiguous(tensor::to_dtype(index, tensor::DType::Int64));
  const int64_t* p = as_long.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + as_long.numel());
}

int64_t checked_index(int64_t index, int64_t size, const char* message) {
  if (index < -size || index >= size) tensor::throw_index_error(message);
  return index < 0 ? index + size : index;
}

// out[o, i, :] = self[o, index[i], :] for contiguous self and out.
void select_rows(const Tensor& out, const Tensor& self, int64_t dim, const std::vector<int64_t>& index) {
  const Blocks in = blocks_of(self.sizes(), dim);
  const size_t row_bytes = static_cast<size_t>(in.inner) * self.itemsize();
  const char* src = static_cast<const char*>(self.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  const int64_t n = static_cast<int64_t>(index.size());
  std::vector<int64_t> rows(index.size());
  for (int64_t i = 0; i < n; ++i) rows[i] = checked_index(index[i], in.size, "index out of range in self");
  for (int64_t o = 0; o < in.outer; ++o)
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(dst + (o * n + i) * row_bytes, src + (o * in.size + rows[i]) * row_bytes, row_bytes);
}

// Walks every position of `index` (contiguous, same rank as `data`) and calls
// visit(position in index, offset in data with dim replaced by index[position]).
template <typename Visit>
void for_each_indexed(const Tensor& index, const Shape& data_sizes, int64_t dim, const Visit& visit) {
  const std::vector<int64_t> idx = indices_of(index);
  const Shape data_strides = tensor::contiguous_strides(data_sizes);
  const int64_t ndim = index.dim();
  std::vector<int64_t> counter(ndim, 0);
  for (int64_t p = 0; p < static_cast<int64_t>(idx.size()); ++p) {
    int64_t offset = 0;
    for (int64_t d = 0; d < ndim; ++d)
      offset += (d == dim ? checked_index(idx[p], data_sizes[d], "index out of bounds") : counter[d]) * data_strides[d];
    visit(p, offset);
    for (int64_t d = ndim; d-- > 0;) {
      if (++counter[d] < index.sizes()[d]) break;
      counter[d] = 0;
    }
  }
}

}  // namespace

std::vector<Tensor> kernel_index_select(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_index_select(args))[0];
  const Tensor self = tensor::contiguous(args.tensor(0));
  const int64_t dim = self.dim() == 0 ? 0 : tensor::wrap_dim(args.int_value(1), self.dim());
  select_rows(out, self, dim, indices_of(args.tensor(2)));
  return {out};
}

std::vector<Tensor> kernel_index_add(const Arguments& args) {
  const Tensor out = tensor::clone_contiguous(args.tensor(0));
  const int64_t dim = out.dim() == 0 ? 0 : tensor::wrap_dim(args.int_value(1), out.dim());
  const std::vector<int64_t> index = indices_of(args.tensor(2));
  const Tensor source = tensor::contiguous(tensor::to_dtype(args.tensor(3), out.dtype()));
  const Blocks dst = blocks_of(out.sizes(), dim);
  const int64_t n = static_cast<int64_t>(index.size());
  const Scalar alpha = args.scalar(4);
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const C a = alpha.to<C>();
    T* o = out.data_ptr<T>();
    const T* s = source.data_ptr<T>();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t row = checked_index(index[i], dst.size, "index out of range in self");
      for (int64_t outer = 0; outer < dst.outer; ++outer)
        for (int64_t k = 0; k < dst.inner; ++k) {
          T& target = o[(outer * dst.size + row) * dst.inner + k];
          target = static_cast<T>(static_cast<C>(target) + a * static_cast<C>(s[(outer * n + i) * dst.inner + k]));
        }
    }
  });
  return {out};
}

std::vector<Tensor> kernel_gather(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_gather(args))[0];
  const Tensor self = tensor::contiguous(args.tensor(0));
  const int64_t dim = tensor::wrap_dim(args.int_value(1), self.dim());
  const size_t item = self.itemsize();
  const char* src = static_cast<const char*>(self.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  for_each_indexed(tensor::contiguous(args.tensor(2)), self.sizes(), dim, [&](int64_t p, int64_t offset) {
    std::memcpy(dst + p * item, src + offset * item, item);
  });
  return {out};
}

std::vector<Tensor> kernel_scatter_value(const Arguments& args) {
  const Tensor out = tensor::clone_contiguous(args.tensor(0));
  const int64_t dim = tensor::wrap_dim(args.int_value(1), out.dim());
  const Scalar value = args.scalar(3);
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data_ptr<T>();
    const T v = value.to<T>();
    for_each_indexed(tensor::contiguous(args.tensor(2)), out.sizes(), dim, [&](int64_t, int64_t offset) { o[offset] = v; });
  });
  return {out};
}

std::vector<Tensor> kernel_scatter_add(const Arguments& args) {
  const Tensor out = tensor::clone_contiguous(args.tensor(0));
  const int64_t dim = tensor::wrap_dim(args.int_value(1), out.dim());
  const Tensor src = tensor::contiguous(tensor::to_dtype(args.tensor(3), out.dtype()));
  const Tensor index = tensor::contiguous(args.tensor(2));
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    T* o = out.data_ptr<T>();
    const T* s = src.data_ptr<T>();
    const Shape src_strides = tensor::contiguous_strides(src.sizes());
    const Shape index_strides = tensor::contiguous_strides(index.sizes());
    for_each_indexed(index, out.sizes(), dim, [&](int64_t p, int64_t offset) {
      // src is read at the index's position (src may be larger than index).
      int64_t src_offset = 0, rest = p;
      for (int64_t d = 0; d < index.dim(); ++d) {
        src_offset += (rest / index_strides[d]) * src_strides[d];
        rest %= index_strides[d];
      }
      o[offset] = static_cast<T>(static_cast<C>(o[offset]) + static_cast<C>(s[src_offset]));
    });
  });
  return {out};
}

std::vector<Tensor> kernel_embedding(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_embedding(args))[0];
  select_rows(out, tensor::contiguous(args.tensor(0)), 0, indices_of(args.tensor(1)));
  return {out};
}

std::vector<Tensor> kernel_embedding_dense_backward(const Arguments& args) {
  const Tensor grad = tensor::contiguous(args.tensor(0));
  const std::vector<int64_t> indices = indices_of(args.tensor(1));
  const int64_t num_weights = args.int_value(2), padding_idx = args.int_value(3);
  const bool scale_by_frequency = args.bool_value(4);
  const int64_t width = grad.sizes().back();
  const Tensor out = tensor::zeros({num_weights, width}, grad.dtype());
  std::vector<int64_t> counts(num_weights, 0);
  for (int64_t i : indices) ++counts[checked_index(i, num_weights, "index out of range in self")];
  tensor::visit_dtype(grad.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    T* o = out.data_ptr<T>();
    const T* g = grad.data_ptr<T>();
    for (size_t n = 0; n < indices.size(); ++n) {
      const int64_t row = indices[n] < 0 ? indices[n] + num_weights : indices[n];
      if (indices[n] == padding_idx) continue;
      const C scale = scale_by_frequency ? C(1) / static_cast<C>(counts[row]) : C(1);
      for (int64_t k = 0; k < width; ++k)
        o[row * width + k] = static_cast<T>(static_cast<C>(o[row * width + k]) + scale * static_cast<C>(g[n * width + k]));
    }
  });
  return {out};
}

}  // namespace kiln::ops
