#pragma once
// repr()/str() of tensors and of the values around them, character for character as PyTorch
// prints them (torch/_tensor_str.py): precision, integer mode, scientific mode, summarisation
// with "...", wrapping at the line width, and the dtype=/device=/requires_grad=/grad_fn= suffixes.
#include <optional>
#include <string>
#include <string_view>

#include "libcompiler/tensor/tensor.h"

namespace kiln::tensor {

// torch.set_printoptions.
struct PrintOptions {
  int precision = 4;
  int64_t threshold = 1000;  // more elements than this are summarised
  int64_t edgeitems = 3;
  int64_t linewidth = 80;
  std::optional<bool> sci_mode;  // nullopt: decided from the values
};
PrintOptions& print_options();

// repr(tensor) (str is the same). grad_fn_name is the name of the tensor's grad_fn node
// ("AddBackward0"), empty for a leaf: autograd supplies it once it exists.
std::string tensor_repr(const Tensor& self, std::string_view grad_fn_name = {});
// repr(tensor.shape): "torch.Size([2, 3])".
std::string size_repr(const Shape& sizes);
// repr(tensor.tolist()): nested Python lists of floats, ints or bools; a 0-dim tensor gives the number.
std::string tolist_repr(const Tensor& self);
// repr(tensor.item()).
std::string item_repr(const Tensor& self);

}  // namespace kiln::tensor
