#include "libcompiler/capture/backend_registry.h"

#include <map>
#include <stdexcept>

#include "libcompiler/python/interp/eval_hooks.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::capture {

using namespace python;

namespace {

struct RegisteredBackend {
  Backend backend;
  BackendWarmUp warm_up;
};

std::map<std::string, RegisteredBackend>& backends() {
  static std::map<std::string, RegisteredBackend> table;
  return table;
}

ScriptBackendFactory& script_factory() {
  static ScriptBackendFactory factory;
  return factory;
}

BackendWrapper& backend_wrapper() {
  static BackendWrapper wrapper;
  return wrapper;
}

Ref value_of(const ReplayValue& v, const std::unordered_map<const ir::Node*, Ref>& values) {
  switch (v.kind) {
    case ReplayValue::Kind::Node: return values.at(v.node);
    case ReplayValue::Kind::Constant: return v.constant;
    case ReplayValue::Kind::List:
    case ReplayValue::Kind::Tuple: {
      std::vector<Ref> items;
      for (const auto& item : v.items) items.push_back(value_of(item, values));
      return v.kind == ReplayValue::Kind::List ? py_list(std::move(items)) : py_tuple(std::move(items));
    }
  }
  return none();
}

}  // namespace

void register_backend(const std::string& name, Backend backend, BackendWarmUp warm_up) {
  backends()[name] = {std::move(backend), std::move(warm_up)};
}

const Backend* find_backend(const std::string& name) {
  auto it = backends().find(name);
  return it == backends().end() ? nullptr : &it->second.backend;
}

void warm_up_backend(const std::string& name) {
  auto it = backends().find(name);
  if (it != backends().end() && it->second.warm_up) it->second.warm_up();
}

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const auto& [name, backend] : backends()) names.push_back(name);
  return names;
}

void set_script_backend_factory(ScriptBackendFactory factory) { script_factory() = std::move(factory); }

void set_backend_wrapper(BackendWrapper wrapper) { backend_wrapper() = std::move(wrapper); }

Backend wrap_backend(Backend inner, const std::string& name, const Ref& spec) {
  return backend_wrapper() ? backend_wrapper()(std::move(inner), name, spec) : inner;
}

Backend script_backend(const Ref& callable) {
  if (!script_factory()) throw std::logic_error("no script backend factory installed");
  return script_factory()(callable);
}

std::vector<Ref> run_captured_graph(Interpreter& interp, const CapturedGraph& graph, const std::vector<Ref>& inputs) {
  std::unordered_map<const ir::Node*, Ref> values;
  size_t next_input = 0;
  std::vector<Ref> outputs;
  for (const ir::Node* node : graph.module->graph.nodes()) {
    switch (node->op()) {
      case ir::OpCode::Placeholder: values[node] = inputs.at(next_input++); break;
      case ir::OpCode::Output:
        node->args().at(0).forEachNode([&](const ir::Node* n) { outputs.push_back(values.at(n)); });
        break;
      default: {
        const ReplayCall& call_info = graph.replay.at(node);
        if (!call_info.callee && !call_info.getitem) {  // get_attr: the value the node reads
          values[node] = value_of(call_info.args.at(0), values);
          break;
        }
        if (call_info.getitem) {
          values[node] = getitem(interp, values.at(call_info.args.at(0).node), py_int(*call_info.getitem));
          break;
        }
        CallArgs args;
        for (const auto& a : call_info.args) args.args.push_back(value_of(a, values));
        for (const auto& [k, v] : call_info.kwargs) args.kwargs.emplace_back(k, value_of(v, values));
        values[node] = call(interp, call_info.callee, std::move(args));
      }
    }
  }
  return outputs;
}

}  // namespace kiln::capture
