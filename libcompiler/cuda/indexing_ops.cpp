#include "libcompiler/cuda/indexing_ops.h"

#include "libcompiler/cuda/host_fallback.h"
#include "libcompiler/cuda/indexed_move.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernel_registry.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/shape.h"

namespace kiln::cuda {

namespace {

using ops::Arguments;
using ops::OpId;
using tensor::Tensor;

// A tensor's strides over an iteration shape that is its own shape with `inserted` size-1
// (stride 0) dimensions at `at`: how an index tensor walks a shape with a trailing row.
std::vector<int64_t> with_zero_strides(std::vector<int64_t> strides, size_t at, size_t inserted) {
  strides.insert(strides.begin() + static_cast<ptrdiff_t>(at), inserted, 0);
  return strides;
}

// The strides with dimension `dim` stepping nowhere: the index supplies that coordinate.
std::vector<int64_t> without_dim(std::vector<int64_t> strides, int64_t dim) {
  strides[static_cast<size_t>(dim)] = 0;
  return strides;
}

// A 1-d index (or a number) walking dimension `dim` of a shape of `ndim` dimensions.
std::vector<int64_t> index_along(const Tensor& index, int64_t dim, size_t ndim) {
  std::vector<int64_t> strides(ndim, 0);
  strides[static_cast<size_t>(dim)] = index.dim() ? index.stride(0) : 0;
  return strides;
}

Tensor allocated(const ops::OpInfo& op, const Arguments& args) { return ops::allocate_outputs(op.meta(args))[0]; }

// index_select(self, dim, index): out[..., j, ...] = self[..., index[j], ...].
std::vector<Tensor> index_select_kernel(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor& index = args.tensor(2);
  if (self.dim() == 0) return run_on_host(ops::op_info(OpId::index_select), args);
  const int64_t dim = tensor::wrap_dim(args.int_value(1), self.dim());
  const Tensor out = allocated(ops::op_info(OpId::index_select), args);
  run_indexed_move({.sizes = out.sizes(), .dst = out, .dst_strides = out.strides(), .src = self,
                    .src_strides = without_dim(self.strides(), dim), .src_index_stride = self.stride(dim), .index = index,
                    .index_strides = index_along(index, dim, out.sizes().size()), .bound = self.size(dim)});
  return {out};
}

// embedding(weight, indices): out[p..., k] = weight[indices[p...], k].
std::vector<Tensor> embedding_kernel(const Arguments& args) {
  const Tensor& weight = args.tensor(0);
  const Tensor& indices = args.tensor(1);
  if (weight.dim() != 2) return run_on_host(ops::op_info(OpId::embedding), args);
  const Tensor out = allocated(ops::op_info(OpId::embedding), args);
  const size_t k = indices.sizes().size();
  run_indexed_move({.sizes = out.sizes(), .dst = out, .dst_strides = out.strides(), .src = weight,
                    .src_strides = with_zero_strides({weight.stride(1)}, 0, k), .src_index_stride = weight.stride(0),
                    .index = indices, .index_strides = with_zero_strides(indices.strides(), k, 1), .bound = weight.size(0)});
  return {out};
}

// gather(self, dim, index): out[p] = self[p with p[dim] = index[p]].
std::vector<Tensor> gather_kernel(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor& index = args.tensor(2);
  if (self.dim() == 0) return run_on_host(ops::op_info(OpId::gather), args);
  const int64_t dim = tensor::wrap_dim(args.int_value(1), self.dim());
  const Tensor out = allocated(ops::op_info(OpId::gather), args);
  run_indexed_move({.sizes = index.sizes(), .dst = out, .dst_strides = out.strides(), .src = self,
                    .src_strides = without_dim(self.strides(), dim), .src_index_stride = self.stride(dim), .index = index,
                    .index_strides = index.strides(), .bound = self.size(dim)});
  return {out};
}

// out = self; out[p with p[dim] = index[p]] = value, or += src[p] (scatter_add), over index's shape.
IndexedMove scatter_into(const Tensor& out, int64_t dim, const Tensor& index) {
  return {.sizes = index.sizes(), .dst = out, .dst_strides = without_dim(out.strides(), dim), .dst_index_stride = out.stride(dim),
          .index = index, .index_strides = index.strides(), .bound = out.size(dim)};
}

std::vector<Tensor> scatter_value_kernel(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  if (self.dim() == 0) return run_on_host(ops::op_info(OpId::scatter_value), args);
  const Tensor out = tensor::clone_contiguous(self);
  IndexedMove move = scatter_into(out, tensor::wrap_dim(args.int_value(1), self.dim()), args.tensor(2));
  move.value = args.scalar(3);
  run_indexed_move(move);
  return {out};
}

std::vector<Tensor> scatter_add_kernel(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  if (self.dim() == 0 || !can_accumulate(self.dtype())) return run_on_host(ops::op_info(OpId::scatter_add), args);
  const Tensor out = tensor::clone_contiguous(self);
  IndexedMove move = scatter_into(out, tensor::wrap_dim(args.int_value(1), self.dim()), args.tensor(2));
  move.src = tensor::to_dtype(args.tensor(3), out.dtype());
  move.src_strides = move.src.strides();
  move.accumulate = true;
  run_indexed_move(move);
  return {out};
}

// index_add(self, dim, index, source, alpha): out[..., index[j], ...] += alpha * source[..., j, ...].
std::vector<Tensor> index_add_kernel(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  if (self.dim() == 0 || !can_accumulate(self.dtype())) return run_on_host(ops::op_info(OpId::index_add), args);
  const int64_t dim = tensor::wrap_dim(args.int_value(1), self.dim());
  const Tensor& index = args.tensor(2);
  const Tensor source = tensor::to_dtype(args.tensor(3), self.dtype());
  const Tensor out = tensor::clone_contiguous(self);
  run_indexed_move({.sizes = source.sizes(), .dst = out, .dst_strides = without_dim(out.strides(), dim), .dst_index_stride = out.stride(dim),
                    .src = source, .src_strides = source.strides(), .scale = args.scalar(4), .index = index,
                    .index_strides = index_along(index, dim, source.sizes().size()), .bound = out.size(dim), .accumulate = true});
  return {out};
}

// embedding_dense_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq): the
// weight's gradient, each grad row added into the row its index names (atomically: rows repeat).
std::vector<Tensor> embedding_dense_backward_kernel(const Arguments& args) {
  const Tensor& grad = args.tensor(0);
  const Tensor& indices = args.tensor(1);
  const int64_t padding_idx = args.int_value(3);
  if (args.bool_value(4) || !can_accumulate(grad.dtype())) return run_on_host(ops::op_info(OpId::embedding_dense_backward), args);
  const int64_t width = grad.sizes().back();
  Tensor out = Tensor::empty({args.int_value(2), width}, grad.dtype(), grad.device());
  tensor::fill_elements(out, tensor::Scalar(0.0));
  const size_t k = indices.sizes().size();
  IndexedMove move{.sizes = grad.sizes(), .dst = out, .dst_strides = with_zero_strides({out.stride(1)}, 0, k),
                   .dst_index_stride = out.stride(0), .src = grad, .src_strides = grad.strides(), .index = indices,
                   .index_strides = with_zero_strides(indices.strides(), k, 1), .bound = out.size(0), .accumulate = true};
  if (padding_idx >= 0) move.skip = padding_idx;
  run_indexed_move(move);
  return {out};
}

}  // namespace

void register_indexing_kernels() {
  constexpr auto cuda = tensor::DeviceType::CUDA;
  ops::register_kernel(OpId::index_select, cuda, &index_select_kernel);
  ops::register_kernel(OpId::embedding, cuda, &embedding_kernel);
  ops::register_kernel(OpId::gather, cuda, &gather_kernel);
  ops::register_kernel(OpId::scatter_value, cuda, &scatter_value_kernel);
  ops::register_kernel(OpId::scatter_add, cuda, &scatter_add_kernel);
  ops::register_kernel(OpId::index_add, cuda, &index_add_kernel);
  ops::register_kernel(OpId::embedding_dense_backward, cuda, &embedding_dense_backward_kernel);
}

}  // namespace kiln::cuda
