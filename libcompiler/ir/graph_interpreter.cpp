#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ir/literal_value.h"
#include "libcompiler/ir/python_operators.h"
#include "libcompiler/ir/table_op.h"
#include "libcompiler/ir/tensor_types.h"

#include <functional>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "libcompiler/ops/argument_binding.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ir {

using ops::IValue;
using ops::Tensor;
using tensor::DType;

std::string opNameForTarget(const std::string& target) {
  static const std::unordered_map<std::string, std::string> table = {
#define KILN_INTERPRETER_TARGET(Target, OpName) {Target, OpName},
#include "libcompiler/ir/interpreter_targets.def"
  };
  const auto it = table.find(target);
  return it == table.end() ? std::string() : it->second;
}

namespace {

[[noreturn]] void unsupported(const Node& node, const std::string& what) {
  throw std::invalid_argument("graph interpreter: node '" + node.name() + "' (" + std::string(opcodeName(node.op())) +
                              " " + node.target() + "): " + what);
}

DType requireTensorDtype(Dtype dtype) {
  const auto converted = ir::tensorDtype(dtype);
  if (!converted) throw std::invalid_argument("graph interpreter: no tensor dtype " + std::string(dtypeTorchName(dtype)));
  return *converted;
}

// A floating tensor as the float64 reference wants it; anything else unchanged.
IValue upcast(const IValue& value) {
  if (value.is_tensor() && tensor::is_floating_point(value.to_tensor().dtype()) &&
      value.to_tensor().dtype() != DType::Float64)
    return IValue(ops::to_copy(value.to_tensor(), DType::Float64));
  return value;
}

// A list argument as the op table takes lists: all tensors, all ints, all bools or all floats.
IValue listValue(const std::vector<IValue>& items) {
  auto all = [&](auto predicate) {
    for (const IValue& v : items)
      if (!predicate(v)) return false;
    return true;
  };
  if (all([](const IValue& v) { return v.is_tensor(); })) {
    IValue::TensorList tensors;
    for (const IValue& v : items) tensors.push_back(v.to_tensor());
    return IValue(std::move(tensors));
  }
  if (all([](const IValue& v) { return v.is_int(); })) {
    IValue::IntList ints;
    for (const IValue& v : items) ints.push_back(v.to_int());
    return IValue(std::move(ints));
  }
  if (all([](const IValue& v) { return v.is_bool(); })) {
    IValue::BoolList bools;
    for (const IValue& v : items) bools.push_back(v.to_bool());
    return IValue(std::move(bools));
  }
  if (all([](const IValue& v) { return v.is_number(); })) {
    IValue::DoubleList doubles;
    for (const IValue& v : items) doubles.push_back(v.to_double());
    return IValue(std::move(doubles));
  }
  throw std::invalid_argument("graph interpreter: a list mixing kinds of values");
}

// Python number arithmetic for operator.* on SymInt/float values (sizes computed in the graph).
std::optional<IValue> numberOperator(const Node& node, const std::vector<IValue>& args) {
  for (const IValue& a : args)
    if (!a.is_number()) return std::nullopt;
  const std::optional<PythonOperator> op = operatorForTarget(node.target());
  if (!op) return std::nullopt;
  const bool ints = args.size() >= 1 && args[0].is_int() && (args.size() < 2 || args[1].is_int());
  if (op->id == PythonOperatorId::Neg && args.size() == 1)
    return ints ? IValue(-args[0].to_int()) : IValue(-args[0].to_double());
  if (args.size() != 2) return std::nullopt;
  if (ints) {
    const int64_t a = args[0].to_int(), b = args[1].to_int();
    switch (op->id) {
      case PythonOperatorId::Add: return IValue(a + b);
      case PythonOperatorId::Sub: return IValue(a - b);
      case PythonOperatorId::Mul: return IValue(a * b);
      case PythonOperatorId::Floordiv:
      case PythonOperatorId::Mod: {
        if (b == 0) tensor::throw_value_error("integer division or modulo by zero");
        const int64_t q = a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
        return op->id == PythonOperatorId::Floordiv ? IValue(q) : IValue(a - q * b);
      }
      default: break;
    }
  }
  const double a = args[0].to_double(), b = args[1].to_double();
  switch (op->id) {
    case PythonOperatorId::Add: return IValue(a + b);
    case PythonOperatorId::Sub: return IValue(a - b);
    case PythonOperatorId::Mul: return IValue(a * b);
    case PythonOperatorId::Truediv: return IValue(a / b);
    case PythonOperatorId::Eq: return IValue(a == b);
    case PythonOperatorId::Ne: return IValue(a != b);
    case PythonOperatorId::Lt: return IValue(a < b);
    case PythonOperatorId::Le: return IValue(a <= b);
    case PythonOperatorId::Gt: return IValue(a > b);
    case PythonOperatorId::Ge: return IValue(a >= b);
    default: return std::nullopt;
  }
}

// container[index] for the values graphs subscript: a multi-output result, a size, or a tensor
// with an int, a slice, None or a tuple of them (basic indexing through select, slice, unsqueeze).
IValue getitem(const IValue& container, const Argument& index, const std::function<IValue(const Argument&)>& value) {
  if (container.is_tensor_list() || container.is_int_list()) {
    const int64_t size = static_cast<int64_t>(container.is_tensor_list() ? container.to_tensor_list().size()
                                                                          : container.to_int_list().size());
    int64_t i = value(index).to_int();
    if (i < 0) i += size;
    if (i < 0 || i >= size) tensor::throw_index_error("tuple index out of range");
    if (container.is_tensor_list()) return IValue(container.to_tensor_list()[static_cast<size_t>(i)]);
    return IValue(container.to_int_list()[static_cast<size_t>(i)]);
  }
  if (!container.is_tensor()) throw std::invalid_argument("graph interpreter: subscript of a non-container");
  std::vector<const Argument*> parts;
  if (const auto* seq = index.asSequence(); seq && seq->isTuple)
    for (const Argument& item : seq->items) parts.push_back(&item);
  else
    parts.push_back(&index);
  Tensor result = container.to_tensor();
  int64_t dim = 0;
  for (const Argument* part : parts) {
    if (const auto* sl = std::get_if<ArgumentSlice>(&part->value)) {
      auto bound = [&](const Argument& a) -> std::optional<int64_t> {
        const IValue v = value(a);
        return v.is_none() ? std::nullopt : std::optional<int64_t>(v.to_int());
      };
      result = ops::slice(result, dim, bound(sl->parts[0]), bound(sl->parts[1]), bound(sl->parts[2]).value_or(1));
      ++dim;
    } else if (std::holds_alternative<NoneValue>(part->value)) {
      result = ops::unsqueeze(result, dim);
      ++dim;
    } else if (const IValue v = value(*part); v.is_int()) {
      result = ops::select(result, dim, v.to_int());
    } else {
      throw std::invalid_argument("graph interpreter: tensor index " + index.repr());
    }
  }
  return IValue(result);
}

// f(2, 3) for an op whose first parameter is int[] (torch.ones(2, 3)): packed, as Python binding
// of *size does.
// Sizes given as separate ints (torch.zeros(2, 3), x.view(2, -1), x.view(-1)) packed into the one
// int list the op's schema takes at `at` (0 for a function, 1 for a method after self).
void packSizeArguments(std::string_view name, std::vector<IValue>& args, size_t at) {
  const auto overloads = ops::overloads_of(name);
  if (overloads.empty() || args.size() < at + (at == 0 ? 2 : 1)) return;
  const auto& params = overloads.front()->schema.arguments;
  if (params.size() <= at || !params[at].type.is_list || params[at].type.base == ops::SchemaType::Base::Tensor) return;
  for (size_t i = at; i < args.size(); ++i)
    if (!args[i].is_int()) return;
  IValue::IntList sizes;
  for (size_t i = at; i < args.size(); ++i) sizes.push_back(args[i].to_int());
  args.resize(at);
  args.emplace_back(std::move(sizes));
}

// torch.nn.functional.cross_entropy(input, target, weight, size_average, ignore_index, reduce,
// reduction, label_smoothing) as the op's (self, target, weight, reduction, ignore_index,
// label_smoothing); the deprecated size_average/reduce must be None.
void crossEntropyArguments(std::vector<IValue>& args, std::vector<ops::KeywordArgument>& kwargs) {
  static const char* const names[] = {"input", "target", "weight", "size_average", "ignore_index", "reduce",
                                      "reduction", "label_smoothing"};
  std::map<std::string, IValue> named;
  for (size_t i = 0; i < args.size() && i < std::size(names); ++i) named[names[i]] = args[i];
  for (const auto& kw : kwargs) named[kw.name] = kw.value;
  if (!named["size_average"].is_none() || !named["reduce"].is_none())
    throw std::invalid_argument("graph interpreter: cross_entropy with the deprecated size_average/reduce");
  const IValue reduction = named["reduction"];
  const std::string mode = reduction.is_none() ? "mean" : reduction.to_string();
  const int64_t reduction_enum = mode == "none" ? 0 : mode == "mean" ? 1 : mode == "sum" ? 2 : -1;
  if (reduction_enum < 0) tensor::throw_value_error(mode + " is not a valid value for reduction");
  args = {named["input"], named["target"], named["weight"], IValue(reduction_enum)};
  kwargs.clear();
  if (!named["ignore_index"].is_none()) kwargs.push_back({"ignore_index", named["ignore_index"]});
  if (!named["label_smoothing"].is_none()) kwargs.push_back({"label_smoothing", named["label_smoothing"]});
}

// F.batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
// momentum=0.1, eps=1e-05) as aten's batch_norm(input, weight, bias, running_mean, running_var,
// training, momentum, eps, cudnn_enabled).
void functionalBatchNormArguments(std::vector<IValue>& args, std::vector<ops::KeywordArgument>& kwargs) {
  static const char* const names[] = {"input", "running_mean", "running_var", "weight", "bias", "training", "momentum", "eps"};
  std::map<std::string, IValue> named = {{"training", IValue(false)}, {"momentum", IValue(0.1)}, {"eps", IValue(1e-5)}};
  for (size_t i = 0; i < args.size() && i < std::size(names); ++i) named[names[i]] = args[i];
  for (const auto& kw : kwargs) named[kw.name] = kw.value;
  args = {named["input"], named["weight"], named["bias"], named["running_mean"], named["running_var"],
          named["training"], named["momentum"], named["eps"], IValue(false)};
  kwargs.clear();
}

IValue singleResult(const ops::OpInfo& op, std::vector<Tensor> results) {
  const auto& returns = op.schema.returns;
  if (returns.size() == 1 && !returns[0].type.is_list) return IValue(results.at(0));
  return IValue(std::move(results));
}

IValue callOp(const ops::OpInfo& op, const std::vector<IValue>& positional,
              const std::vector<ops::KeywordArgument>& keywords) {
  return singleResult(op, ops::call(op, ops::bind_arguments(op.schema, positional, keywords, ops::NoneForTensor::Undefined)));
}

IValue callByName(const std::string& name, const std::vector<IValue>& positional,
                  const std::vector<ops::KeywordArgument>& keywords) {
  auto [op, bound] = ops::resolve_overload(name, positional, keywords);
  return singleResult(*op, ops::call(*op, bound));
}

// Tensor methods that are not ops of the table.
std::optional<IValue> tensorMethod(const std::string& name, const std::vector<IValue>& args) {
  const Tensor& self = args.at(0).to_tensor();
  static const std::unordered_map<std::string, DType> conversions = {
      {"float", DType::Float32}, {"double", DType::Float64}, {"half", DType::Float16}, {"bfloat16", DType::BFloat16},
      {"long", DType::Int64},    {"int", DType::Int32},      {"bool", DType::Bool}};
  if (const auto it = conversions.find(name); it != conversions.end()) return IValue(ops::to_dtype(self, it->second));
  if (name == "to" && args.size() == 2 && args[1].is_dtype()) return IValue(ops::to_dtype(self, args[1].to_dtype()));
  if (name == "size") {
    if (args.size() == 1) return IValue(IValue::IntList(self.sizes().begin(), self.sizes().end()));
    return IValue(self.size(args[1].to_int()));
  }
  if (name == "dim") return IValue(self.dim());
  if (name == "item") return IValue(tensor::item(self));
  if (name == "numel") return IValue(self.numel());
  return std::nullopt;
}

class Run {
 public:
  Run(const GraphModule& module, const InterpreterOptions& options, const std::map<std::string, Tensor>& attributes)
      : module_(module), options_(options), attributes_(attributes) {}

