#include "libcompiler/ops/autograd/saved_variable.h"

#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

std::string legacy_type_name(const Tensor& self) {
  const std::string device = self.device().type == tensor::DeviceType::CUDA ? "cuda." : "";
  return "torch." + device + std::string(tensor::scalar_type_name(self.dtype())) + "Tensor";
}

SavedVariable::SavedVariable(const Tensor& variable, bool is_output, bool of_single_output_op) {
  if (!variable.defined()) return;
  saved_none_ = false;
  is_output_ = is_output;
  saved_version_ = variable.version();
  requires_grad_ = variable.requires_grad();
  output_nr_ = ops::output_nr(variable);
  detached_for_tracer_ = is_output && of_single_output_op && is_recording_calls();
  data_ = detached_for_tracer_ ? ops::detach(variable) : is_output ? variable.tensor_data() : variable;
}

void SavedVariable::keep_as_output_if_shares_data(const Tensor& written, uint32_t output_nr) {
  if (!data_.defined() || is_output_ || data_.impl()->version_counter != written.impl()->version_counter) return;
  data_ = data_.tensor_data();
  is_output_ = true;
  output_nr_ = output_nr;
}

void SavedVariable::release() {
  data_ = Tensor();
  released_ = true;
}

Tensor SavedVariable::unpack(const std::shared_ptr<Node>& owner) const {
  if (saved_none_) return Tensor();
  if (released_)
    tensor::throw_runtime_error(
        "Trying to backward through the graph a second time (or directly access saved tensors after they have "
        "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
        "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
        "you need to access saved tensors after calling backward.");
  const std::shared_ptr<Node> producer = is_output_ ? owner : grad_fn(data_);
  if (data_.version() != saved_version_) {
    std::string message = "one of the variables needed for gradient computation has been modified by an inplace "
                          "operation: [" + legacy_type_name(data_) + " " + tensor::shape_str(data_.sizes()) + "]";
    if (producer) message += ", which is output " + std::to_string(output_nr_) + " of " + producer->name() + ",";
    message += " is at version " + std::to_string(data_.version()) + "; expected version " +
               std::to_string(saved_version_) +
               " instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
               "with torch.autograd.set_detect_anomaly(True).";
    tensor::throw_runtime_error(message);
  }
  if (!is_output_) return data_;
  Tensor unpacked = detached_for_tracer_ && is_recording_calls() ? ops::detach(data_) : data_.tensor_data();
  if (requires_grad_) set_history(unpacked, owner, output_nr_);
  return unpacked;
}

}  // namespace kiln::ops
