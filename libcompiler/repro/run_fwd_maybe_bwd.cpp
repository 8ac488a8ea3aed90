#include "libcompiler/repro/run_fwd_maybe_bwd.h"

#include <stdexcept>

#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/engine.h"
#include "libcompiler/ops/ops.h"

namespace kiln::repro {

namespace {

ops::Tensor tensor_loss(const ops::Tensor& out) { return ops::div(ops::sum(out), ops::Scalar(out.numel())); }

// sum(losses) / len(losses); Python's sum adds its start, 0, first, which changes no value.
ops::Tensor mean_of(const std::vector<ops::Tensor>& losses) {
  ops::Tensor total = losses.front();
  for (size_t i = 1; i < losses.size(); ++i) total = ops::add(total, losses[i]);
  return ops::div(total, ops::Scalar(int64_t(losses.size())));
}

ops::Tensor value_loss(const ops::IValue& value) {
  if (value.is_tensor()) return tensor_loss(value.to_tensor());
  if (value.is_tensor_list() && !value.to_tensor_list().empty()) {
    std::vector<ops::Tensor> losses;
    for (const ops::Tensor& t : value.to_tensor_list()) losses.push_back(tensor_loss(t));
    return mean_of(losses);
  }
  throw std::invalid_argument("Don't know how to reduce a " + std::string(value.is_none() ? "None" : "non-tensor") + " output");
}

}  // namespace

std::vector<ops::IValue> clone_inputs_retaining_gradness(const std::vector<ops::IValue>& inputs) {
  std::vector<ops::IValue> clones;
  for (const ops::IValue& input : inputs) {
    if (!input.is_tensor()) {
      clones.push_back(input);
      continue;
    }
    const ops::Tensor& t = input.to_tensor();
    ops::Tensor clone = ops::clone(ops::detach(t));
    clone.set_requires_grad(t.requires_grad());
    clones.emplace_back(std::move(clone));
  }
  return clones;
}

bool requires_bwd_pass(const std::vector<ops::IValue>& outputs) {
  for (const ops::IValue& out : outputs) {
    if (out.is_tensor() && out.to_tensor().requires_grad()) return true;
    if (out.is_tensor_list())
      for (const ops::Tensor& t : out.to_tensor_list())
        if (t.requires_grad()) return true;
  }
  return false;
}

ops::Tensor reduce_to_scalar_loss(const std::vector<ops::IValue>& outputs) {
  if (outputs.empty()) throw std::invalid_argument("Don't know how to reduce an empty output tuple");
  std::vector<ops::Tensor> losses;
  for (const ops::IValue& out : outputs) losses.push_back(value_loss(out));
  return mean_of(losses);
}

std::vector<ops::IValue> collect_results(const std::vector<ops::IValue>& outputs, const std::vector<ops::IValue>& inputs) {
  std::vector<ops::IValue> results = outputs;
  for (const ops::IValue& input : inputs)
    if (input.is_tensor()) results.emplace_back(ops::grad(input.to_tensor()));
  return results;
}

std::vector<ops::IValue> run_fwd_maybe_bwd(const GraphForward& forward, const std::vector<ops::IValue>& inputs, bool only_fwd) {
  const std::vector<ops::IValue> args = clone_inputs_retaining_gradness(inputs);
  std::vector<ops::IValue> outputs = forward(args);
  if (only_fwd) return outputs;
  if (requires_bwd_pass(outputs)) ops::backward({reduce_to_scalar_loss(outputs)});
  return collect_results(outputs, args);
}

}  // namespace kiln::repro
