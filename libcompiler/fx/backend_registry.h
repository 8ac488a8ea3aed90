#pragma once
// The backends graphs are handed to (torch.compile's backend=): a table filled by
// libcompiler/backends (eager, aot_eager, inductor, ...), and script-defined backends, Python
// callables that receive a torch.fx.GraphModule. Capture, which calls them, knows none of them;
// they know nothing of capture.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "libcompiler/ir/graph_module.h"
#include "libcompiler/python/interp/object.h"
#include "libdiag/trace/compile_id.h"

namespace kiln::fx {

// A compiled graph: called with the placeholders' values, returns the output values.
using CompiledGraph = std::function<std::vector<python::Ref>(python::Interpreter&, const std::vector<python::Ref>&)>;

// What a backend compiles, as PyTorch hands a backend a GraphModule with its example inputs:
// the graph module (its call_function targets name the Python callables a run calls,
// graph_runner.h) and what the compile knows of it. Nothing in it says how it was made.
struct BackendGraph {
  std::unique_ptr<ir::GraphModule> module;
  // Per placeholder, where its value comes from as Dynamo prints a source ("L['x']"), or "None":
  // part of AOT's cache key.
  std::vector<std::string> input_sources;
  trace::CompileId compile_id;  // of the compile that made it: backends' trace records carry it
  std::string mode = "default";  // torch.compile(mode=...): "reduce-overhead", "max-autotune", ...
  python::Ref options;           // torch.compile(options=...): a dict of inductor settings, or null
  // Every size symbol is guarded to its captured value (a node's value could not be computed on
  // symbols): a backend need not ask whether its code holds at other sizes.
  bool sizes_pinned = false;
  // Some inputs are fakes made for a part of a split graph (DDPOptimizer's submodules, which
  // PyTorch compiles with fakify_first_call): PyTorch's AOT autograd cache refuses such a graph.
  bool fakify_first_call = false;
};

using Backend = std::function<CompiledGraph(python::Interpreter&, std::shared_ptr<const BackendGraph>,
                                            const std::vector<python::Ref>& example_inputs)>;

// Work a backend can start before its first compile (the inductor makes its JIT in the
// background): torch.compile starts it when it names the backend.
using BackendWarmUp = std::function<void()>;
void register_backend(const std::string& name, Backend backend, BackendWarmUp warm_up = {});
void warm_up_backend(const std::string& name);
// Null when no backend has that name.
const Backend* find_backend(const std::string& name);
std::vector<std::string> backend_names();

// A backend that is a Python callable (script-defined): installed by libcompiler/backends.
using ScriptBackendFactory = std::function<Backend(const python::Ref& callable)>;
void set_script_backend_factory(ScriptBackendFactory factory);
Backend script_backend(const python::Ref& callable);

// What every compile calls its backend through: the after-dynamo repro tools (libcompiler/repro)
// install a wrapper that dumps and checks the graph, or substitutes the backend. `name` is how the
// compile names its backend ("inductor", a script function's name); `spec` is what the script gave
// torch.compile (a name or a callable). Without a wrapper the backend is called as it is.
using BackendWrapper = std::function<Backend(Backend inner, const std::string& name, const python::Ref& spec)>;
void set_backend_wrapper(BackendWrapper wrapper);
Backend wrap_backend(Backend inner, const std::string& name, const python::Ref& spec);

// What a compile's (wrapped) backend is handed to as the frame is compiled, as Dynamo hijacks
// the callback: DDPOptimizer (libcompiler/distributed) installs one that, while a
// DistributedDataParallel forward runs, splits the graph at the module's gradient buckets and
// compiles each part with the backend. Without one the backend is used as it is.
using BackendSplitter = std::function<Backend(python::Interpreter&, Backend inner)>;
void set_backend_splitter(BackendSplitter splitter);
Backend split_backend(python::Interpreter& interp, Backend inner);

}  // namespace kiln::fx