  std::vector<IValue> operator()(const std::vector<IValue>& inputs) {
    size_t next_input = 0;
    for (const Node* node : module_.graph.nodes()) {
      switch (node->op()) {
        case OpCode::Placeholder:
          if (next_input >= inputs.size())
            throw std::invalid_argument("graph interpreter: " + std::to_string(inputs.size()) +
                                        " inputs for a graph with more placeholders");
          values_[node] = options_.float64 ? upcast(inputs[next_input]) : inputs[next_input];
          ++next_input;
          break;
        case OpCode::GetAttr: {
          // A subgraph (a cond branch) is read by the higher-order op that runs it.
          if (module_.submodule(node->target())) {
            values_[node] = IValue();
            break;
          }
          const auto it = attributes_.find(node->target());
          if (it == attributes_.end()) unsupported(*node, "no tensor bound to this attribute");
          values_[node] = options_.float64 ? upcast(IValue(it->second)) : IValue(it->second);
          break;
        }
        case OpCode::CallFunction:
          values_[node] = callFunction(*node);
          // A factory (no tensor among its inputs) makes float32 by default: float64 in the
          // reference, as if the default dtype were float64.
          if (options_.float64 && !hasTensorInput(*node)) values_[node] = upcast(values_[node]);
          break;
        case OpCode::CallMethod: values_[node] = callMethod(*node); break;
        case OpCode::CallModule: values_[node] = callModule(*node); break;
        case OpCode::Output: return flatten(*node);
      }
      if (options_.onNodeValue) options_.onNodeValue(*node, values_.at(node));
    }
    throw std::invalid_argument("graph interpreter: the graph has no output node");
  }

