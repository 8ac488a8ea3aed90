// Compiling one frame into a cache entry (Dynamo's convert_frame._compile), in its phases: the
// cache limit, the capture of the frame, what the frame does after its graph (its exit and resume
// frames), and the backend. A phase that gives up throws SkipFrame; compile() records it once.
#include <algorithm>
#include <chrono>

#include "libcompiler/capture/tensor_describer.h"
#include "libcompiler/capture/capture_events.h"
#include "libcompiler/capture/compile_times.h"
#include "libcompiler/capture/dynamo_config.h"
#include "libcompiler/capture/dynamo_module.h"
#include "libcompiler/capture/explain.h"
#include "libcompiler/capture/hook_scope.h"
#include "libcompiler/capture/replay_record.h"
#include "libcompiler/capture/runtime.h"
#include "libcompiler/capture/tracer.h"
#include "libcompiler/fx/backend_report.h"
#include "libcompiler/fx/debug_dir.h"
#include "libcompiler/ir/dead_code_elimination.h"
#include "libcompiler/ir/symbolic_shape_propagation.h"
#include "libcompiler/ops/autocast.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/python/interp/evaluator.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/python/torch/torch_module.h"
#include "libdiag/log/logger.h"

namespace kiln::capture {

using namespace python;

namespace {

bool has_tensor(const Ref& value, int depth) {
  if (depth > 4) return false;
  if (is_tensor(value)) return true;
  switch (value->kind) {
    case ObjectKind::List:
    case ObjectKind::Tuple: {
      const auto& items = sequence_items(value);
      for (const auto& item : items)
        if (has_tensor(item, depth + 1)) return true;
      return false;
    }
    case ObjectKind::Dict:
      for (const auto* e : as<DictObject>(value).entries())
        if (has_tensor(e->value, depth + 1)) return true;
      return false;
    case ObjectKind::Instance:
      // Of other objects only modules count: Dynamo does not look inside an object for tensors.
      return is_module_instance(value);
    default: return false;
  }
}

StatementPath whole_body(const CodeState& code) { return {{code.function->body, 0}}; }

// Dynamo's has_tensor_in_frame: a frame with no tensor among its locals, that names no torch
// module as a global, is not compiled.
bool has_tensor_in_frame(const CodeState& code, const FrameInputs& inputs) {
  for (const auto& [name, value] : inputs.locals)
    if (has_tensor(value, 0)) return true;
  if (!code.function->body) return false;
  const auto& locals = code.function->code->slot_names;
  for (const std::string& name : names_read(code.start ? *code.start : whole_body(code), {})) {
    if (std::find(locals.begin(), locals.end(), name) != locals.end()) continue;  // `import torch` in the frame
    Ref global = inputs.globals ? inputs.globals->get(name) : nullptr;
    if (global && global->kind == ObjectKind::Module) {
      if (is_torch_module_name(as<ModuleObject>(global).name)) return true;
    }
  }
  return false;
}

// Dynamo names, with a guard on an input, the user code that first used the input.
void attribute_to_first_use(GuardSet& guards, size_t from, const CodeState& code, const std::string& name) {
  if (!code.function->body) return;
  const Statement* use = first_statement_reading(code.start ? *code.start : whole_body(code), name);
  if (!use || !use->loc.file) return;
  std::string_view text = use->loc.file->line_text(use->loc.line);
  size_t start = text.find_first_not_of(" \t");
  std::string line(start == std::string_view::npos ? "" : text.substr(start));
  std::string file = use->loc.file->name();
  std::string shown = !file.empty() && file[0] == '/' ? file.substr(1) : file;
  UserFrame frame{file, static_cast<int>(use->loc.line), code.function->code->name, line, true};
  guards.attribute(from, line + "  # " + shown + ":" + std::to_string(use->loc.line) + " in " + code.co_name, frame);
}

// Builds the templates of the values a frame goes on with, collecting the graph outputs.
class TemplateBuilder {
 public:
  TemplateBuilder(Interpreter& interp, OutputGraph& graph) : interp_(interp), graph_(graph) {}
  std::vector<const ir::Node*> outputs;

