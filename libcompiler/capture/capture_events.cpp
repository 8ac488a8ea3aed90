#include "libcompiler/capture/capture_events.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "libcompiler/ir/readable_printer.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/torch/torch_module.h"
#include "libdiag/log/logger.h"
#include "libdiag/trace/trace_writer.h"

namespace kiln::capture {

using trace::TraceJson;
using trace::TraceWriter;

std::string CompileIds::frame_compile_text() const { return std::to_string(frame_id) + "/" + std::to_string(frame_compile_id); }

std::string CompileIds::text() const {
  std::string text = frame_compile_text();
  if (attempt) text.append("_").append(std::to_string(attempt));
  return text;
}

trace::CompileId CompileIds::trace_id() const {
  trace::CompileId id;
  id.frame_id = static_cast<uint32_t>(frame_id);
  id.frame_compile_id = static_cast<uint32_t>(frame_compile_id);
  id.attempt = static_cast<uint32_t>(attempt);
  return id;
}

namespace {

trace::TraceContext context(const CompileIds& ids) { return {ids.trace_id(), {}}; }

double seconds_since(std::chrono::system_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::system_clock::now() - start).count();
}

double epoch_seconds(std::chrono::system_clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

std::string global_state_json() {
  return std::string(R"({"allow_bf16_reduce":0,"allow_fp16_reduce":0,"allow_tf32":false,"autocast_state":{"cached_enabled":true,)"
                     R"("dtype":[15,5,5,15,5,5,15,15,5,5],"enabled":[false,false,false,false,false,false,false,false,false,false]},)"
                     R"("default_dtype":6,"deterministic_algorithms":false,"deterministic_algorithms_warn_only":false,"grad_mode":)") +
         (ops::GradMode::is_enabled() ? "true" : "false") + R"(,"num_threads":)" +
         std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
         R"(,"torch_function":true,"torch_function_all_disabled":false})";
}

const char* guard_kind_name(GuardKind kind) {
  switch (kind) {
    case GuardKind::TensorMatch: return "TENSOR_MATCH";
    case GuardKind::EqualsMatch: return "EQUALS_MATCH";
    case GuardKind::IdMatch: return "ID_MATCH";
    case GuardKind::TypeMatch: return "TYPE_MATCH";
    case GuardKind::LengthCheck: return "LENGTH_CHECK";
    case GuardKind::DictKeys: return "DICT_KEYS_MATCH";
    case GuardKind::GlobalState: return "GLOBAL_STATE";
    default: return "LAMBDA_GUARD";
  }
}

std::string accessor(const Source& source) {
  switch (source.kind()) {
    case Source::Kind::Local: return "FrameLocalsGuardAccessor(key='" + source.name() + "')";
    case Source::Kind::Global: return "DictGetItemGuardAccessor('" + source.name() + "')";
    case Source::Kind::Builtins: return "DictGetItemGuardAccessor('__builtins_dict___1')";
    case Source::Kind::Attribute: return "GetAttrGuardAccessor(" + source.name() + ")";
    case Source::Kind::Item: {
      std::string text = source.text();
      return "GetItemGuardAccessor(" + text.substr(source.base()->text().size() + 1, text.size() - source.base()->text().size() - 2) + ")";
    }
  }
  return "";
}

// A guard manager per source, holding the guards on it and the managers of sources below it.
struct Manager {
  SourceRef source;
  std::vector<const Guard*> guards;
  std::vector<std::unique_ptr<Manager>> children;
  Manager* child(const SourceRef& s) {
    for (auto& c : children)
      if (c->source->text() == s->text()) return c.get();
    children.push_back(std::make_unique<Manager>());
    children.back()->source = s;
    return children.back().get();
  }
};

void print_manager(const Manager& m, const std::string& indent, std::string& out) {
  std::string type = "object";
  for (const Guard* g : m.guards)
    if (!g->value_type.empty()) type = g->value_type;
  out += indent + "+- GuardManager: source=" + m.source->text() + ", accessed_by=" + accessor(*m.source) + ", type=<class '" +
         type + "'>\n";
  for (const Guard* g : m.guards) {
    out += indent + "| +- " + guard_kind_name(g->kind) + ": " + guard_line(*g) + "\n";
    if (g->kind == GuardKind::TensorMatch) {
      out += indent + "| +- NO_HASATTR: ";
      std::string code = "hasattr(" + g->source->text() + ", '_dynamo_dynamic_indices') == False";
      if (!g->user_code.empty() && code.size() < 60) code.resize(60, ' ');
      out += code + (g->user_code.empty() ? "" : "  # " + g->user_code) + "\n";
    }
  }
  for (const auto& c : m.children) print_manager(*c, indent + "| ", out);
}

void log_lines(log::Artifact artifact, log::SourceSite site, const std::string& id, const std::string& text) {
  if (log::is_enabled(artifact)) log::emit(artifact, log::Level::Debug, site, id, text);
}

std::string uuid4_with_underscores() {
  static std::mt19937_64 random{std::random_device{}()};
  char text[40];
  uint64_t a = random(), b = random();
  std::snprintf(text, sizeof text, "%08x_%04x_4%03x_%04x_%012llx", static_cast<unsigned>(a >> 32), static_cast<unsigned>(a >> 16 & 0xffff),
                static_cast<unsigned>(a & 0xfff), static_cast<unsigned>(0x8000 | (b >> 48 & 0x3fff)),
                static_cast<unsigned long long>(b & 0xffffffffffffull));
  return text;
}

// The user frames (not Kiln's torch library) from the outermost to the current one.
std::vector<trace::TraceFrame> user_stack_frames(python::Interpreter& interp) {
  std::vector<trace::TraceFrame> stack;
  for (const python::Frame* f = interp.current_frame(); f; f = f->back) {
    if (!f->where || !f->where->loc.file) continue;
    if (f->function && f->function->globals) {
      python::Ref module = f->function->globals->get("__name__");
      if (module && module->kind == python::ObjectKind::Str && python::is_torch_module_name(python::as<python::StrObject>(module).value))
        continue;
    }
    const auto& loc = f->where->loc;
    std::string line(loc.file->line_text(loc.line));
    size_t start = line.find_first_not_of(" \t");
    stack.insert(stack.begin(), trace::TraceFrame{loc.file->name(), static_cast<int32_t>(loc.line), f->code->name,
                                                   start == std::string::npos ? "" : line.substr(start)});
  }
  return stack;
}

}  // namespace

std::string guard_tree(const GuardSet& guards) {
  Manager root;
  Manager globals;
  std::vector<const Guard*> lambdas;
  for (const Guard& g : guards.guards()) {
    if (g.kind == GuardKind::SizeLowerBound || g.kind == GuardKind::SizeEquality || g.kind == GuardKind::StrideEquality ||
        g.kind == GuardKind::SizeValue || g.kind == GuardKind::ShapeRelation ||
        g.kind == GuardKind::DuplicateInput) {
      lambdas.push_back(&g);
      continue;
    }
    if (!g.source) continue;
    std::vector<SourceRef> chain;
    for (SourceRef s = g.source; s; s = s->base()) chain.insert(chain.begin(), s);
    Manager* m = chain.front()->kind() == Source::Kind::Global || chain.front()->kind() == Source::Kind::Builtins ? &globals : &root;
    for (const auto& s : chain) m = m->child(s);
    m->guards.push_back(&g);
  }
  std::string out = "\nTREE_GUARD_MANAGER:\n+- RootGuardManager\n";
  out += "| +- LAMBDA_GUARD: torch._functorch.aot_autograd.utils.top_saved_tensors_hooks ids == None  # _dynamo/output_graph.py:964 in init_ambient_guards\n";
  out += "| +- GLOBAL_STATE: ___check_global_state() against " + global_state_json() + "\n";
  out += "| +- TORCH_FUNCTION_MODE_STACK: ___check_torch_function_mode_stack()\n";
  out += "| +- DEFAULT_DEVICE: utils_device.CURRENT_DEVICE == None                           # _dynamo/output_graph.py:951 in init_ambient_guards\n";
  for (const auto& c : root.children) print_manager(*c, "| ", out);
  if (!globals.children.empty()) {
    out += "| +- GuardManager: source=G, accessed_by=GlobalsGuardAccessor, type=<class 'dict'>\n";
    for (const auto& c : globals.children) print_manager(*c, "| | ", out);
  }
  for (const Guard* g : lambdas) out += "+- LAMBDA_GUARD: " + guard_line(*g) + "\n";
  return out;
}

// The "Graph Break Reason: ..." text of the log and the trace payload.
std::string graph_break_reason(const GraphBreak& b) {
  if (b.kind == BreakKind::DataDependentBranch) return b.message();
  return "Encountered graph break when attempting to trace CALL: a function call, e.g. f(x, y):\n\n" + b.message();
}

std::string graph_break_report(const GraphBreak& b) {
  std::string out;
  if (!b.user_stack.empty())
    out += "Graph break in user code at " + b.user_stack.back().filename + ":" + std::to_string(b.user_stack.back().line) + "\n";
  out += "Graph Break Reason: " + graph_break_reason(b) + "\n";
  out += "\nUser code traceback:\n";
  for (const UserFrame& f : b.user_stack)
    out += "  File \"" + f.filename + "\", line " + std::to_string(f.line) + ", in " + f.function + "\n    " + f.code + "\n";
  return out;
}

namespace {

// PyTorch's graph_break_dup_warning_checker: the breaks logged since torch.compile made its
// callback, by kind and the frames being compiled (not the callers outside them).
std::set<std::string>& seen_graph_breaks() {
  static std::set<std::string> seen;
  return seen;
}

bool first_report_of(const GraphBreak& b) {
  const char* verbose = std::getenv("TORCHDYNAMO_VERBOSE");
  if (verbose && std::string(verbose) == "1") return true;
  std::string key = std::to_string(static_cast<int>(b.kind));
  for (const UserFrame& f : b.user_stack)
    if (f.compiled) key += "|" + f.filename + ":" + std::to_string(f.line);
  return seen_graph_breaks().insert(key).second;
}

// PyTorch 2.11's CompilationMetrics, field for field and in its order, with Kiln's values; what
// Kiln has no counterpart of (remote caches, Triton, CUDA graphs, profile-guided optimization) is
// null, as PyTorch leaves what it did not use.
TraceJson compilation_metrics_json(const CompileMetrics& m, const CodeState& code) {
  const trace::CompileId id = m.ids.trace_id();
  const double duration = seconds_since(m.start);
  const auto start_us = static_cast<int64_t>(epoch_seconds(m.start) * 1e6);
  auto optional = [](const auto& v) { return v ? TraceJson(*v) : TraceJson(nullptr); };
  // A phase's cumulative microseconds, null when the compilation had none.
  auto phase_us = [&](std::string_view name) {
    const double seconds = trace::phase_seconds(id, name);
    return seconds > 0 ? TraceJson(static_cast<int64_t>(seconds * 1e6)) : TraceJson(nullptr);
  };
  const bool refused = m.refused;
  const bool compiled_graph = m.backend_compile_seconds.has_value();
  TraceJson metrics = TraceJson::object();
  metrics["compile_id"] = m.ids.frame_compile_text();
  metrics["frame_key"] = std::to_string(m.ids.frame_id + 1);
  metrics["co_name"] = refused ? TraceJson(nullptr) : TraceJson(code.co_name);
  metrics["co_filename"] = refused ? TraceJson(nullptr) : TraceJson(code.co_filename);
  metrics["co_firstlineno"] = refused ? TraceJson(nullptr) : TraceJson(code.co_firstlineno);
  metrics["cache_size"] = code.entries.size();
  metrics["accumulated_cache_size"] = code.entries.size();
  metrics["guard_count"] = optional(m.guard_count);
  metrics["shape_env_guard_count"] = m.guard_count ? TraceJson(0) : TraceJson(nullptr);
  metrics["graph_op_count"] = optional(m.graph_op_count);
  metrics["graph_node_count"] = optional(m.graph_node_count);
  metrics["graph_input_count"] = optional(m.graph_input_count);
  metrics["start_time"] = epoch_seconds(m.start);
  metrics["entire_frame_compile_time_s"] = duration;
  metrics["backend_compile_time_s"] = optional(m.backend_compile_seconds);
  metrics["inductor_compile_time_s"] = optional(m.inductor_compile_seconds);
  metrics["code_gen_time_s"] = optional(m.code_gen_seconds);
  metrics["fail_type"] = optional(m.fail_type);
  metrics["fail_reason"] = optional(m.fail_reason);
  metrics["fail_user_frame_filename"] = optional(m.fail_user_frame_filename);
  metrics["fail_user_frame_lineno"] = optional(m.fail_user_frame_lineno);
  metrics["non_compliant_ops"] = TraceJson::array();
  metrics["compliant_custom_ops"] = TraceJson::array();
  metrics["restart_reasons"] = m.restart_reasons;
  metrics["dynamo_time_before_restart_s"] = m.seconds_before_restart;
  metrics["stack_trace"] = TraceJson::array({"Line: " + std::to_string(code.co_firstlineno) + ", Name: " + code.co_name +
                                             ", Filename: " + code.co_filename});
  metrics["exception_stack_trace"] = nullptr;
  metrics["graph_node_shapes"] = m.graph_node_shapes.value_or("{}");
  metrics["has_guarded_code"] = !m.fail_type;
  metrics["remote_cache_time_saved_s"] = nullptr;
  metrics["structured_logging_overhead_s"] = nullptr;
  metrics["config_suppress_errors"] = m.suppress_errors;
  metrics["config_inline_inbuilt_nn_modules"] = true;
  metrics["specialize_float"] = false;
  metrics["dynamo_config"] = nullptr;
  metrics["compiler_config"] = nullptr;
  metrics["is_forward"] = true;
  metrics["num_triton_bundles"] = nullptr;
  metrics["remote_fx_graph_cache_get_time_ms"] = nullptr;
  metrics["remote_fx_graph_cache_put_time_ms"] = nullptr;
  metrics["start_time_us"] = start_us;
  metrics["duration_us"] = static_cast<int64_t>(duration * 1e6);
  metrics["dynamo_cumulative_compile_time_us"] = static_cast<int64_t>(duration * 1e6);
  metrics["aot_autograd_cumulative_compile_time_us"] = phase_us("create_aot_dispatcher_function");
  metrics["inductor_cumulative_compile_time_us"] = phase_us("inductor_compile");
  metrics["inductor_code_gen_cumulative_compile_time_us"] = phase_us("code_gen");
  metrics["triton_compile_time_us"] = nullptr;
  metrics["runtime_cudagraphify_time_us"] = nullptr;
  metrics["runtime_triton_autotune_time_us"] = nullptr;
  metrics["dynamo_compile_time_before_restart_us"] = static_cast<int64_t>(m.seconds_before_restart * 1e6);
  metrics["distributed_ephemeral_timeout_us"] = nullptr;
  metrics["structured_logging_overhead_us"] = nullptr;
  metrics["remote_fx_graph_cache_get_time_us"] = nullptr;
  metrics["remote_fx_graph_cache_put_time_us"] = nullptr;
  metrics["backward_cumulative_compile_time_us"] = nullptr;
  metrics["end_time_us"] = start_us + static_cast<int64_t>(duration * 1e6);
  metrics["pre_grad_pass_time_us"] = nullptr;
  metrics["post_grad_pass_time_us"] = nullptr;
  metrics["joint_graph_pass_time_us"] = nullptr;
  metrics["log_format_version"] = 3;
  metrics["inductor_config"] = nullptr;
  metrics["remote_cache_version"] = nullptr;
  metrics["inductor_fx_remote_cache_hit_count"] = 0;
  metrics["inductor_fx_remote_cache_miss_count"] = 0;
  metrics["inductor_fx_remote_cache_backend_type"] = nullptr;
  metrics["inductor_fx_remote_cache_hit_keys"] = nullptr;
  metrics["inductor_fx_remote_cache_miss_keys"] = nullptr;
  metrics["inductor_fx_local_cache_hit_count"] = static_cast<int64_t>(trace::instant_count(id, "fx_graph_cache_hit"));
  metrics["inductor_fx_local_cache_miss_count"] = static_cast<int64_t>(trace::instant_count(id, "fx_graph_cache_miss"));
  metrics["aotautograd_remote_cache_hit_count"] = 0;
  metrics["aotautograd_remote_cache_miss_count"] = 0;
  metrics["aotautograd_local_cache_hit_count"] = 0;
  metrics["aotautograd_local_cache_miss_count"] = 0;
  metrics["cuda_version"] = nullptr;
  metrics["triton_version"] = nullptr;
  metrics["feature_usage"] = nullptr;
  metrics["compile_time_autotune_time_us"] = nullptr;
  metrics["is_runtime"] = false;
  metrics["gc_time_us"] = nullptr;
  metrics["tensorify_float_attempt"] = nullptr;
  metrics["tensorify_float_success"] = nullptr;
  metrics["tensorify_float_failure"] = nullptr;
  metrics["guard_latency_us"] = m.guard_latency_us ? TraceJson(static_cast<int64_t>(*m.guard_latency_us)) : TraceJson(nullptr);
  metrics["recompile_reason"] = optional(m.recompile_reason);
  metrics["num_graph_breaks"] = m.num_graph_breaks && *m.num_graph_breaks ? TraceJson(*m.num_graph_breaks) : TraceJson(nullptr);
  metrics["triton_kernel_compile_times_us"] = nullptr;
  metrics["ir_count"] = compiled_graph ? optional(m.graph_node_count) : TraceJson(nullptr);
  metrics["cudagraph_skip_reason"] = nullptr;
  metrics["python_version"] = nullptr;
  metrics["pgo_put_remote_code_state_time_us"] = nullptr;
  metrics["pgo_get_remote_code_state_time_us"] = nullptr;
  metrics["param_numel"] = nullptr;
  metrics["param_bytes"] = nullptr;
  metrics["param_count"] = nullptr;
  metrics["recompile_user_contexts"] = nullptr;
  metrics["inline_inbuilt_nn_modules_candidate"] = false;
  metrics["pytorch_version"] = "kiln";
  metrics["inductor_provenance"] = nullptr;
  return metrics;
}

}  // namespace

namespace events {

// The phases' call sites are passed: left to their default argument, std::optional::emplace would
// make them the standard library's construct_at (a header of this machine in every trace).
FrameCompilation::FrameCompilation(CompileMetrics& metrics, const CodeState& code) : metrics_(metrics), code_(code) {
  dynamo_.emplace("dynamo", metrics.ids.trace_id(), std::string_view{}, std::source_location::current());
  entire_.emplace("entire_frame_compile", metrics.ids.trace_id(), "_compile.compile_inner", std::source_location::current());
}

void FrameCompilation::begin_attempts(python::Interpreter& interp) {
  create_env(metrics_.ids);
  TraceWriter& writer = TraceWriter::from_environment();
  if (writer.enabled()) {
    std::vector<trace::TraceFrame> stack = user_stack_frames(interp);
    stack.push_back(trace::TraceFrame{code_.co_filename, code_.co_firstlineno, code_.co_name, std::nullopt});
    TraceJson metadata = TraceJson::object();
    metadata["stack"] = writer.frame_list(stack);
    writer.record("dynamo_start", metadata, context(metrics_.ids));
  }
  attempt_.emplace("compile_attempt_0", metrics_.ids.trace_id(), std::string_view{}, std::source_location::current());
}

void FrameCompilation::restart() {
  attempt_.reset();
  metrics_.seconds_before_restart = seconds_since(metrics_.start);
  ++metrics_.ids.attempt;
  attempt_.emplace("compile_attempt_" + std::to_string(metrics_.ids.attempt), metrics_.ids.trace_id(), std::string_view{},
                   std::source_location::current());
}

FrameCompilation::~FrameCompilation() {
  attempt_.reset();
  entire_.reset();
  try {
    const TraceJson metrics = compilation_metrics_json(metrics_, code_);
    TraceWriter& writer = TraceWriter::from_environment();
    if (writer.enabled()) writer.compilation_metrics(metrics, context(metrics_.ids));
    dynamo_->end_args() = metrics;
    dynamo_->end_args().erase("compile_id");
  } catch (...) {
    // A compilation that ends by an error ends it even when its report cannot be made.
  }
  dynamo_.reset();
}

void graph_break(const CompileIds& ids, const CodeState&, const GraphBreak& b) {
  if (b.kind == BreakKind::Item) {
    // PyTorch warns about .item() breaks once, whatever TORCH_LOGS says.
    static bool warned = false;
    if (!warned) {
      warned = true;
      std::string where;
      for (const UserFrame& f : b.user_stack)
        if (f.compiled) where = "  File \"" + f.filename + "\", line " + std::to_string(f.line) + ", in " + f.function + "\n    " + f.code;
      log::emit(log::Component::dynamo, log::Level::Warning, {"torch/_dynamo/variables/tensor.py", 1379}, ids.text(),
                "Graph break from `Tensor.item()`, consider setting:\n    torch._dynamo.config.capture_scalar_outputs = True\nor:\n"
                "    env TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1\nto include these operations in the captured graph.\n\n"
                "Graph break: from user code at:\n" + where + "\n\n");
    }
  }
  std::string report = graph_break_report(b);
  TraceWriter& writer = TraceWriter::from_environment();
  if (writer.enabled()) writer.artifact("dynamo_graph_break_reason", trace::ArtifactEncoding::String, report, context(ids));
  if (first_report_of(b)) {
    log_lines(log::Artifact::graph_breaks, {"torch/_dynamo/symbolic_convert.py", 5127}, ids.text(), report);
    return;
  }
  // The same break again (a recompile reaching it): its stack once is enough, as in PyTorch.
  const UserFrame* at = b.user_stack.empty() ? nullptr : &b.user_stack.back();
  log_lines(log::Artifact::graph_breaks, {"torch/_dynamo/symbolic_convert.py", 5134}, ids.text(),
            "Graph break (user stack suppressed due to duplicate graph break) in user code at " +
                (at ? at->filename + ":" + std::to_string(at->line) : std::string(":")) + "\nGraph Break Reason: " +
                graph_break_reason(b));
}

void reset_duplicate_graph_breaks() { seen_graph_breaks().clear(); }

std::string guard_failure_details(const std::vector<std::pair<std::string, std::string>>& failures) {
  std::string details = "    triggered by the following guard failure(s):";
  for (const auto& [id, reason] : failures) {
    std::string text = id + ": " + reason;
    for (size_t start = 0; start <= text.size();) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      details += "\n    - " + text.substr(start, end - start);
      start = end + 1;
    }
  }
  return details;
}

std::string recompile_message(const CodeState& code, const std::vector<std::pair<std::string, std::string>>& failures) {
  return "Recompiling function " + code.co_name + " in " + code.co_filename + ":" + std::to_string(code.co_firstlineno) + "\n" +
         guard_failure_details(failures);
}

void recompile(const CompileIds& ids, const CodeState& code, const std::vector<std::pair<std::string, std::string>>& failures) {
  std::string reasons;
  for (const auto& [id, reason] : failures) reasons += (reasons.empty() ? "" : "\n") + id + ": " + reason;
  TraceWriter& writer = TraceWriter::from_environment();
  if (writer.enabled()) writer.artifact("recompile_reasons", trace::ArtifactEncoding::Json, reasons, context(ids));
  const std::string message = recompile_message(code, failures);
  log_lines(log::Artifact::recompiles, {"torch/_dynamo/guards.py", 4760}, ids.text(), message);
  log_lines(log::Artifact::recompiles_verbose, {"torch/_dynamo/guards.py", 4760}, ids.text(), message);
}

void cache_limit_hit(const CompileIds& ids, const CodeState& code, const std::string& setting, int64_t limit,
                     const std::pair<std::string, std::string>& last) {
  std::string message = "torch._dynamo hit config." + setting + " (" + std::to_string(limit) + ")\n   function: '" + code.co_name +
                        "' (" + code.co_filename + ":" + std::to_string(code.co_firstlineno) + ")\n   last reason: " + last.first +
                        ": " + last.second +
                        "\nTo log all recompilation reasons, use TORCH_LOGS=\"recompiles\".\nTo diagnose recompilation issues, see "
                        "https://docs.pytorch.org/docs/main/user_guide/torch_compiler/compile/programming_model.recompilation.html";
  log::emit(log::Component::dynamo, log::Level::Warning, {"torch/_dynamo/convert_frame.py", 1743}, ids.text(), message);
}

void output_graph(const CompileIds& ids, const ir::GraphModule& module) {
  std::string code = ir::printReadable(module);
  TraceWriter& writer = TraceWriter::from_environment();
  if (writer.enabled()) {
    TraceJson sizes = TraceJson::object();
    for (const ir::Node* n : module.graph.nodes()) {
      const auto* meta = std::get_if<ir::TensorMeta>(&n->meta.value);
      if (!meta) continue;
      TraceJson dims = TraceJson::array();
      for (const auto& s : meta->sizes) {
        if (auto c = s.constant()) dims.push_back(*c);
        else dims.push_back(s.str());
      }
      sizes[n->name()] = dims;
    }
    TraceJson metadata = TraceJson::object();
    metadata["sizes"] = sizes;
    writer.record("dynamo_output_graph", metadata, context(ids), code);
  }
  // Dynamo names each compiled graph __compiled_fn_<odd counter>_<uuid4>.
  static int counter = -1;
  counter += 2;
  std::string name = "__compiled_fn_" + std::to_string(counter) + "_" + uuid4_with_underscores();
  if (log::is_enabled(log::Artifact::graph_code)) {
    std::string text = "TRACED GRAPH\n ===== " + name + " =====\n torch/fx/_lazy_graph_module.py " + code;
    log::emit(log::Artifact::graph_code, log::Level::Debug, {"torch/_dynamo/output_graph.py", 2417}, ids.text(), text);
  }
  if (log::is_enabled(log::Artifact::graph_sizes)) {
    std::string text = "TRACED GRAPH TENSOR SIZES\n===== " + name + " =====\n";
    for (const ir::Node* n : module.graph.nodes())
      if (const auto* meta = std::get_if<ir::TensorMeta>(&n->meta.value)) {
        text += n->name() + ": (";
        for (size_t i = 0; i < meta->sizes.size(); ++i) text += (i ? ", " : "") + meta->sizes[i].str();
        text += meta->sizes.size() == 1 ? ",)\n" : ")\n";
      }
    log::emit(log::Artifact::graph_sizes, log::Level::Debug, {"torch/_dynamo/output_graph.py", 2420}, ids.text(), text);
  }
}

void tracing(const CompileIds& ids, const CodeState& code, const std::string& phase) {
  std::string message = phase == "start" ? "Step 1: torchdynamo start tracing " + code.co_name + " " + code.co_filename + ":" +
                                               std::to_string(code.co_firstlineno)
                                         : "Step 1: torchdynamo done tracing " + code.co_name + " (RETURN_VALUE)";
  log::emit(log::Component::dynamo, log::Level::Info, {"torch/_dynamo/symbolic_convert.py", 4530}, ids.text(), message);
}

void restart(const CompileIds& ids, const GraphBreak& graph_break) {
  log::emit(log::Component::dynamo, log::Level::Debug, {"torch/_dynamo/convert_frame.py", 1098}, ids.text(),
            "Restarting analysis due to " + graph_break.title());
}

void backend(const CompileIds& ids, const std::string& backend, const std::string& phase) {
  log::emit(log::Component::dynamo, log::Level::Info, {"torch/_dynamo/output_graph.py", 2470}, ids.text(),
            "Step 2: " + std::string(phase == "calling" ? "calling" : "done") + " compiler function " + backend);
}

void create_env(const CompileIds& ids) {
  log::emit(log::Component::dynamic, log::Level::Info, {"torch/fx/experimental/symbolic_shapes.py", 3945}, ids.text(), "create_env");
}

void produce_guards(const CompileIds& ids) {
  log::emit(log::Component::dynamic, log::Level::Info, {"torch/fx/experimental/symbolic_shapes.py", 5523}, ids.text(), "produce_guards");
}

void create_symbol(python::Interpreter& interp, const CompileIds& ids, const std::string& symbol, const std::string& value,
                   const std::string& range, const std::string& source, const std::string& user_code) {
  TraceWriter& writer = TraceWriter::from_environment();
  if (writer.enabled()) {
    TraceJson metadata = TraceJson::object();
    metadata["symbol"] = symbol;
    metadata["val"] = value;
    metadata["vr"] = range;
    metadata["source"] = source;
    metadata["user_stack"] = writer.frame_list(user_stack_frames(interp));
    writer.record("create_symbol", metadata, context(ids));
  }
  log::emit(log::Component::dynamic, log::Level::Info, {"torch/fx/experimental/symbolic_shapes.py", 5377}, ids.text(),
            "create_symbol " + symbol + " = " + value + " for " + source + " " + range + " " + user_code +
                " (_dynamo/variables/builder.py:4049 in <lambda>), for more info run with TORCHDYNAMO_EXTENDED_DEBUG_CREATE_SYMBOL=\"" +
                symbol + "\" or to suppress this message run with TORCHDYNAMO_EXTENDED_ADVICE=\"0\"");
}

void guards(const CompileIds& ids, const GuardSet& guards, double latency_us) {
  produce_guards(ids);
  std::string tree = guard_tree(guards);
  char latency[32];
  std::snprintf(latency, sizeof latency, "%.2f", latency_us);
  TraceWriter& writer = TraceWriter::from_environment();
  if (writer.enabled())
    writer.record("dynamo_cpp_guards_str", TraceJson::object(), context(ids), tree + "\nGuard latency = " + latency + " us");
  log_lines(log::Artifact::guards, {"torch/_dynamo/guards.py", 3911}, ids.text(), "GUARDS:\n" + tree);
  log_lines(log::Artifact::guards, {"torch/_dynamo/guards.py", 3947}, ids.text(), std::string("Guard eval latency = ") + latency + " us");
}

void dynamo_error(const CompileIds& ids, const std::string& traceback) {
  TraceWriter& writer = TraceWriter::from_environment();
  if (writer.enabled())
    writer.artifact("dynamo_error", trace::ArtifactEncoding::String, traceback, context(ids), {"torch/_dynamo/convert_frame.py", 1858});
}

}  // namespace events
}  // namespace kiln::capture
