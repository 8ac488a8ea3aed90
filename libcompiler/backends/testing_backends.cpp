#include "libcompiler/backends/testing_backends.h"

#include "libcompiler/fx/backend_registry.h"
#include "libcompiler/fx/graph_runner.h"
#include "libcompiler/ir/graph_copy.h"
#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ir/python_operators.h"
#include "libcompiler/ir/table_op.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::backends {

using namespace python;

namespace {

bool has_relu(const ir::GraphModule& module) {
  for (const ir::Node* node : module.graph.nodes())
    if (is_relu(*node)) return true;
  return false;
}

Ref testing_error(Interpreter& interp, const char* name, const std::string& message) {
  Ref module = interp.import_module("torch._dynamo.backends.debugging");
  return call(interp, getattr(interp, module, name), message.empty() ? std::vector<Ref>{} : std::vector<Ref>{py_str(message)});
}

// A copy in which every relu(x) is x + 1 (`add_target` adds at the graph's level), as PyTorch's
// relu_accuracy_error_TESTING_ONLY rewrites relu nodes.
std::shared_ptr<ir::GraphModule> with_relu_as_plus_one(const ir::GraphModule& module, const std::string& add_target) {
  std::shared_ptr<ir::GraphModule> copy = ir::copyGraphModule(module);
  for (ir::Node* relu : copy->graph.nodes()) {
    if (!is_relu(*relu)) continue;
    ir::Node* plus_one =
        copy->graph.createNode(ir::OpCode::CallFunction, add_target, {relu->args().at(0), ir::Argument::integer(1)}, {}, "", relu);
    plus_one->meta = relu->meta;
    relu->replaceAllUsesWith(plus_one);
    copy->graph.erase(relu);
  }
  return copy;
}

// The captured graph run by the graph interpreter (what the accuracy backend computes).
fx::CompiledGraph interpret(std::shared_ptr<const ir::GraphModule> module) {
  return [module](Interpreter& interp, const std::vector<Ref>& inputs) {
    std::vector<ops::IValue> values;
    for (const Ref& input : inputs) values.push_back(to_ivalue(interp, input));
    std::vector<Ref> outputs;
    for (const ops::IValue& v : ir::GraphInterpreter(*module).run(values)) outputs.push_back(wrap_tensor(v.to_tensor()));
    return outputs;
  };
}

fx::CompiledGraph relu_compile_error(Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph,
                                          const std::vector<Ref>&) {
  if (has_relu(*graph->module)) throw PyException(testing_error(interp, "ReluCompileError", ""));
  return fx::run_as_is(interp, graph);
}

fx::CompiledGraph relu_runtime_error(Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph, const std::vector<Ref>&) {
  if (!has_relu(*graph->module)) return fx::run_as_is(interp, graph);
  return [](Interpreter&, const std::vector<Ref>&) -> std::vector<Ref> { raise_error(ExcType::AssertionError, "ReluRuntimeError"); };
}

fx::CompiledGraph relu_accuracy_error(Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph, const std::vector<Ref>&) {
  if (!has_relu(*graph->module)) return fx::run_as_is(interp, graph);
  return interpret(with_relu_as_plus_one(*graph->module, ir::operatorTarget(*ir::operatorForSymbol("+", ir::OperatorForm::Binary))));
}

std::string inject_relu_bug(Interpreter& interp) {
  Ref cpp = getattr(interp, interp.import_module("torch._inductor.config"), "cpp");
  Ref mode = getattr(interp, cpp, "inject_relu_bug_TESTING_ONLY");
  return mode->kind == ObjectKind::Str ? as<StrObject>(mode).value : "";
}

}  // namespace

// x.relu(), torch.relu(x), F.relu(x) and aten.relu alike: every spelling of the table's relu.
bool is_relu(const ir::Node& node) {
  const ops::OpInfo* op = nullptr;
  if (node.op() == ir::OpCode::CallMethod) op = ops::find_op(node.target());
  else if (node.op() == ir::OpCode::CallFunction)
    op = ir::namesTableOp(node) ? ir::tableOp(node) : ops::find_op(ir::opNameForTarget(node.target()));
  return op && op->id == ops::OpId::relu;
}

aot::AtenGraphCompiler relu_bug_aten_compiler(Interpreter& interp) {
  const std::string mode = inject_relu_bug(interp);
  const std::string knob = "torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY='" + mode + "'";
  Interpreter* ip = &interp;
  return [mode, knob, ip](std::shared_ptr<const ir::GraphModule> module, const aot::AtenGraphContext& context) -> aot::AtenFunction {
    if (mode.empty() || !has_relu(*module)) return aot::interpret_aten_graph(module, context);
    if (mode == "compile_error")
      throw PyException(testing_error(*ip, "ReluCompileError", "compile error injected on aten.relu (" + knob + ")"));
    if (mode == "runtime_error")
      return [knob](const std::vector<ops::IValue>&) -> std::vector<ops::IValue> {
        raise_error(ExcType::RuntimeError, "ReluRuntimeError: runtime error injected on aten.relu (" + knob + ")");
      };
    if (mode == "accuracy") return aot::interpret_aten_graph(with_relu_as_plus_one(*module, ir::tableOpTarget(ops::OpId::add_Tensor)), context);
    raise_error(ExcType::ValueError, "unknown " + knob + " (compile_error, runtime_error or accuracy)");
  };
}

void install_testing_backends() {
  fx::register_backend("relu_compile_error_TESTING_ONLY", relu_compile_error);
  fx::register_backend("relu_runtime_error_TESTING_ONLY", relu_runtime_error);
  fx::register_backend("relu_accuracy_error_TESTING_ONLY", relu_accuracy_error);
}

}  // namespace kiln::backends
