#include "libcompiler/ops/autograd/table_node.h"

#include "libcompiler/ops/autograd/formulas.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

std::vector<Tensor> input_slots(const Arguments& args) {
  const auto& schema_args = args.schema().arguments;
  // Sized first: every op call gathers its slots, and growing the vector costs an allocation.
  size_t count = 0;
  for (size_t i = 0; i < schema_args.size(); ++i)
    if (schema_args[i].type.base == SchemaType::Base::Tensor)
      count += schema_args[i].type.is_list ? args.tensor_list(i).size() : 1;
  std::vector<Tensor> slots;
  slots.reserve(count);
  for (size_t i = 0; i < schema_args.size(); ++i) {
    if (schema_args[i].type.base != SchemaType::Base::Tensor) continue;
    if (schema_args[i].type.is_list) {
      for (const Tensor& t : args.tensor_list(i)) slots.push_back(t);
    } else {
      slots.push_back(args.optional_tensor(i));
    }
  }
  return slots;
}

namespace {

// The forward arguments with every tensor replaced by None: the node must not keep tensors alive
// that its formula does not need.
std::vector<IValue> without_tensors(const Arguments& args) {
  std::vector<IValue> values = args.values();
  for (IValue& v : values)
    if (v.is_tensor() || v.is_tensor_list()) v = IValue();
  return values;
}

}  // namespace

BackwardContext::BackwardContext(const OpInfo& op, const Arguments& args)
    : op_(&op), args_(args.schema(), without_tensors(args)) {
  for (const Tensor& t : input_slots(args)) {
    if (t.defined()) inputs_.push_back(Node::OutputMeta{t.sizes(), t.dtype(), t.device()});
    else inputs_.push_back(Node::OutputMeta{{}, tensor::DType::Float32, tensor::kCPU});
  }
}

Tensor BackwardContext::saved(std::string_view name) const {
  for (const auto& [saved_name, variable] : saved_)
    if (saved_name == name) return variable.unpack(owner_.lock());
  throw std::logic_error("ops.def: " + op_->qualified_name() + " reads '" + std::string(name) +
                         "' but its Saved column does not list it");
}

void TableNode::save_inputs(const Arguments& args, const Tensor& original_self, const std::vector<Edge>& edges) {
  context_.owner_ = weak_from_this();
  for (const Edge& e : edges) context_.needs_grad_.push_back(e.valid());
  for (const std::string& name : context_.op().saved) {
    if (name.starts_with("result")) continue;
    const auto index = args.schema().argument_index(name);
    if (!index) throw std::logic_error("ops.def: " + context_.op().qualified_name() + " saves unknown '" + name + "'");
    const IValue& value = args[*index];
    if (value.is_tensor()) {
      const Tensor& t = (*index == 0 && original_self.defined()) ? original_self : value.to_tensor();
      context_.saved_.emplace_back(name, SavedVariable(t, /*is_output=*/false));
    } else {
      context_.saved_.emplace_back(name, SavedVariable());
    }
  }
}

void TableNode::save_outputs(const std::vector<Tensor>& outputs) {
  if (context_.op().schema.is_inplace())
    for (auto& entry : context_.saved_) entry.second.keep_as_output_if_shares_data(outputs.at(0), /*output_nr=*/0);
  for (const std::string& name : context_.op().saved) {
    if (!name.starts_with("result")) continue;
    const size_t index = name == "result" ? 0 : std::stoul(name.substr(6));
    context_.saved_.emplace_back(name, SavedVariable(outputs.at(index), /*is_output=*/true, outputs.size() == 1));
  }
}

std::vector<Tensor> TableNode::apply(std::vector<Tensor>&& grad_outputs) {
  if (!context_.op().backward)
    tensor::throw_runtime_error("the derivative for '" + context_.op().name() + "' is not implemented.");
  std::vector<Tensor> grads = context_.op().backward(context_, grad_outputs);
  grads.resize(context_.num_inputs());
  for (size_t i = 0; i < grads.size(); ++i)
    if (!context_.needs_input_grad(i)) grads[i] = Tensor();
  return grads;
}

bool TableNode::is_differentiable_output(size_t i) const {
  // The engine gives zeros for a missing gradient of a differentiable output; a formula that
  // leaves out the term of a missing gradient itself (derivatives.yaml's `grad.defined() ?`)
  // gets it missing, as PyTorch gives it: var_mean's var term is NaN on a zero gradient when
  // the reduced size is 1 (0 * 2 / (n - 1)).
  if (context_.op().backward == &backward_var_mean) return false;
  const int limit = context_.op().differentiable_outputs;
  return limit < 0 || static_cast<int>(i) < limit;
}

void TableNode::release_variables() {
  for (auto& entry : context_.saved_) entry.second.release();
}

}  // namespace kiln::ops
