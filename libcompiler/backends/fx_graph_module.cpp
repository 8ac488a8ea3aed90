#include "libcompiler/backends/fx_graph_module.h"

#include <iostream>
#include <unordered_map>

#include "libcompiler/fx/graph_runner.h"
#include "libcompiler/ir/readable_printer.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::backends {

using namespace python;

namespace {

struct FxTypes {
  TypeObject* graph_module;
  TypeObject* graph;
  TypeObject* node;
};

struct GraphModuleObject : NativeObject {
  GraphModuleObject(TypeObject* type, std::shared_ptr<const fx::BackendGraph> g, std::shared_ptr<const fx::GraphRunner> r)
      : NativeObject(type), graph(std::move(g)), runner(std::move(r)) {}
  std::shared_ptr<const fx::BackendGraph> graph;
  std::shared_ptr<const fx::GraphRunner> runner;  // what calling it runs; reads graph's module
  Ref graph_object;  // made on first access
};

struct GraphObject : NativeObject {
  GraphObject(TypeObject* type, Ref n) : NativeObject(type), nodes(std::move(n)) {}
  Ref nodes;  // a list of NodeObjects in graph order
};

struct NodeObject : NativeObject {
  explicit NodeObject(TypeObject* type) : NativeObject(type) {}
  Ref op, name, target, args, kwargs;
};

const FxTypes& fx_types();

// The Python callable a call_function node's target names; other nodes' targets are strings.
Ref target_object(const fx::GraphRunner& runner, const ir::Node& node) {
  return node.op() == ir::OpCode::CallFunction ? runner.callee(node) : py_str(node.target());
}

Ref argument_object(const ir::Argument& arg, const std::unordered_map<const ir::Node*, Ref>& nodes) {
  if (const ir::Node* n = arg.asNode()) return nodes.at(n);
  if (const auto* seq = arg.asSequence()) {
    std::vector<Ref> items;
    for (const auto& item : seq->items) items.push_back(argument_object(item, nodes));
    return seq->isTuple ? py_tuple(std::move(items)) : py_list(std::move(items));
  }
  return std::visit(
      [](const auto& v) -> Ref {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) return py_bool(v);
        else if constexpr (std::is_same_v<T, int64_t>) return py_int(v);
        else if constexpr (std::is_same_v<T, double>) return py_float(v);
        else if constexpr (std::is_same_v<T, std::string>) return py_str(v);
        else if constexpr (std::is_same_v<T, ir::NoneValue>) return none();
        else return py_str(ir::Argument(v).repr());
      },
      arg.value);
}

Ref make_graph_object(const fx::BackendGraph& graph, const fx::GraphRunner& runner) {
  std::unordered_map<const ir::Node*, Ref> nodes;
  std::vector<Ref> order;
  for (const ir::Node* n : graph.module->graph.nodes()) {
    auto node = std::make_shared<NodeObject>(fx_types().node);
    node->op = py_str(std::string(ir::opcodeName(n->op())));
    node->name = py_str(n->name());
    node->target = target_object(runner, *n);
    nodes[n] = node;
    order.push_back(node);
  }
  for (const ir::Node* n : graph.module->graph.nodes()) {
    auto& node = static_cast<NodeObject&>(*nodes[n]);
    std::vector<Ref> args;
    for (const auto& a : n->args()) args.push_back(argument_object(a, nodes));
    node.args = py_tuple(std::move(args));
    auto kwargs = py_dict();
    for (const auto& kw : n->kwargs()) kwargs->set(kw.name, argument_object(kw.value, nodes));
    node.kwargs = kwargs;
  }
  return std::make_shared<GraphObject>(fx_types().graph, py_list(std::move(order)));
}

const FxTypes& fx_types() {
  static const FxTypes types = [] {
    FxTypes t{make_builtin_type("GraphModule", {}, "torch.fx.graph_module"), make_builtin_type("Graph", {}, "torch.fx.graph"),
              make_builtin_type("Node", {}, "torch.fx.node")};
    auto node_field = [&](const char* name, Ref NodeObject::*field) {
      add_getter(t.node, name, [field](Interpreter&, const Ref& self) { return static_cast<NodeObject&>(*self).*field; });
    };
    node_field("op", &NodeObject::op);
    node_field("name", &NodeObject::name);
    node_field("target", &NodeObject::target);
    node_field("args", &NodeObject::args);
    node_field("kwargs", &NodeObject::kwargs);
    add_getter(t.graph, "nodes", [](Interpreter&, const Ref& self) { return static_cast<GraphObject&>(*self).nodes; });
    add_method(t.node, "__repr__", [](Interpreter&, CallArgs& c) { return static_cast<NodeObject&>(*c.args.at(0)).name; });
    add_getter(t.graph_module, "graph", [](Interpreter&, const Ref& self) {
      auto& gm = static_cast<GraphModuleObject&>(*self);
      if (!gm.graph_object) gm.graph_object = make_graph_object(*gm.graph, *gm.runner);
      return gm.graph_object;
    });
    add_getter(t.graph_module, "code", [](Interpreter&, const Ref& self) {
      std::string code;
      for (const auto& line : ir::printForwardCode(*static_cast<GraphModuleObject&>(*self).graph->module, "")) code += line + "\n";
      return py_str(code);
    });
    add_method(t.graph_module, "print_readable", [](Interpreter& interp, CallArgs& c) {
      auto a = bind_native("print_readable", c, {{"self"}, {"print_output", false}});
      std::string text = ir::printReadable(*static_cast<GraphModuleObject&>(*a[0]).graph->module);
      if (!a[1] || truthy(interp, a[1])) *interp.out << text;
      return py_str(text);
    });
    auto run = [](Interpreter& interp, CallArgs& c) {
      const auto& gm = static_cast<GraphModuleObject&>(*c.args.at(0));
      std::vector<Ref> inputs(c.args.begin() + 1, c.args.end());
      return py_list(gm.runner->run(interp, inputs));
    };
    add_method(t.graph_module, "__call__", run);
    add_method(t.graph_module, "forward", run);
    return t;
  }();
  return types;
}

}  // namespace

Ref make_graph_module(Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph) {
  auto runner = std::make_shared<const fx::GraphRunner>(interp, *graph->module);
  return std::make_shared<GraphModuleObject>(fx_types().graph_module, std::move(graph), std::move(runner));
}

}  // namespace kiln::backends
