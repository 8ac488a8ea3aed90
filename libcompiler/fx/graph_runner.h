#pragma once
// Running a graph module in Python, as the code FX generates for it runs: each call_function
// node calls the object its target names (target_objects.h), each call_method node the method of
// its first argument, a get_attr node of a submodule reads a callable that runs that graph. The
// eager backend runs captured graphs this way; AOT runs them on fake tensors while it records
// the aten ops they reach; the GraphModule a script backend receives is called this way.
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "libcompiler/fx/backend_registry.h"
#include "libcompiler/ir/graph_module.h"
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::fx {

// What a caller sees of a run: AOT tracing names each node's aten ops after it and traces some
// nodes itself (torch.cond, Tensor.item of an input).
struct RunHooks {
  // Before each call_function and call_method node runs.
  std::function<void(const ir::Node&)> before_call;
  // The node's value computed by the caller from its evaluated arguments (a call_method node's
  // first argument is its self), or null: the node runs as usual.
  std::function<python::Ref(const ir::Node&, python::CallArgs&)> take_call;
};

class GraphRunner {
 public:
  // Finds the objects of the graph's targets and constants (and its submodules') in `interp`,
  // once. `module` must outlive the runner. Raises Python's AttributeError for a target the
  // interpreter has no object for.
  GraphRunner(python::Interpreter& interp, const ir::GraphModule& module);
  ~GraphRunner();
  GraphRunner(const GraphRunner&) = delete;
  GraphRunner& operator=(const GraphRunner&) = delete;

  // One value per placeholder; returns the values of the nodes the output names, in order.
  std::vector<python::Ref> run(python::Interpreter& interp, const std::vector<python::Ref>& inputs,
                               const RunHooks& hooks = {}) const;

  // The object a call_function node calls.
  python::Ref callee(const ir::Node& node) const;

 private:
  struct Step;
  struct Value;
  python::Ref value(const Value& v, const std::vector<python::Ref>& values) const;

  const ir::GraphModule& module_;
  std::vector<Step> steps_;
  std::unordered_map<const ir::Node*, size_t> index_;
  std::vector<std::shared_ptr<GraphRunner>> submodules_;
};

// The graph run as it is (the eager backend), its targets found now.
CompiledGraph run_as_is(python::Interpreter& interp, std::shared_ptr<const BackendGraph> graph);

}  // namespace kiln::fx