  ValueTemplate of(const Ref& value) {
    if (OutputGraph::is_fake(value)) return of_node(OutputGraph::node_of(value));
    if (is_list_or_tuple(value)) {
      if (SourceRef source = find_source(interp_, graph_.frame_inputs(), value))
        return ValueTemplate{ValueTemplate::Kind::FromSource, 0, source, nullptr, {}};
      ValueTemplate t{value->kind == ObjectKind::List ? ValueTemplate::Kind::List : ValueTemplate::Kind::Tuple, 0, nullptr, nullptr, {}};
      const auto& items = sequence_items(value);
      for (const auto& item : items) t.items.push_back(of(item));
      return t;
    }
    if (auto* symbolic = dynamic_cast<SymbolicScalarObject*>(value.get())) {
      // Code that runs on after the graph gets the number itself: a float input's value read
      // again, an .item() value from the graph.
      if (symbolic->source()) return ValueTemplate{ValueTemplate::Kind::FromSource, 0, symbolic->source(), nullptr, {}};
      return of_node(symbolic->node(graph_));
    }
    if (value->kind == ObjectKind::BoundMethod) {
      const auto& method = as<BoundMethodObject>(value);
      return ValueTemplate{ValueTemplate::Kind::BoundMethod, 0, nullptr, method.function, {of(method.self)}};
    }
    if (is_tensor(value) || value->kind == ObjectKind::Instance || value->kind == ObjectKind::Dict)
      if (SourceRef source = find_source(interp_, graph_.frame_inputs(), value))
        return ValueTemplate{ValueTemplate::Kind::FromSource, 0, source, nullptr, {}};
    if (value->kind == ObjectKind::Dict) {
      // A dict the frame made (an optimizer's new state): made afresh on each run, its tensors
      // the graph's.
      ValueTemplate t{ValueTemplate::Kind::Dict, 0, nullptr, nullptr, {}};
      for (const auto* e : as<DictObject>(value).entries()) {
        t.items.push_back(of(e->key));
        t.items.push_back(of(e->value));
      }
      return t;
    }
    return ValueTemplate{ValueTemplate::Kind::Constant, 0, nullptr, value, {}};
  }