 private:
  IValue value(const Argument& argument) {
    const auto& v = argument.value;
    if (const auto* n = std::get_if<Node*>(&v)) return values_.at(*n);
    if (const auto* seq = std::get_if<ArgumentSequence>(&v)) {
      std::vector<IValue> items;
      for (const Argument& item : seq->items) items.push_back(value(item));
      return items.empty() ? IValue(IValue::IntList{}) : listValue(items);
    }
    if (const auto* d = std::get_if<Dtype>(&v)) {
      // cast_to_fp64 rewrites casts to floating types; factories with a floating dtype are
      // treated alike, or the reference would round to float32 midway.
      const DType dtype = requireTensorDtype(*d);
      return IValue(options_.float64 && tensor::is_floating_point(dtype) ? DType::Float64 : dtype);
    }
    if (auto literal = literalValue(argument)) return std::move(*literal);
    throw std::invalid_argument("graph interpreter: cannot evaluate argument " + argument.repr());
  }

  bool hasTensorInput(const Node& node) const {
    for (const Node* input : node.inputNodes()) {
      const IValue& v = values_.at(input);
      if (v.is_tensor() || v.is_tensor_list()) return true;
    }
    return false;
  }

  std::vector<IValue> positional(const Node& node) {
    std::vector<IValue> out;
    for (const Argument& a : node.args()) out.push_back(value(a));
    return out;
  }
  std::vector<ops::KeywordArgument> keywords(const Node& node) {
    std::vector<ops::KeywordArgument> out;
    for (const KeywordArgument& kw : node.kwargs()) out.push_back({kw.name, value(kw.value)});
    return out;
  }

