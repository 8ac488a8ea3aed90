#include "libcompiler/inductor/inductor_events.h"

#include <filesystem>
#include <fstream>
#include <set>

#include "libcompiler/fx/debug_dir.h"
#include "libcompiler/inductor/output_code.h"
#include "libcompiler/ir/readable_printer.h"
#include "libcompiler/ir/runnable_printer.h"
#include "libdiag/log/logger.h"
#include "libdiag/trace/timed_phase.h"
#include "libdiag/trace/trace_writer.h"

namespace kiln::inductor {

namespace fs = std::filesystem;

namespace {

trace::TraceContext context_of(const std::optional<trace::CompileId>& id) { return {id, {}}; }
std::string log_id(const std::optional<trace::CompileId>& id) { return id ? id->pytorch_text() : ""; }

const char* kind_name(aot::AotGraphKind kind) {
  switch (kind) {
    case aot::AotGraphKind::Forward: return "forward";
    case aot::AotGraphKind::Backward: return "backward";
    default: return "inference";
  }
}

void write_file(const fs::path& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream(path) << text;
}


// torchinductor/model__<aot id>_<kind>_<n>.<k>: n counts graphs in the process, k is the first
// unused integer for that name.
fs::path graph_debug_dir(const aot::AtenGraphContext& context) {
  static int graphs = 0;
  const fs::path root = fx::debug_run_dir() / "torchinductor";
  const std::string stem = "model__" + std::to_string(context.aot_id) + "_" + kind_name(context.kind) + "_" + std::to_string(++graphs);
  for (int k = 0;; ++k) {
    fs::path dir = root / (stem + "." + std::to_string(k));
    if (!fs::exists(dir)) return dir;
  }
}

// A pass Kiln does not run (pre-grad, joint-graph, post-grad): PyTorch's string artifacts of the
// graph before and after it, both the same graph.
struct PassArtifact {
  const char* name;
  trace::CallSite site;
};
void report_pass_not_run(const std::string& text, const PassArtifact& before, const PassArtifact& after,
                         const std::optional<trace::CompileId>& compile_id) {
  trace::TraceWriter& writer = trace::TraceWriter::from_environment();
  for (const PassArtifact& artifact : {before, after})
    writer.artifact(artifact.name, trace::ArtifactEncoding::String, text, context_of(compile_id), artifact.site);
}

}  // namespace

std::string aot_label(const aot::AtenGraphContext& context) { return std::to_string(context.aot_id) + "_" + kind_name(context.kind); }

void report_pre_grad_graph(const ir::GraphModule& dynamo_graph, const std::optional<trace::CompileId>& compile_id) {
  if (!trace::TraceWriter::from_environment().enabled()) return;
  std::string text = ir::printReadable(dynamo_graph);
  if (dynamo_graph.graphId) text += "\n\n" + *dynamo_graph.graphId;
  report_pass_not_run(text, {"before_pre_grad_graph", {"torch/_inductor/compile_fx.py", 2452}},
                      {"after_pre_grad_graph", {"torch/_inductor/compile_fx.py", 2483}}, compile_id);
}

void report_joint_graph_passes(const ir::GraphModule& module, const std::optional<trace::CompileId>& compile_id) {
  if (!trace::TraceWriter::from_environment().enabled()) return;
  report_pass_not_run(ir::printReadable(module), {"before_joint_graph", {"torch/_inductor/compile_fx.py", 2314}},
                      {"after_joint_graph", {"torch/_inductor/compile_fx.py", 2328}}, compile_id);
}

void report_runnable_graph(const ir::GraphModule& module, const std::optional<trace::CompileId>& compile_id) {
  trace::TraceWriter& writer = trace::TraceWriter::from_environment();
  if (!writer.enabled()) return;
  writer.artifact("fx_graph_runnable", trace::ArtifactEncoding::String, ir::printRunnable(module), context_of(compile_id),
                  {"torch/_inductor/compile_fx.py", 1279});
}

void report_post_grad_graphs(const ir::GraphModule& module, const std::optional<trace::CompileId>& compile_id) {
  if (!trace::TraceWriter::from_environment().enabled()) return;
  report_pass_not_run(ir::printReadable(module), {"before_post_grad_graph", {"torch/_inductor/compile_fx.py", 1330}},
                      {"inductor_post_grad_graph", {"torch/_inductor/compile_fx.py", 1368}}, compile_id);
}

void report_compiled(const ir::GraphModule& module, const CompiledArtifacts& artifacts, const aot::AtenGraphContext& context) {
  const CacheKey& key = artifacts.cache_key;
  const std::string outcome = cache_outcome_name(artifacts.cache);
  // PyTorch's module path: <cache dir>/<key[1:3]>/c<key[1:]>.py.
  std::string file_name = "c";
  file_name.append(key.key, 1, std::string::npos).append(".py");
  const fs::path module_path = fs::path(cache_dir()) / key.key.substr(1, 2) / file_name;
  write_file(module_path, artifacts.output_code);
  const std::string id = log_id(context.compile_id);
  if (log::is_enabled(log::Artifact::ir_pre_fusion))
    log::emit(log::Artifact::ir_pre_fusion, log::Level::Debug, {"torch/_inductor/scheduler.py", 2700}, id, "BEFORE FUSION\n" + artifacts.ir_pre_fusion);
  if (log::is_enabled(log::Artifact::ir_post_fusion))
    log::emit(log::Artifact::ir_post_fusion, log::Level::Debug, {"torch/_inductor/scheduler.py", 2707}, id, "AFTER FUSION\n" + artifacts.ir_post_fusion);
  if (artifacts.program && log::is_enabled(log::Artifact::schedule)) {
    std::string text;
    for (const ScheduledStep& step : artifacts.program->schedule().steps)
      if (const auto* k = std::get_if<FusedKernel>(&step))
        text += k->name + ": " + std::to_string(k->members.size()) + " nodes over outer range " + k->outer_size.str() + "\n";
    log::emit(log::Artifact::schedule, log::Level::Debug, {"torch/_inductor/scheduler.py", 2480}, id, "scheduled kernels:\n" + text);
  }
  if (artifacts.program && log::is_enabled(log::Artifact::fusion)) {
    std::string text;
    for (const ScheduledStep& step : artifacts.program->schedule().steps)
      if (const auto* k = std::get_if<FusedKernel>(&step); k && k->members.size() > 1) {
        std::string names;
        for (const KernelMember& m : k->members)
          names += (names.empty() ? "" : ", ") + artifacts.program->program().buffers[std::get<ComputedNode>(artifacts.program->program().nodes[m.node]).output].name;
        text += "fused " + names + " into " + k->name + " (row-local over " + k->outer_size.str() + ")\n";
      }
    log::emit(log::Artifact::fusion, log::Level::Debug, {"torch/_inductor/scheduler.py", 3200}, id, text.empty() ? "no fusions\n" : text);
  }
  if (artifacts.program && log::is_enabled(log::Artifact::kernel_code))
    for (const ScheduledStep& step : artifacts.program->schedule().steps)
      if (const auto* k = std::get_if<FusedKernel>(&step))
        log::emit(log::Artifact::kernel_code, log::Level::Debug, {"torch/_inductor/codecache.py", 2280}, id,
                  "Kernel " + k->name + ":\n" + artifacts.program->backend().render_kernel(artifacts.program->program(), *k));
  if (log::is_enabled(log::Artifact::output_code)) {
    log::emit(log::Artifact::output_code, log::Level::Debug, {"torch/_inductor/graph.py", 2552}, id, "Output code: \n" + artifacts.output_code);
    log::emit(log::Artifact::output_code, log::Level::Debug, {"torch/_inductor/graph.py", 2563}, id,
              "Output code written to: " + module_path.string());
  }

  trace::TraceWriter& writer = trace::TraceWriter::from_environment();
  if (writer.enabled()) {
    const bool hit = artifacts.cache == CacheOutcome::Hit;
    if (hit)
      writer.record("inductor_post_grad_graph", trace::TraceJson::object(), context_of(context.compile_id), ir::printReadable(module),
                    {"torch/_inductor/codecache.py", 1358});
    else
      report_post_grad_graphs(module, context.compile_id);
    trace::TraceJson metadata = trace::TraceJson::object();
    metadata["filename"] = module_path.string();
    metadata["file_path"] = module_path.string();
    writer.record("inductor_output_code", metadata, context_of(context.compile_id), artifacts.output_code,
                  hit ? trace::CallSite{"torch/_inductor/codecache.py", 1362} : trace::CallSite{"torch/_inductor/graph.py", 2575});
    // PyTorch's provenance tracking is off by default (trace.provenance_tracking_level 0): a hit
    // writes the two records without a payload.
    if (hit)
      for (const auto& [name, site] : {std::pair{"inductor_provenance_tracking_node_mappings", trace::CallSite{"torch/_inductor/codecache.py", 1370}},
                                       std::pair{"inductor_provenance_tracking_kernel_stack_traces", trace::CallSite{"torch/_inductor/codecache.py", 1378}}})
        writer.record("artifact", trace::TraceJson{{"name", name}, {"encoding", "json"}}, context_of(context.compile_id), std::nullopt, site);
    trace::TraceJson cache = trace::TraceJson::object();
    cache["cache_status_detailed"] = outcome == "miss" ? "full_miss" : outcome;
    cache["key"] = key.key;
    cache["components"] = key.components;
    cache["cache_state"] = outcome;
    if (artifacts.cache == CacheOutcome::Bypass)
      cache["cache_bypass_reason"] = artifacts.cache_bypass_reason;
    writer.artifact("fx_graph_cache_" + outcome, trace::ArtifactEncoding::Json,
                    trace::json_payload(cache), context_of(context.compile_id), {"torch/_inductor/compile_fx.py", 1120});
    trace::instant_event("fx_graph_cache_" + outcome, context.compile_id, cache, {"torch/_inductor/compile_fx.py", 1120});
  }

  if (fx::compile_debug_enabled()) {
    const fs::path dir = graph_debug_dir(context);
    write_file(dir / "fx_graph_readable.py", ir::printReadable(module));
    write_file(dir / "fx_graph_runnable.py", ir::printRunnable(module));
    write_file(dir / "fx_graph_transformed.py", ir::printReadable(module));
    write_file(dir / "ir_pre_fusion.txt", "BEFORE FUSION\n" + artifacts.ir_pre_fusion);
    write_file(dir / "ir_post_fusion.txt", "AFTER FUSION\n" + artifacts.ir_post_fusion);
    write_file(dir / "output_code.py", artifacts.output_code);
    write_file(dir / "debug.log", "graph " + aot_label(context) + ": " + "fx graph cache " + outcome + ", key " + key.key + "\n");
    // PyTorch's aot_<aot graph name>_debug.log (its handler rarely gets a record: empty).
    write_file(dir.parent_path() / ("aot_model___" + std::to_string(context.aot_id) + "_debug.log"), "");
    log::emit(log::Component::inductor, log::Level::Warning, {"torch/_inductor/debug.py", 520}, id,
              dir.filename().string().substr(0, dir.filename().string().rfind('.')) + " debug trace: " + fs::absolute(dir).string());
  }
}

}  // namespace kiln::inductor