 private:
  ValueTemplate of_node(ir::Node* node) {
    if (node->op() == ir::OpCode::Placeholder) return from_placeholder(node);
    for (size_t i = 0; i < outputs.size(); ++i)
      if (outputs[i] == node) return ValueTemplate{ValueTemplate::Kind::Output, i, nullptr, nullptr, {}};
    outputs.push_back(node);
    return ValueTemplate{ValueTemplate::Kind::Output, outputs.size() - 1, nullptr, nullptr, {}};
  }
  ValueTemplate from_placeholder(const ir::Node* node) {
    size_t index = 0;
    for (const ir::Node* n : graph_.module().graph.placeholders()) {
      if (n == node) break;
      ++index;
    }
    return ValueTemplate{ValueTemplate::Kind::FromSource, 0, graph_.inputs().at(index).source, nullptr, {}};
  }
  Interpreter& interp_;
  OutputGraph& graph_;
};

// Automatic dynamic: what changed since the frame was last compiled becomes symbolic.
void update_history(CodeState& code, const FrameInputs& inputs) {
  for (const auto& [name, value] : inputs.locals) {
    std::string key = Source::local(name)->text();
    auto existing = code.history.find(key);
    if (is_tensor(value)) {
      const auto& sizes = static_cast<TensorObject&>(*value).value.sizes();
      if (existing == code.history.end()) {
        code.history[key].sizes = sizes;
        continue;
      }
      InputHistory& h = existing->second;
      for (size_t d = 0; d < sizes.size() && d < h.sizes.size(); ++d)
        if (sizes[d] != h.sizes[d]) h.dynamic_dims.insert(static_cast<int64_t>(d));
    } else if (value->kind == ObjectKind::Float) {
      double v = as<FloatObject>(value).value;
      if (existing == code.history.end()) code.history[key].float_value = v;
      else if (existing->second.float_value != v) existing->second.dynamic_float = true;
    }
  }
}

// The repro tools set minifier_path on the exception of a backend whose failure they dumped; the
// message then says where the script is, as PyTorch's augment_exc_message does.
// What Dynamo appends to the errors a compile raises to the script.
constexpr const char* kVerboseHint =
    "Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace (please do this especially if you're reporting a bug to "
    "PyTorch). For even more developer context, set TORCH_LOGS=\"+dynamo\"\n";

std::string minifier_note(Interpreter& interp, const Ref& exception) {
  Ref path = try_getattr(interp, exception, "minifier_path");
  if (!path || path->kind != ObjectKind::Str) return "";
  return "\nMinifier script written to " + as<StrObject>(path).value +
         ". Run this script to find the smallest traced graph which reproduces this error.\n";
}

std::string user_code_trailer(const std::vector<UserFrame>& stack) {
  std::string out = "\n\nfrom user code:\n";
  bool inside = false;
  for (const UserFrame& f : stack)
    if ((inside = inside || f.compiled))
      out += "   File \"" + f.filename + "\", line " + std::to_string(f.line) + ", in " + f.function + "\n    " + f.code + "\n";
  out += std::string("\n") + kVerboseHint;
  return out;
}

// With replay_record_enabled, a frame whose compile fails is recorded for `kiln --replay`.
void record_for_replay(Interpreter& interp, const DynamoConfig& config, const CodeState& code, const FrameInputs& inputs,
                       const CompileOptions& options) {
  if (!config.replay_record_enabled) return;
  ReplayRecordResult result = write_replay_record(interp, code, inputs, options);
  if (!result.not_recorded.empty())
    log::emit(log::Component::dynamo, log::Level::Warning, {"torch/_dynamo/convert_frame.py", 1312}, "",
              "No replay record of " + code.co_name + ": " + result.not_recorded);
}


// Dynamo's SkipFrame: the frame is not compiled, and runs eagerly this time, or from now on.
struct SkipFrame {
  bool for_good = true;
};

// How a backend's failure reaches the script: Inductor's own errors as they are, as PyTorch raises
// them; any other wrapped in BackendCompilerFailed.
enum class BackendFailure { InductorError, Other };

BackendFailure classify_backend_failure(Interpreter& interp, const PyException& error) {
  Ref inductor_error = getattr(interp, interp.import_module("torch._inductor.exc"), "InductorError");
  return error.exception->type->is_subtype_of(&as<TypeObject>(inductor_error)) ? BackendFailure::InductorError
                                                                                : BackendFailure::Other;
}

// Dynamo's two limits (_dynamo/cache_size.py): recompile_limit counts the entries compiled for the
// same ID_MATCH'd locals (one module instance), the accumulated limit every entry.
void check_cache_limit(const DynamoConfig& config, const CodeState& code, const FrameInputs& inputs,
                       const std::vector<std::pair<std::string, std::string>>& failures, CompileMetrics& metrics) {
  const int64_t same_objects = std::count_if(code.entries.begin(), code.entries.end(), [&](const auto& entry) {
    for (const Guard& g : entry->guards.guards())
      if (g.kind == GuardKind::IdMatch && g.source && g.source->kind() == Source::Kind::Local && inputs.local(g.source->name()) != g.expected)
        return false;
    return true;
  });
  const bool accumulated = static_cast<int64_t>(code.entries.size()) >= config.accumulated_recompile_limit;
  if (!accumulated && same_objects < config.recompile_limit) return;
  events::cache_limit_hit(metrics.ids, code, accumulated ? "accumulated_recompile_limit" : "recompile_limit",
                          accumulated ? config.accumulated_recompile_limit : config.recompile_limit, failures.front());
  metrics.fail_type = "Unsupported";
  metrics.fail_reason = "cache_size_limit reached";
  metrics.refused = true;
  throw SkipFrame{};
}

// TORCH_COMPILE_DEBUG's torchdynamo/debug.log, opened at the first compile as PyTorch's: what
// Dynamo's loggers write goes there too, the message alone.
void open_dynamo_debug_log() {
  static const bool opened = [] {
    if (!fx::compile_debug_enabled()) return false;
    const std::filesystem::path dir = fx::debug_run_dir() / "torchdynamo";
    try {
      std::filesystem::create_directories(dir);
      log::add_debug_log("torch._dynamo", dir / "debug.log");
    } catch (const std::exception& error) {
      log::emit(log::Component::dynamo, log::Level::Warning, {"torch/_dynamo/utils.py", 988}, "", error.what());
      return false;
    }
    return true;
  }();
  (void)opened;
}

// Float locals automatic dynamic made symbolic, by source.
std::set<std::string> dynamic_floats(const CompileOptions& options, const DynamoConfig& config, const CodeState& code) {
  std::set<std::string> floats;
  if (options.dynamic.value_or(true) && config.automatic_dynamic_shapes)
    for (const auto& [source, history] : code.history)
      if (history.dynamic_float) floats.insert(source);
  return floats;
}

std::string backend_name_of(const CompileOptions& options) {
  const Ref& backend = options.compiling_backend();
  return backend->kind == ObjectKind::Str        ? as<StrObject>(backend).value
         : backend->kind == ObjectKind::Function ? as<FunctionObject>(backend).name
                                                 : type_name(backend);
}

}  // namespace

// One compile of a frame: what its phases share, from the capture to the cache entry.
struct FrameCompile {
  FrameCompile(Interpreter& interp, const CompileOptions& options, const DynamoConfig& config, CodeState& code,
               const FrameInputs& inputs, CompileMetrics& metrics, events::FrameCompilation& phases);

  Interpreter& interp;
  const CompileOptions& options;
  const DynamoConfig& config;
  CodeState& code;
  const FrameInputs& inputs;
  CompileMetrics& metrics;
  events::FrameCompilation& phases;

  std::unique_ptr<CacheEntry> entry = std::make_unique<CacheEntry>();
  std::unique_ptr<Frame> frame;
  ShapeEnv shapes;
  TensorDescriber describer{metrics.ids};
  OutputGraph graph;
  Tracer tracer;
  // Objects the capture changed are put back however the compile ends; the entry replays the
  // changes after its graph (side_effects.h).
  struct RestoreSideEffects {
    SideEffects& effects;
    Interpreter& interp;
    ~RestoreSideEffects() { effects.restore(interp); }
  } restore_side_effects{tracer.side_effects(), interp};
  TemplateBuilder templates{interp, graph};

