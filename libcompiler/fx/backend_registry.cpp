#include "libcompiler/fx/backend_registry.h"

#include <map>
#include <stdexcept>

#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::fx {

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

BackendSplitter& backend_splitter() {
  static BackendSplitter splitter;
  return splitter;
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

void set_backend_splitter(BackendSplitter splitter) { backend_splitter() = std::move(splitter); }

Backend split_backend(Interpreter& interp, Backend inner) {
  return backend_splitter() ? backend_splitter()(interp, std::move(inner)) : inner;
}

Backend script_backend(const Ref& callable) {
  if (!script_factory()) throw std::logic_error("no script backend factory installed");
  return script_factory()(callable);
}

}  // namespace kiln::fx
