#pragma once
// SavedVariable: a tensor a backward formula needs, kept from the forward. It remembers the
// version it was saved at, so a later in-place change is an error instead of a wrong gradient,
// and it can be released after backward (retain_graph=False).
//
// An output of the node that saves it is kept as its data alone (Tensor::tensor_data(): no view
// base, no autograd state), as PyTorch does: the node would otherwise own itself through the
// tensor's grad_fn. It gets its grad_fn back on unpack from the node that unpacks it.
//
// While an aten-level tracer records the calls (make_fx), the output of a one-output op is saved
// and unpacked through the detach op, as PyTorch's joint graphs show it (`detach` after the op,
// `detach` of that in the backward), so that the tracer sees where the saved value comes from.
#include <cstdint>
#include <memory>

#include "libcompiler/ops/autograd/node.h"

namespace kiln::ops {

class SavedVariable {
 public:
  SavedVariable() = default;
  // `of_single_output_op`: the variable is the only output of the op saving it.
  SavedVariable(const Tensor& variable, bool is_output, bool of_single_output_op = false);

  // The saved tensor (undefined if None was saved). `owner` is the node holding this variable.
  // RuntimeError if released or modified in place since it was saved.
  Tensor unpack(const std::shared_ptr<Node>& owner) const;
  void release();

  // For an input of an in-place op that shares data with the tensor the op wrote (z.mul_(z)):
  // that tensor is now the op's output `output_nr` and its history leads back to the saving
  // node, so the input is kept as a saved output is. Unpacking it fails the version check either
  // way; this only keeps the node from owning itself.
  void keep_as_output_if_shares_data(const Tensor& written, uint32_t output_nr);

 private:
  Tensor data_;
  bool saved_none_ = true;
  bool is_output_ = false;
  bool detached_for_tracer_ = false;
  bool released_ = false;
  bool requires_grad_ = false;
  uint32_t saved_version_ = 0;
  uint32_t output_nr_ = 0;
};

// "torch.FloatTensor": the legacy type name PyTorch uses in autograd messages.
std::string legacy_type_name(const Tensor& self);

}  // namespace kiln::ops