  bool completed = false;           // the frame ran to its end
  std::optional<GraphBreak> broke;  // else where it broke
  std::optional<StatementPath> resume_path;
  std::vector<std::string> op_targets;  // the graph's call targets, for explain()
};

FrameCompile::FrameCompile(Interpreter& interp, const CompileOptions& options, const DynamoConfig& config, CodeState& code,
                           const FrameInputs& inputs, CompileMetrics& metrics, events::FrameCompilation& phases)
    : interp(interp),
      options(options),
      config(config),
      code(code),
      inputs(inputs),
      metrics(metrics),
      phases(phases),
      frame(frame_for(interp, code, inputs)),
      shapes(options.dynamic.value_or(false)),
      graph(interp, inputs, entry->guards, shapes,
            {[this] { return tracer.node_site(this->interp); }, [this] { return tracer.guard_site(this->interp); }}),
      tracer(call_rules(interp), graph, *frame, code.co_name,
             {metrics.ids.text(), config.capture_scalar_outputs || options.fullgraph, dynamic_floats(options, config, code),
              config.reorderable_logging_functions}) {
  graph.on_input_tensor = [this](const tensor::Tensor& real, bool is_parameter, const std::string& source) {
    describer.describe_input(real, is_parameter, source);
  };
  graph.on_symbol = [this](const std::string& symbol, const std::string& value, const std::string& range, const std::string& source) {
    events::create_symbol(this->interp, this->metrics.ids, symbol, value, range, source, tracer.guard_site(this->interp));
  };
  graph.is_dynamic = [this](const std::string& source, int64_t dim, int64_t) {
    if (this->options.dynamic) return *this->options.dynamic;
    if (!this->config.automatic_dynamic_shapes) return false;
    auto it = this->code.history.find(source);
    return it != this->code.history.end() && it->second.dynamic_dims.count(dim) > 0;
  };
  std::map<std::string, Ref> stand_ins;  // float locals traced as graph inputs, by name
  const TypeObject& module_type = as<TypeObject>(call_rules(interp).module_type);
  for (const auto& [name, value] : inputs.locals) {
    SourceRef source = Source::local(name);
    auto history = code.history.find(source->text());
    bool symbolic = value->kind == ObjectKind::Float && options.dynamic.value_or(true) && config.automatic_dynamic_shapes &&
                    history != code.history.end() && history->second.dynamic_float;
    if (!symbolic) {
      size_t before = entry->guards.size();
      // A module is guarded by its class (Dynamo inlines nn.Module calls): its parameters are
      // graph inputs and the attributes its code reads are guarded where they are read, so another
      // instance of the class runs the same graph.
      if (value->kind == ObjectKind::Instance && value->type->is_subtype_of(&module_type)) {
        Guard type{GuardKind::TypeMatch, source, type_of(value)};
        type.value_type = value->type->qualified_name();
        entry->guards.add(std::move(type));
      } else {
        guard_value(entry->guards, source, value);
      }
      attribute_to_first_use(entry->guards, before, code, name);
      continue;
    }
    Guard type{GuardKind::TypeMatch, source, builtin_type_ref(value->type)};
    type.value_type = "float";
    entry->guards.add(std::move(type));
    Ref stand_in = stand_ins[name] = std::make_shared<SymbolicScalarObject>(source, as<FloatObject>(value).value);
    for (size_t i = 0; i < frame->code->slot_names.size(); ++i)
      if (frame->code->slot_names[i] == name) frame->scope->slots[i] = stand_in;
  }
  // A resumed frame gets the values of the expressions it was entered in (an .item() before the
  // break) as ___stackN locals; a float among them that is traced symbolically is its stand-in.
  std::vector<std::pair<const Expression*, Ref>> replay;
  for (size_t i = 0; i < code.replayed.size(); ++i) {
    std::string name = "___stack" + std::to_string(i);
    auto stand_in = stand_ins.find(name);
    replay.emplace_back(code.replayed[i], stand_in != stand_ins.end() ? stand_in->second : inputs.local(name));
  }
  tracer.set_replay(std::move(replay));
  Guard global_state{GuardKind::GlobalState, nullptr};
  global_state.grad_mode = ops::GradMode::is_enabled();
  global_state.autocast = ops::autocast_states();
  entry->guards.add(std::move(global_state));
}

namespace {

TensorSizes tensor_sizes(const FrameInputs& inputs) {
  TensorSizes sizes;
  for (const auto& [name, value] : inputs.locals)
    if (is_tensor(value)) sizes.emplace_back(name, static_cast<TensorObject&>(*value).value.sizes());
  return sizes;
}

// eager_then_compile's first two calls tell which sizes vary: those compile dynamic, as automatic
// dynamic shapes would have found after a recompile.
void mark_varying_sizes(CodeState& code, const std::vector<TensorSizes>& calls) {
  for (const auto& [name, sizes] : calls.front()) {
    InputHistory& history = code.history[Source::local(name)->text()];
    if (history.sizes.empty()) history.sizes = sizes;
    for (const auto& [other_name, other_sizes] : calls.back())
      if (other_name == name)
        for (size_t d = 0; d < sizes.size() && d < other_sizes.size(); ++d)
          if (sizes[d] != other_sizes[d]) history.dynamic_dims.insert(static_cast<int64_t>(d));
  }
}

}  // namespace

std::optional<CompileOptions> Runtime::options_for_miss(Interpreter& interp, const CompileOptions& options, CodeState& code,
                                                        const FrameInputs& inputs,
                                                        const std::vector<std::pair<std::string, std::string>>& failures) {
  switch (options.stance) {
    case Stance::Default:
    case Stance::ForceEager: return options;
    case Stance::EagerOnRecompile: return std::nullopt;
    case Stance::FailOnRecompile: {
      // Frames Dynamo would not compile anyway (no tensors) run on.
      if (!has_tensor_in_frame(code, inputs)) return std::nullopt;
      std::string message = "Detected recompile when torch.compile stance is 'fail_on_recompile'. filename: '" + code.co_filename +
                            "', function name: '" + code.co_name + "', line number: " + std::to_string(code.co_firstlineno);
      if (!failures.empty()) message += "\n" + events::guard_failure_details(failures);
      raise_error(ExcType::RuntimeError, message);
    }
    case Stance::EagerThenCompile:
    case Stance::AotEagerThenCompile: {
      std::vector<TensorSizes>& calls = first_calls_[{code.co_filename, code.co_firstlineno}];
      if (calls.size() < 2) calls.push_back(tensor_sizes(inputs));
      if (calls.size() == 1) {
        if (options.stance == Stance::EagerThenCompile) return std::nullopt;
        CompileOptions aot_eager = options;
        aot_eager.stand_in_backend = checked_backend(interp, py_str("aot_eager"));
        return aot_eager;
      }
      mark_varying_sizes(code, calls);
      return options;
    }
  }
  return options;
}

CacheEntry* Runtime::compile(Interpreter& interp, const CompileOptions& options, CodeState& code, const FrameInputs& inputs,
                             const std::vector<std::pair<std::string, std::string>>& failures) {
  // Compiling leaves the grad mode as it found it, also when the backend raises in the middle of
  // a graph's no_grad block (Dynamo's preserve_global_state): later code ran without autograd.
  const ops::GradModeGuard keep_grad_mode(ops::GradMode::is_enabled());
  DynamoConfig config = read_dynamo_config(interp);
  if (!code.frame_id) {
    if (!has_tensor_in_frame(code, inputs)) {
      code.skip = true;
      return nullptr;
    }
    code.frame_id = next_frame_id_++;
  }
  open_dynamo_debug_log();
  CompileMetrics metrics;
  metrics.ids = {*code.frame_id, code.compiles++, 0};
  metrics.start = std::chrono::system_clock::now();
  metrics.suppress_errors = config.suppress_errors;
  metrics.num_graph_breaks = static_cast<int64_t>(graph_break_counts_.size());
  if (!failures.empty()) {
    events::recompile(metrics.ids, code, failures);
    guard_failures_.push_back({&code, failures.front().second});
    metrics.recompile_reason = failures.front().first + ": " + failures.front().second;
  }
  // However the compile ends, its phases end and its metrics are written.
  events::FrameCompilation phases(metrics, code);
  try {
    // Raised once the recompile is logged, as a failure of this compile.
    if (config.error_on_recompile && !failures.empty()) {
      metrics.fail_type = "RecompileError";
      metrics.fail_reason = events::recompile_message(code, failures);
      throw PyException(dynamo_exception(interp, "RecompileError", *metrics.fail_reason));
    }
    check_cache_limit(config, code, inputs, failures, metrics);
    phases.begin_attempts(interp);
    update_history(code, inputs);
    FrameCompile compile(interp, options, config, code, inputs, metrics, phases);
    trace_frame(compile);
    if (compile.broke) handle_graph_break(compile);
    build_exit(compile);
    call_backend(compile);
    return store_entry(compile);
  } catch (const SkipFrame& skip) {
    if (skip.for_good) code.skip = true;
    return nullptr;
  }
}

// The capture: the frame runs over fakes under the tracer, to its end or to a graph break.
void Runtime::trace_frame(FrameCompile& c) {
  events::tracing(c.metrics.ids, c.code, "start");
  {
    trace::TimedPhase tracing("bytecode_tracing", c.metrics.ids.trace_id());
    HookScope scope(c.interp, &c.tracer);
    try {
      run_frame_code(c.interp, *c.frame, c.code, &c.tracer);
      c.completed = true;
    } catch (GraphBreak& b) {
      c.broke = std::move(b);
    } catch (ForbiddenCall& forbidden) {
      c.metrics.fail_type = "AssertionError";
      c.metrics.fail_reason = "Attempt to trace forbidden callable " + forbidden.callee;
      raise_error(ExcType::AssertionError, *c.metrics.fail_reason + user_code_trailer(forbidden.user_stack));
    } catch (PyException& error) {
      // Unbounded recursion is the code's own error: running it eagerly would recurse (and
      // capture each level again) the same way, so it reaches the caller now, as in PyTorch.
      if (error.exception->type->is_subtype_of(exception_type(ExcType::RecursionError))) {
        c.metrics.fail_type = "RecursionError";
        c.metrics.fail_reason = exception_summary(c.interp, error.exception);
        throw;
      }
      // Capture itself failed (an error the code raises, or one Kiln's capture cannot model):
      // this call runs eagerly, which raises the error if it is the code's own.
      log::emit(log::Component::dynamo, log::Level::Warning, {"torch/_dynamo/convert_frame.py", 1380}, c.metrics.ids.text(),
                "Capturing " + c.code.co_name + " failed (" + exception_summary(c.interp, error.exception) + "); it runs eagerly");
      // PyTorch's metrics give every failure its reason (tlparse refuses a trace that lacks one).
      c.metrics.fail_type = "Unsupported";
      c.metrics.fail_reason = exception_summary(c.interp, error.exception);
      throw SkipFrame{false};  // this call only
    }
  }
  if (c.completed) events::tracing(c.metrics.ids, c.code, "done");
}

// A graph break: reported and counted; with fullgraph=True the error raised, else the statement
// the frame resumes after, and the restart of the analysis without the breaking call.
void Runtime::handle_graph_break(FrameCompile& c) {
  const GraphBreak& broke = *c.broke;
  const std::string reason = broke.kind == BreakKind::DataDependentBranch ? "generic_jump TensorVariable()" : broke.message();
  records_.push_back({c.metrics.ids.text(), c.code.co_name, std::nullopt, {}, {reason}, broke.user_stack, {}});
  // With fullgraph=True (or error_on_graph_break set where it broke) the break is the error raised
  // here, not a graph break: PyTorch neither logs nor counts it, nor restarts.
  if (c.options.fullgraph || broke.error_on_graph_break) {
    record_for_replay(c.interp, c.config, c.code, c.inputs, c.options);
    c.metrics.fail_type = "Unsupported";
    c.metrics.fail_reason = broke.message();
    if (!broke.user_stack.empty()) {
      c.metrics.fail_user_frame_filename = broke.user_stack.back().filename;
      c.metrics.fail_user_frame_lineno = broke.user_stack.back().line;
    }
    PyException unsupported(dynamo_exception(c.interp, "Unsupported", broke.message() + user_code_trailer(broke.user_stack)));
    events::dynamo_error(c.metrics.ids, format_traceback(c.interp, unsupported));
    throw unsupported;
  }
  events::graph_break(c.metrics.ids, c.code, broke);
  auto counted = std::find_if(graph_break_counts_.begin(), graph_break_counts_.end(),
                              [&](const auto& entry) { return entry.first == broke.title(); });
  if (counted == graph_break_counts_.end()) graph_break_counts_.emplace_back(broke.title(), 1);
  else ++counted->second;
  c.metrics.num_graph_breaks = static_cast<int64_t>(graph_break_counts_.size());
  if (broke.restarts()) c.metrics.restart_reasons.push_back(broke.message());
  const BreakSite& site = c.tracer.break_site();
  if (site.statement && c.code.function->body && !c.code.function->lambda_body)
    c.resume_path = resumable_path(*c.code.function->body, site.statement);
  // A break Kiln cannot resume after (inside a loop, `with`, `try`, or mid-expression): the whole
  // frame runs eagerly, as Dynamo skips a frame with a break in a loop.
  if (!c.resume_path || site.kind == BreakSite::Kind::Elsewhere) throw SkipFrame{};
  if (broke.restarts()) {
    events::restart(c.metrics.ids, broke);
    c.phases.restart();
    c.describer.restart();
  }
}

// What the frame does after its graph: returns, or calls the breaking call and resumes, or
// branches on a tensor into one of two resume frames; with the changes it made to objects that
// outlive it and the logging calls moved after the graph.
void Runtime::build_exit(FrameCompile& c) {
  Interpreter& interp = c.interp;
  // What the frame changed, then the objects as the frame found them: the templates name values
  // by the paths that reach them before the changes, since a compiled entry fetches its values
  // before it replays the changes (a list the frame appended to does not yet hold the items).
  const std::vector<SideEffects::Change> changes = c.tracer.side_effects().changes(interp);
  c.tracer.side_effects().restore(interp);
  TemplateBuilder& templates = c.templates;
  const BreakSite& site = c.tracer.break_site();
  Frame& frame = *c.frame;
  FrameExit& exit = c.entry->exit;
  auto live_locals = [&](const std::set<std::string>& names) {
    std::vector<std::pair<std::string, ValueTemplate>> live;
    for (size_t i = 0; i < frame.code->slot_names.size(); ++i) {
      const std::string& name = frame.code->slot_names[i];
      if (frame.scope->slots[i] && names.count(name)) live.emplace_back(name, templates.of(frame.scope->slots[i]));
    }
    return live;
  };
  if (c.completed) {
    exit.kind = FrameExit::Kind::Return;
    exit.value = templates.of(frame.return_value ? frame.return_value : none());
  } else if (site.kind == BreakSite::Kind::Call) {
    exit.kind = FrameExit::Kind::Call;
    exit.callee = templates.of(site.callee);
    for (const auto& a : site.args.args) exit.args.push_back(templates.of(a));
    for (const auto& [k, v] : site.args.kwargs) exit.kwargs.emplace_back(k, templates.of(v));
    std::vector<const Expression*> replayed;
    std::unordered_set<const Expression*> skip{site.call};
    for (const auto& [expr, value] : site.stack) {
      exit.stack.push_back(templates.of(value));
      replayed.push_back(expr);
      skip.insert(expr);
    }
    replayed.push_back(site.call);
    exit.live = live_locals(names_read(*c.resume_path, skip));
    exit.resume = &resume_state(c.code, {site.call, -1}, site.line, *c.resume_path, std::move(replayed));
  } else {
    exit.kind = FrameExit::Kind::Branch;
    exit.value = templates.of(site.condition);
    const auto& branch = cast<If>(*site.statement);
    StatementPath when_true = *c.resume_path, when_false = *c.resume_path;
    when_true.push_back({&branch.body, 0});
    if (branch.orelse.empty()) ++when_false.back().index;
    else when_false.push_back({&branch.orelse, 0});
    std::set<std::string> names = names_read(when_true, {});
    names.merge(names_read(when_false, {}));
    exit.live = live_locals(names);
    exit.resume = &resume_state(c.code, {site.statement, 1}, site.line, when_true, {});
    exit.resume_false = &resume_state(c.code, {site.statement, 0}, site.line, when_false, {});
  }

  for (const SideEffects::Change& change : changes) {
    // A list changed other than by appending: the frame runs eagerly.
    if (!change.replayable) throw SkipFrame{};
    StateChange replayed{change.source, {}, change.removed, {}};
    for (const auto& [key, value] : change.set) replayed.set.emplace_back(key, templates.of(value));
    for (const auto& item : change.appended) replayed.appended.push_back(templates.of(item));
    exit.state_changes.push_back(std::move(replayed));
  }
  for (const ReorderedCall& logged : c.tracer.reordered_calls()) {
    std::vector<ValueTemplate> call{templates.of(logged.callee)};
    for (const auto& a : logged.args.args) call.push_back(templates.of(a));
    exit.logging_calls.push_back(std::move(call));
  }
  // Dynamo's "No ops traced for the FX graph": a frame that returns having recorded no call,
  // changed no object and logged nothing is skipped before it gets guards, and runs eagerly from
  // now on.
  if (c.completed && c.graph.op_count() == 0 && exit.state_changes.empty() && exit.logging_calls.empty()) throw SkipFrame{};
}

// The graph, once it has its outputs, goes to the backend; what it compiled is the entry's.
void Runtime::call_backend(FrameCompile& c) {
  Interpreter& interp = c.interp;
  OutputGraph& graph = c.graph;
  CompileMetrics& metrics = c.metrics;
  graph.set_output(c.templates.outputs);
  ir::eliminateDeadCode(graph.module().graph);
  int64_t ops = graph.op_count();
  if (ops > 0 || !c.completed) metrics.graph_op_count = ops;
  for (const ir::Node* n : graph.module().graph.nodes())
    if (n->op() == ir::OpCode::CallFunction || n->op() == ir::OpCode::CallMethod) c.op_targets.push_back(n->target());
  if (ops == 0) return;
  if (!c.shapes.symbols().empty()) graph.settle_symbolic_shapes();
  metrics.graph_node_count = static_cast<int64_t>(graph.module().graph.size());
  metrics.graph_input_count = static_cast<int64_t>(graph.inputs().size());
  events::output_graph(metrics.ids, graph.module());
  std::string shapes;
  for (const ir::Node* n : graph.module().graph.nodes())
    if (const auto* meta = std::get_if<ir::TensorMeta>(&n->meta.value)) {
      shapes += (shapes.empty() ? "'" : ", '") + n->name() + "': [";
      for (size_t i = 0; i < meta->sizes.size(); ++i) shapes += (i ? ", " : "") + meta->sizes[i].str();
      shapes += "]";
    }
  metrics.graph_node_shapes = "{" + shapes + "}";
  std::vector<std::string> input_sources;
  std::vector<Ref> example;
  for (const GraphInput& input : graph.inputs()) {
    input_sources.push_back(input.source ? input.source->text() : "None");
    example.push_back(fetch_graph_input(interp, input, c.inputs));
  }
  c.entry->graph_inputs = graph.inputs();
  auto captured = std::make_shared<fx::BackendGraph>(
      fx::BackendGraph{graph.take_module(), std::move(input_sources), metrics.ids.trace_id(), c.options.mode, c.options.options,
                        graph.sizes_pinned()});
  const std::string backend_name = backend_name_of(c.options);
  events::backend(metrics.ids, backend_name, "calling");
  trace::TimedPhase backend_compile("backend_compile", metrics.ids.trace_id(), "OutputGraph.call_user_compiler");
  auto backend_started = std::chrono::steady_clock::now();
  fx::current_backend_report() = {};
  try {
    HookScope no_capture(interp, nullptr);
    const Ref& compiling = c.options.compiling_backend();
    fx::Backend backend = fx::split_backend(
        interp, fx::wrap_backend(compiling->kind == ObjectKind::Str ? *fx::find_backend(as<StrObject>(compiling).value)
                                                                    : fx::script_backend(compiling),
                                 backend_name, compiling));
    c.entry->compiled = backend(interp, captured, example);
  } catch (PyException& error) {
    metrics.graph_op_count.reset();
    metrics.fail_type = "BackendCompilerFailed";
    metrics.fail_reason = exception_summary(interp, error.exception);
    if (c.config.suppress_errors) throw SkipFrame{};
    record_for_replay(interp, c.config, c.code, c.inputs, c.options);
    if (classify_backend_failure(interp, error) == BackendFailure::InductorError) {
      // Raised as it is, its message ending with the hint, as PyTorch's.
      PyException shown(call(interp, type_of(error.exception),
                              std::vector<Ref>{py_str(exception_message(interp, error.exception) + "\n\n" + kVerboseHint +
                                                      minifier_note(interp, error.exception))}));
      shown.traceback = error.traceback;
      shown.context = error.context;
      events::dynamo_error(metrics.ids, format_traceback(interp, shown));
      throw shown;
    }
    PyException wrapped(dynamo_exception(interp, "BackendCompilerFailed",
                                         "backend='" + backend_name + "' raised:\n" + error.exception->type->name + ": " +
                                             exception_message(interp, error.exception) + "\n\n" + kVerboseHint +
                                             minifier_note(interp, error.exception)));
    wrapped.context = error.exception;
    // The trace shows the wrapped error raised from the backend's own frames, as Dynamo's does.
    PyException shown = wrapped;
    shown.traceback = error.traceback;
    events::dynamo_error(metrics.ids, format_traceback(interp, shown));
    throw wrapped;
  }
  // Code right only at the captured sizes is guarded on them (another size recompiles).
  if (fx::current_backend_report().specialized_to_sizes) graph.pin_dynamic_sizes();
  metrics.backend_compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - backend_started).count();
  metrics.inductor_compile_seconds = fx::current_backend_report().inductor_compile_seconds;
  metrics.code_gen_seconds = fx::current_backend_report().code_gen_seconds;
  compile_times().add("OutputGraph.call_user_compiler", *metrics.backend_compile_seconds);
  events::backend(metrics.ids, backend_name, "done");
  c.entry->graph = std::move(captured);
}

