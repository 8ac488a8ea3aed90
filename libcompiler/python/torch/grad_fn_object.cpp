#include "libcompiler/python/torch/grad_fn_object.h"

#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/node.h"
#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {

namespace {

struct NodeObject : NativeObject {
  NodeObject(TypeObject* type, std::shared_ptr<ops::Node> node) : NativeObject(type), node(std::move(node)) {}
  std::shared_ptr<ops::Node> node;
};

const ops::Node& node_of(const Ref& object) { return *static_cast<const NodeObject&>(*object).node; }

// name() as PyTorch returns it: the C++ nodes of torch::autograd itself keep their namespace
// (the generated *Backward nodes have none); repr uses the bare class name.
std::string qualified_name(const ops::Node& node) {
  static const std::unordered_set<std::string> engine_nodes{"AccumulateGrad", "CopySlices", "GraphRoot", "Error"};
  const std::string name = node.name();
  return engine_nodes.count(name) ? "torch::autograd::" + name : name;
}

TypeObject* node_type();

// Each node name is a class of its own, as PyTorch's generated node classes are
// (type(t.grad_fn).__name__ == "AddBackward0"), all subclasses of torch.autograd.graph.Node.
TypeObject* node_class(const std::string& name) {
  static std::unordered_map<std::string, TypeObject*> classes;
  TypeObject*& type = classes[name];
  if (!type) type = make_builtin_type(name, {node_type()});
  return type;
}

Ref wrap_node(std::shared_ptr<ops::Node> node) {
  if (!node) return none();
  TypeObject* type = node_class(node->name());
  return std::make_shared<NodeObject>(type, std::move(node));
}

TypeObject* node_type() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("Node", {}, "torch.autograd.graph");
    add_method(t, "name", [](Interpreter&, CallArgs& c) { return py_str(qualified_name(node_of(c.args.at(0)))); });
    add_getter(t, "next_functions", [](Interpreter&, const Ref& self) {
      std::vector<Ref> items;
      for (const ops::Edge& edge : node_of(self).next_edges())
        items.push_back(py_tuple({wrap_node(edge.function), py_int(edge.valid() ? edge.input_nr : 0)}));
      return py_tuple(std::move(items));
    });
    add_method(t, "__repr__", [](Interpreter&, CallArgs& c) {
      char address[32];
      std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(&node_of(c.args.at(0)))));
      return py_str("<" + node_of(c.args.at(0)).name() + " object at " + address + ">");
    });
    add_method(t, "__eq__", [](Interpreter&, CallArgs& c) {
      const Ref& other = c.args.at(1);
      return py_bool(other->type == c.args.at(0)->type && &node_of(other) == &node_of(c.args[0]));
    });
    add_method(t, "__hash__", [](Interpreter&, CallArgs& c) {
      return py_int(static_cast<int64_t>(reinterpret_cast<uintptr_t>(&node_of(c.args.at(0)))));
    });
    return t;
  }();
  return type;
}

}  // namespace

Ref grad_fn_object(const tensor::Tensor& t) { return wrap_node(ops::grad_fn(t)); }

}  // namespace kiln::python
