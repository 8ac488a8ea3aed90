#include "libcompiler/fx/graph_runner.h"

#include <stdexcept>

#include "libcompiler/fx/target_objects.h"
#include "libcompiler/ir/tensor_types.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::fx {

using namespace python;

// An argument as a run evaluates it: a node's value, a constant made once, or a list, tuple or
// slice of such.
struct GraphRunner::Value {
  enum class Kind { Node, Constant, List, Tuple, Slice };
  Kind kind = Kind::Constant;
  size_t node = 0;  // Node: the step whose value it is
  Ref constant;
  std::vector<Value> items;
};

struct GraphRunner::Step {
  const ir::Node* node = nullptr;
  Ref callee;  // call_function: the target's object; get_attr: the submodule's runner as a callable
  std::vector<Value> args;
  std::vector<std::pair<std::string, Value>> kwargs;
  std::vector<size_t> outputs;  // the output node: the steps it returns
};

namespace {

[[noreturn]] void unsupported(const ir::Node& node, const std::string& what) {
  throw std::invalid_argument("graph runner: node '" + node.name() + "' (" + std::string(ir::opcodeName(node.op())) + " " +
                              node.target() + "): " + what);
}

}  // namespace

GraphRunner::GraphRunner(Interpreter& interp, const ir::GraphModule& module) : module_(module) {
  for (const ir::Node* node : module.graph.nodes()) index_[node] = steps_.size(), steps_.push_back({node});
  std::function<Value(const ir::Node&, const ir::Argument&)> value_of = [&](const ir::Node& node, const ir::Argument& a) -> Value {
    const auto& v = a.value;
    if (const auto* n = std::get_if<ir::Node*>(&v)) return {Value::Kind::Node, index_.at(*n), nullptr, {}};
    if (const auto* seq = std::get_if<ir::ArgumentSequence>(&v)) {
      Value out{seq->isTuple ? Value::Kind::Tuple : Value::Kind::List, 0, nullptr, {}};
      for (const ir::Argument& item : seq->items) out.items.push_back(value_of(node, item));
      return out;
    }
    if (const auto* slice = std::get_if<ir::ArgumentSlice>(&v)) {
      Value out{Value::Kind::Slice, 0, nullptr, {}};
      for (const ir::Argument& part : slice->parts) out.items.push_back(value_of(node, part));
      return out;
    }
    Ref constant;
    if (std::holds_alternative<ir::NoneValue>(v)) constant = none();
    else if (const auto* b = std::get_if<bool>(&v)) constant = py_bool(*b);
    else if (const auto* i = std::get_if<int64_t>(&v)) constant = py_int(*i);
    else if (const auto* d = std::get_if<double>(&v)) constant = py_float(*d);
    else if (const auto* s = std::get_if<std::string>(&v)) constant = py_str(*s);
    else if (std::holds_alternative<ir::EllipsisValue>(v)) constant = ellipsis();
    else if (const auto* device = std::get_if<ir::Device>(&v)) constant = make_device(*device);
    else if (const auto* global = std::get_if<ir::GlobalName>(&v)) constant = target_object(interp, global->qualifiedName);
    else if (const auto* dtype = std::get_if<ir::Dtype>(&v)) {
      const auto converted = ir::tensorDtype(*dtype);
      if (!converted) unsupported(node, "no tensor dtype " + std::string(ir::dtypeTorchName(*dtype)));
      constant = make_dtype(*converted);
    } else {
      unsupported(node, "an argument Python code cannot be given: " + a.repr());
    }
    return {Value::Kind::Constant, 0, std::move(constant), {}};
  };
  for (Step& step : steps_) {
    const ir::Node& node = *step.node;
    switch (node.op()) {
      case ir::OpCode::Placeholder: break;
      case ir::OpCode::Output: node.args().at(0).forEachNode([&](const ir::Node* n) { step.outputs.push_back(index_.at(n)); }); break;
      case ir::OpCode::GetAttr: {
        const ir::GraphModule* submodule = module.submodule(node.target());
        if (!submodule) unsupported(node, "a get_attr of something other than a graph submodule");
        auto runner = std::make_shared<GraphRunner>(interp, *submodule);
        submodules_.push_back(runner);
        step.callee = native_function(node.target(), [runner](Interpreter& ip, CallArgs& c) {
          std::vector<Ref> outputs = runner->run(ip, c.args);
          return outputs.size() == 1 ? outputs[0] : py_tuple(std::move(outputs));
        });
        break;
      }
      case ir::OpCode::CallFunction: step.callee = target_object(interp, node.target()); [[fallthrough]];
      case ir::OpCode::CallMethod:
        for (const ir::Argument& a : node.args()) step.args.push_back(value_of(node, a));
        for (const ir::KeywordArgument& kw : node.kwargs()) step.kwargs.emplace_back(kw.name, value_of(node, kw.value));
        if (node.op() == ir::OpCode::CallMethod && step.args.empty()) unsupported(node, "a method call without its self");
        break;
      case ir::OpCode::CallModule: unsupported(node, "call_module nodes are not run yet");
    }
  }
}

