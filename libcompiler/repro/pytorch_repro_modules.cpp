#include "libcompiler/repro/pytorch_repro_modules.h"

#include "libcompiler/backends/backends.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/repro/backend_override.h"
#include "libcompiler/repro/candidate_test.h"
#include "libcompiler/repro/graph_accuracy.h"
#include "libcompiler/repro/repro_config.h"
#include "libcompiler/repro/run_repro.h"

namespace kiln::repro {

using namespace python;

namespace {

// make_fx's result: the Repro module with its graph; calling it runs the graph eagerly.
struct TracedModule : NativeObject {
  TracedModule(TypeObject* type, std::shared_ptr<const ir::GraphModule> g) : NativeObject(type), graph(std::move(g)) {}
  std::shared_ptr<const ir::GraphModule> graph;
};

std::vector<ops::IValue> ivalues(Interpreter& interp, const std::vector<Ref>& values) {
  std::vector<ops::IValue> out;
  for (const Ref& v : values) out.push_back(to_ivalue(interp, v));
  return out;
}

Ref python_list(const std::vector<ops::IValue>& values) { return py_list(python_inputs(values)); }

TypeObject* traced_type() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("GraphModule", {}, "torch.fx.graph_module");
    add_method(t, "__call__", [](Interpreter& interp, CallArgs& c) {
      const auto& traced = static_cast<TracedModule&>(*c.args.at(0));
      return python_list(run_eagerly(*traced.graph, ivalues(interp, std::vector<Ref>(c.args.begin() + 1, c.args.end()))));
    });
    return t;
  }();
  return type;
}

Ref make_fx(Interpreter& interp, CallArgs& c) {
  auto a = bind_native("make_fx", c, {{"f"}, {"decomposition_table", false}, {"tracing_mode", false}});
  Ref traced = std::make_shared<TracedModule>(traced_type(), repro_module_graph(interp, a[0]));
  return native_function("make_fx_trace", [traced](Interpreter&, CallArgs&) { return traced; });
}

Ref compile_fx_inner(Interpreter& interp, CallArgs& c) {
  if (c.args.empty() || c.args[0]->type != traced_type())
    raise_error(ExcType::TypeError, "compile_fx_inner() takes the graph module make_fx made");
  std::shared_ptr<const ir::GraphModule> graph = static_cast<TracedModule&>(*c.args[0]).graph;
  const std::string backend = overriding_backend().value_or("inductor");
  aot::AtenGraphCompiler compiler;
  {
    SuspendReproWrappers suspended;
    compiler = backends::aten_compiler(interp, backend);
  }
  if (!compiler) raise_error(ExcType::NotImplementedError, "compile_fx_inner: backend '" + backend + "' compiles no aten graphs");
  aot::AtenFunction function = compiler(graph, {aot::AotGraphKind::Inference, 0, std::nullopt});
  return native_function("compiled_fx", [function](Interpreter& ip, CallArgs& call) {
    auto args = bind_native("compiled_fx", call, {{"args"}});
    return python_list(function(ivalues(ip, to_vector(ip, args[0]))));
  });
}

}  // namespace

void install_pytorch_repro_modules(Interpreter& interp) {
  interp.register_native_module("torch.fx.experimental.proxy_tensor", [](Interpreter&, ModuleObject& m) {
    m.globals->set("make_fx", native_function("make_fx", make_fx));
  });
  interp.register_native_module("torch._inductor.compile_fx", [](Interpreter&, ModuleObject& m) {
    m.globals->set("compile_fx_inner", native_function("compile_fx_inner", compile_fx_inner));
  });
}

}  // namespace kiln::repro
