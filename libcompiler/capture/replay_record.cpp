#include "libcompiler/capture/replay_record.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "libcompiler/fx/debug_dir.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libdiag/log/logger.h"

namespace kiln::capture {

using namespace python;
using nlohmann::json;

namespace {

std::string quoted(const std::string& text) { return json(text).dump(); }

}  // namespace

ReplayRecordResult write_replay_record(Interpreter& interp, const CodeState& code, const FrameInputs& inputs,
                                       const CompileOptions& options) {
  const FunctionObject& function = *code.function;
  if (code.start) return {{}, "it is a resume frame, which only the frame before it can recreate"};
  if (function.qualname != function.name) return {{}, "'" + function.qualname + "' is not a module-level function"};
  json record;
  record["kiln_replay_record"] = 1;
  record["script"] = code.co_filename;
  record["function"] = function.name;
  record["line"] = code.co_firstlineno;
  if (options.backend->kind == ObjectKind::Str) {
    record["backend"] = as<StrObject>(options.backend).value;
  } else if (options.backend->kind == ObjectKind::Function &&
             as<FunctionObject>(options.backend).qualname == as<FunctionObject>(options.backend).name) {
    record["backend_function"] = as<FunctionObject>(options.backend).name;
  } else {
    return {{}, "its backend is not a module-level function"};
  }
  record["fullgraph"] = options.fullgraph;
  record["dynamic"] = options.dynamic ? json(*options.dynamic) : json(nullptr);
  json args = json::array();
  for (const auto& [name, value] : inputs.locals) {
    if (is_tensor(value)) {
      const auto& t = static_cast<TensorObject&>(*value).value;
      args.push_back({{"name", name},
                      {"dtype", std::string(tensor::dtype_name(t.dtype()))},
                      {"requires_grad", t.requires_grad()},
                      {"values", repr(interp, call(interp, getattr(interp, value, "tolist"), std::vector<Ref>{}))}});
    } else if (is_constant(value)) {
      args.push_back({{"name", name}, {"constant", repr(interp, value)}});
    } else {
      return {{}, "its input '" + name + "' is a " + type_name(value) + ", which a record cannot hold"};
    }
  }
  record["args"] = args;
  json config = json::object();
  Ref module = interp.import_module("torch._dynamo.config");
  for (const auto* e : as<ModuleObject>(module).globals->entries())
    if (e->key->kind == ObjectKind::Str && is_constant(e->value) && as<StrObject>(e->key).value.rfind("__", 0) != 0)
      config[as<StrObject>(e->key).value] = repr(interp, e->value);
  record["config"] = config;

  std::filesystem::path dir = fx::debug_run_dir() / "replay_record";
  std::filesystem::create_directories(dir);
  std::filesystem::path path = dir / (function.name + ".json");
  std::ofstream(path) << record.dump(1) << "\n";
  log::emit(log::Component::dynamo, log::Level::Warning, {"torch/_dynamo/convert_frame.py", 1312}, "",
            "Wrote replay record to " + path.string() + " (replay it with: kiln --replay " + path.string() + ")");
  return {path, ""};
}

std::string replay_source(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  json record = json::parse(in, nullptr, false);
  if (record.is_discarded() || !record.is_object() || !record.contains("kiln_replay_record"))
    throw std::runtime_error(path.string() + " is not a kiln replay record");
  std::ostringstream py;
  py << "import torch\nimport torch._dynamo\nimport torch._dynamo.config\n";
  py << "_definitions = torch._dynamo._kiln.load_definitions(" << quoted(record["script"]) << ")\n";
  for (const auto& [name, value] : record["config"].items())
    if (name != "replay_record_enabled") py << "torch._dynamo.config." << name << " = " << value.get<std::string>() << "\n";
  py << "_fn = _definitions[" << quoted(record["function"]) << "]\n";
  std::string backend = record.contains("backend_function") ? "_definitions[" + quoted(record["backend_function"]) + "]"
                                                             : quoted(record["backend"]);
  py << "_args = [\n";
  for (const auto& arg : record["args"]) {
    if (arg.contains("constant")) {
      py << "    " << arg["constant"].get<std::string>() << ",\n";
      continue;
    }
    py << "    torch.tensor(" << arg["values"].get<std::string>() << ", dtype=torch." << arg["dtype"].get<std::string>() << ")"
       << (arg["requires_grad"].get<bool>() ? ".requires_grad_()" : "") << ",\n";
  }
  py << "]\n";
  py << "torch.compile(_fn, backend=" << backend << ", fullgraph=" << (record["fullgraph"].get<bool>() ? "True" : "False")
     << ", dynamic=" << (record["dynamic"].is_null() ? "None" : record["dynamic"].get<bool>() ? "True" : "False") << ")(*_args)\n";
  return py.str();
}

}  // namespace kiln::capture