GraphRunner::~GraphRunner() = default;

Ref GraphRunner::callee(const ir::Node& node) const { return steps_.at(index_.at(&node)).callee; }

Ref GraphRunner::value(const Value& v, const std::vector<Ref>& values) const {
  switch (v.kind) {
    case Value::Kind::Node: return values[v.node];
    case Value::Kind::Constant: return v.constant;
    case Value::Kind::List:
    case Value::Kind::Tuple: {
      std::vector<Ref> items;
      items.reserve(v.items.size());
      for (const Value& item : v.items) items.push_back(value(item, values));
      return v.kind == Value::Kind::List ? py_list(std::move(items)) : py_tuple(std::move(items));
    }
    case Value::Kind::Slice:
      return std::make_shared<SliceObject>(value(v.items[0], values), value(v.items[1], values), value(v.items[2], values));
  }
  return none();
}

std::vector<Ref> GraphRunner::run(Interpreter& interp, const std::vector<Ref>& inputs, const RunHooks& hooks) const {
  std::vector<Ref> values(steps_.size());
  size_t next_input = 0;
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& step = steps_[i];
    const ir::Node& node = *step.node;
    switch (node.op()) {
      case ir::OpCode::Placeholder:
        if (next_input >= inputs.size())
          throw std::invalid_argument("graph runner: " + std::to_string(inputs.size()) + " inputs for a graph with more placeholders");
        values[i] = inputs[next_input++];
        break;
      case ir::OpCode::GetAttr: values[i] = step.callee; break;
      case ir::OpCode::Output: {
        std::vector<Ref> outputs;
        for (size_t output : step.outputs) outputs.push_back(values[output]);
        return outputs;
      }
      default: {
        CallArgs args;
        args.args.reserve(step.args.size());
        for (const Value& a : step.args) args.args.push_back(value(a, values));
        for (const auto& [name, v] : step.kwargs) args.kwargs.emplace_back(name, value(v, values));
        if (hooks.before_call) hooks.before_call(node);
        if (hooks.take_call)
          if (Ref taken = hooks.take_call(node, args)) {
            values[i] = std::move(taken);
            break;
          }
        if (node.op() == ir::OpCode::CallFunction) {
          values[i] = call(interp, step.callee, std::move(args));
        } else {
          Ref method = getattr(interp, args.args[0], node.target());
          args.args.erase(args.args.begin());
          values[i] = call(interp, method, std::move(args));
        }
      }
    }
  }
  throw std::invalid_argument("graph runner: the graph has no output node");
}

CompiledGraph run_as_is(Interpreter& interp, std::shared_ptr<const BackendGraph> graph) {
  auto runner = std::make_shared<const GraphRunner>(interp, *graph->module);
  // The runner reads the graph's module: the graph lives as long as it.
  return [graph, runner](Interpreter& ip, const std::vector<Ref>& inputs) { return runner->run(ip, inputs); };
}

}  // namespace kiln::fx