  IValue callFunction(const Node& node) {
    const std::string& target = node.target();
    // The index is read as syntax (slices, None), not evaluated as a plain argument.
    if (node.is(BuiltinTarget::Getitem))
      return getitem(value(node.args().at(0)), node.args().at(1), [this](const Argument& a) { return value(a); });
    if (node.is(BuiltinTarget::Cond)) return callCond(node);
    std::vector<IValue> args = positional(node);
    std::vector<ops::KeywordArgument> kwargs = keywords(node);
    // Tensor.item() in aten graphs: a number, which the op table (tensors in, tensors out) has no
    // op for.
    if (node.is(BuiltinTarget::LocalScalarDense) && args.size() == 1) return *tensorMethod("item", args);
    if (namesTableOp(node)) {
      const ops::OpInfo* op = tableOp(node);
      if (!op) unsupported(node, "not in the op table");
      return callOp(*op, args, kwargs);
    }
    if (auto number = numberOperator(node, args)) return *number;
    const std::string name = opNameForTarget(target);
    if (name.empty()) unsupported(node, "no op for this target (interpreter_targets.def)");
    // Activations of torch.nn.functional take inplace=; the out-of-place op is the same call.
    std::erase_if(kwargs, [](const ops::KeywordArgument& kw) {
      return kw.name == "inplace" && kw.value.is_bool() && !kw.value.to_bool();
    });
    if (node.is(BuiltinTarget::CrossEntropy)) crossEntropyArguments(args, kwargs);
    if (node.is(BuiltinTarget::FunctionalBatchNorm)) functionalBatchNormArguments(args, kwargs);
    packSizeArguments(name, args, 0);
    return callByName(name, args, kwargs);
  }