// The entry joins the frame's cache, with its guards.
CacheEntry* Runtime::store_entry(FrameCompile& c) {
  CompileMetrics& metrics = c.metrics;
  std::unique_ptr<CacheEntry>& entry = c.entry;
  entry->compile_id = metrics.ids.frame_compile_text();
  entry->backend = c.options.backend;
  entry->dynamic = c.options.dynamic;
  entry->fullgraph = c.options.fullgraph;
  entry->mode = c.options.mode;
  entry->options = c.options.options;
  metrics.guard_count = static_cast<int64_t>(entry->guards.size());
  {
    trace::TimedPhase build_guards("build_guards", metrics.ids.trace_id());
    // One evaluation on the frame that made them, timed, as PyTorch's profile_guard_manager does.
    const auto guard_start = std::chrono::steady_clock::now();
    (void)entry->guards.check(c.interp, c.inputs);
    metrics.guard_latency_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - guard_start).count();
    events::guards(metrics.ids, entry->guards, *metrics.guard_latency_us);
  }
  compile_times().add("_compile.compile_inner", std::chrono::duration<double>(std::chrono::system_clock::now() - metrics.start).count());
  records_.push_back({metrics.ids.text(), c.code.co_name, metrics.graph_op_count, c.op_targets, {}, {},
                      explain_guards(c.interp, entry->guards, c.inputs)});
  c.code.entries.push_back(std::move(entry));
  CacheEntry* stored = c.code.entries.back().get();
  // A frame that ran to its end with no ops is not compiled again: it runs eagerly from now on,
  // as Dynamo skips a frame with nothing to compile.
  if (c.completed && !stored->graph && stored->exit.logging_calls.empty()) c.code.skip = true;
  return stored;
}

}  // namespace kiln::capture
