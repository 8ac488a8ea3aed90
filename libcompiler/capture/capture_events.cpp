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

}  // namespace

namespace events {

void compile_start(python::Interpreter& interp, const CompileIds& ids, const CodeState& code) {
  create_env(ids);
  TraceWriter& writer = TraceWriter::from_environment();
  if (!writer.enabled()) return;
  writer.chromium_event("dynamo", trace::ChromiumPhase::Begin, context(ids));
  std::vector<trace::TraceFrame> stack = user_stack_frames(interp);
  stack.push_back(trace::TraceFrame{code.co_filename, code.co_firstlineno, code.co_name, std::nullopt});
  TraceJson metadata = TraceJson::object();
  metadata["stack"] = writer.frame_list(stack);
  writer.record("dynamo_start", metadata, context(ids));
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

void recompile(const CompileIds& ids, const CodeState& code, const std::vector<std::pair<std::string, std::string>>& failures) {
  std::string reasons;
  for (const auto& [id, reason] : failures) reasons += (reasons.empty() ? "" : "\n") + id + ": " + reason;
  TraceWriter& writer = TraceWriter::from_environment();
  if (writer.enabled()) writer.artifact("recompile_reasons", trace::ArtifactEncoding::Json, reasons, context(ids));
  std::string message = "Recompiling function " + code.co_name + " in " + code.co_filename + ":" +
                        std::to_string(code.co_firstlineno) + "\n    triggered by the following guard failure(s):";
  for (const auto& [id, reason] : failures) {
    std::string text = id + ": " + reason;
    for (size_t start = 0; start <= text.size();) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      message += "\n    - " + text.substr(start, end - start);
      start = end + 1;
    }
  }
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

void compilation_metrics(const CompileMetrics& m, const CodeState& code) {
  TraceWriter& writer = TraceWriter::from_environment();
  if (!writer.enabled()) return;
  CompileIds ids = m.ids;
  double duration = seconds_since(m.start);
  TraceJson metrics = TraceJson::object();
  metrics["compile_id"] = ids.frame_compile_text();
  metrics["frame_key"] = std::to_string(ids.frame_id + 1);
  bool refused = m.refused;
  metrics["co_name"] = refused ? TraceJson(nullptr) : TraceJson(code.co_name);
  metrics["co_filename"] = refused ? TraceJson(nullptr) : TraceJson(code.co_filename);
  metrics["co_firstlineno"] = refused ? TraceJson(nullptr) : TraceJson(code.co_firstlineno);
  metrics["cache_size"] = code.entries.size();
  metrics["accumulated_cache_size"] = code.entries.size();
  auto optional = [](const std::optional<int64_t>& v) { return v ? TraceJson(*v) : TraceJson(nullptr); };
  metrics["guard_count"] = optional(m.guard_count);
  metrics["shape_env_guard_count"] = m.guard_count ? TraceJson(0) : TraceJson(nullptr);
  metrics["graph_op_count"] = optional(m.graph_op_count);
  metrics["graph_node_count"] = optional(m.graph_node_count);
  metrics["graph_input_count"] = optional(m.graph_input_count);
  metrics["start_time"] = epoch_seconds(m.start);
  metrics["entire_frame_compile_time_s"] = duration;
  metrics["backend_compile_time_s"] = m.backend_compile_seconds;
  if (m.inductor_compile_seconds) metrics["inductor_compile_time_s"] = *m.inductor_compile_seconds;
  if (m.code_gen_seconds) metrics["code_gen_time_s"] = *m.code_gen_seconds;
  metrics["fail_type"] = m.fail_type ? TraceJson(*m.fail_type) : TraceJson(nullptr);
  metrics["fail_reason"] = m.fail_reason ? TraceJson(*m.fail_reason) : TraceJson(nullptr);
  metrics["restart_reasons"] = m.restart_reasons;
  metrics["stack_trace"] = TraceJson::array({"Line: " + std::to_string(code.co_firstlineno) + ", Name: " + code.co_name +
                                             ", Filename: " + code.co_filename});
  metrics["has_guarded_code"] = !m.fail_type;
  metrics["config_suppress_errors"] = false;
  metrics["is_forward"] = true;
  metrics["dynamo_cumulative_compile_time_us"] = static_cast<int64_t>(duration * 1e6);
  metrics["log_format_version"] = 3;
  metrics["pytorch_version"] = "kiln";
  writer.compilation_metrics(metrics, context(ids));
  writer.chromium_event("dynamo", trace::ChromiumPhase::End, context(ids));
}

}  // namespace events
}  // namespace kiln::capture