  // cond(pred, true_graph, false_graph, operands): the branch the predicate picks runs on the
  // operands; its outputs are the node's tuple.
  IValue callCond(const Node& node) {
    if (node.args().size() != 4) unsupported(node, "cond takes (pred, true_graph, false_graph, operands)");
    const IValue pred = value(node.args()[0]);
    const bool taken = pred.is_tensor() ? tensor::item(pred.to_tensor()).to<bool>() : pred.to_bool();
    const Node* branch = node.args()[taken ? 1 : 2].asNode();
    const GraphModule* submodule = branch ? module_.submodule(branch->target()) : nullptr;
    if (!submodule) unsupported(node, "a cond branch is not a graph submodule");
    std::vector<IValue> operands;
    if (const auto* seq = node.args()[3].asSequence())
      for (const Argument& item : seq->items) operands.push_back(value(item));
    // onNodeValue reports the outer graph's nodes only.
    InterpreterOptions branch_options = options_;
    branch_options.onNodeValue = nullptr;
    return listValue(Run(*submodule, branch_options, attributes_)(operands));
  }

  IValue callMethod(const Node& node) {
    std::vector<IValue> args = positional(node);
    if (args.empty() || !args[0].is_tensor()) unsupported(node, "a method call on something other than a tensor");
    if (auto result = tensorMethod(node.target(), args)) return *result;
    packSizeArguments(node.target(), args, 1);
    return callByName(node.target(), args, keywords(node));
  }

  IValue callModule(const Node& node) {
    const GraphModule* submodule = module_.submodule(node.target());
    if (!submodule) unsupported(node, "not a graph submodule");
    std::vector<IValue> outputs = Run(*submodule, options_, attributes_)(positional(node));
    return outputs.size() == 1 ? outputs[0] : listValue(outputs);
  }

  std::vector<IValue> flatten(const Node& output) {
    if (output.args().empty()) return {};
    const Argument& result = output.args()[0];
    if (const auto* seq = result.asSequence()) {
      std::vector<IValue> out;
      for (const Argument& item : seq->items) out.push_back(value(item));
      return out;
    }
    return {value(result)};
  }

  const GraphModule& module_;
  const InterpreterOptions& options_;
  const std::map<std::string, Tensor>& attributes_;
  std::unordered_map<const Node*, IValue> values_;
};

}  // namespace

GraphInterpreter::GraphInterpreter(const GraphModule& module, InterpreterOptions options)
    : module_(module), options_(options) {}

void GraphInterpreter::bindAttribute(const std::string& target, Tensor value) {
  attributes_[target] = std::move(value);
}

std::vector<IValue> GraphInterpreter::run(const std::vector<IValue>& inputs) const {
  return Run(module_, options_, attributes_)(inputs);
}

}  // namespace kiln::ir
