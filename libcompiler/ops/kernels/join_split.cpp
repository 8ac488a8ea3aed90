// cat and stack copy each input into its slice of one result; split returns views (narrow) and
// chunk is split with the chunk size ATen computes; repeat copies the input into every tile.
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

std::vector<Tensor> kernel_cat(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_cat(args))[0];
  const auto& tensors = args.tensor_list(0);
  if (out.dim() == 1 && out.numel() == 0) return {out};
  const int64_t dim = tensor::wrap_dim(args.int_value(1), out.dim());
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (t.dim() == 1 && t.numel() == 0) continue;
    tensor::copy_elements(tensor::narrow(out, dim, offset, t.sizes()[dim]), t);
    offset += t.sizes()[dim];
  }
  return {out};
}

std::vector<Tensor> kernel_stack(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_stack(args))[0];
  const auto& tensors = args.tensor_list(0);
  const int64_t dim = tensor::wrap_dim(args.int_value(1), out.dim());
  for (size_t i = 0; i < tensors.size(); ++i)
    tensor::copy_elements(tensor::select(out, dim, static_cast<int64_t>(i)), tensors[i]);
  return {out};
}

std::vector<Tensor> kernel_split(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const int64_t split_size = args.int_value(1);
  if (self.dim() == 0) tensor::throw_runtime_error("split expects at least a 1-dimensional tensor");
  if (split_size < 0)
    tensor::throw_runtime_error("split expects split_size be non-negative, but got split_size=" +
                                std::to_string(split_size));
  const int64_t dim = tensor::wrap_dim(args.int_value(2), self.dim());
  const int64_t length = self.sizes()[dim];
  if (split_size == 0 && length != 0)
    tensor::throw_runtime_error("split_size can only be 0 if dimension size is 0, but got dimension size of " +
                                std::to_string(length));
  const int64_t pieces = split_size == 0 ? 1 : std::max<int64_t>((length + split_size - 1) / split_size, 1);
  std::vector<Tensor> outputs;
  for (int64_t i = 0; i < pieces; ++i) {
    const int64_t start = i * split_size;
    outputs.push_back(tensor::narrow(self, dim, start, std::min(split_size, length - start)));
  }
  return outputs;
}

std::vector<Tensor> kernel_chunk(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const int64_t chunks = args.int_value(1);
  if (self.dim() == 0) tensor::throw_runtime_error("chunk expects at least a 1-dimensional tensor");
  if (chunks <= 0)
    tensor::throw_runtime_error("chunk expects `chunks` to be greater than 0, got: " + std::to_string(chunks));
  const int64_t dim = tensor::wrap_dim(args.int_value(2), self.dim());
  const int64_t length = self.sizes()[dim];
  const int64_t split_size = (length + chunks - 1) / chunks;
  return split(self, split_size, dim);
}

// The result viewed as [r0, .., (r_d, s_d) pairs ..] takes the input viewed as [1, .., (1, s_d)
// ..] expanded over the repeat counts: one strided copy fills every tile.
std::vector<Tensor> kernel_repeat(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_repeat(args))[0];
  const Tensor& self = args.tensor(0);
  const std::vector<int64_t>& repeats = args.int_list(1);
  if (out.numel() == 0) return {out};
  const size_t added = repeats.size() - static_cast<size_t>(self.dim());
  Shape tiled, source;
  for (size_t d = 0; d < repeats.size(); ++d) {
    tiled.push_back(repeats[d]);
    source.push_back(1);
    if (d >= added) {
      tiled.push_back(self.size(static_cast<int64_t>(d - added)));
      source.push_back(self.size(static_cast<int64_t>(d - added)));
    }
  }
  tensor::copy_elements(tensor::view(out, tiled), tensor::expand(tensor::reshape(self, source), tiled));
  return {out};
}

}  // namespace kiln::ops
