#include "libcompiler/aot/aot_events.h"

#include "libcompiler/ir/readable_printer.h"
#include "libdiag/log/logger.h"
#include "libdiag/trace/trace_writer.h"

namespace kiln::aot {

namespace {

struct GraphEvent {
  const char* trace_key;
  trace::CallSite trace_site;
  log::Artifact artifact;
  log::SourceSite log_site;
  const char* title;   // "Forward" in "===== Forward graph 0 ====="
  const char* origin;  // where PyTorch's printed module says its code lives
};

// Indexed by AotGraphKind. The sites are PyTorch's (graph_compile.py / graph_capture.py).
const GraphEvent kEvents[] = {
    {"aot_joint_graph", {"torch/_functorch/_aot_autograd/graph_compile.py", 1619}, log::Artifact::aot_joint_graph,
     {"torch/_functorch/_aot_autograd/graph_compile.py", 1602}, "Joint", "torch/fx/_lazy_graph_module.py"},
    {"aot_forward_graph", {"torch/_functorch/_aot_autograd/graph_compile.py", 1708}, log::Artifact::aot_graphs,
     {"torch/_functorch/_aot_autograd/graph_compile.py", 1655}, "Forward", "torch/fx/_lazy_graph_module.py"},
    {"aot_backward_graph", {"torch/_functorch/_aot_autograd/graph_compile.py", 1712}, log::Artifact::aot_graphs,
     {"torch/_functorch/_aot_autograd/graph_compile.py", 1666}, "Backward", "<eval_with_key>"},
    {"aot_inference_graph", {"torch/_functorch/_aot_autograd/graph_capture.py", 355}, log::Artifact::aot_graphs,
     {"torch/_functorch/_aot_autograd/graph_capture.py", 322}, "Forward", "torch/fx/_lazy_graph_module.py"},
};

}  // namespace

void report_aot_config(bool decompose, bool keep_input_mutations, bool training, const std::optional<trace::CompileId>& compile_id) {
  trace::TraceWriter& writer = trace::TraceWriter::from_environment();
  if (!writer.enabled()) return;
  trace::TraceJson config = trace::TraceJson::object();
  config["decompose"] = decompose;
  config["keep_input_mutations"] = keep_input_mutations;
  config["partitioner"] = training ? "min_cut_rematerialization_partition" : "none";
  writer.artifact("torch._functorch.config", trace::ArtifactEncoding::String, trace::json_payload(config), {compile_id, {}},
                  training ? trace::CallSite{"torch/_functorch/_aot_autograd/graph_compile.py", 1640}
                           : trace::CallSite{"torch/_functorch/_aot_autograd/graph_compile.py", 380});
}

void report_backward_compile(const BackwardCompileReport& report) {
  trace::TraceWriter& writer = trace::TraceWriter::from_environment();
  if (!writer.enabled()) return;
  const auto now = std::chrono::system_clock::now();
  auto seconds = [](std::chrono::system_clock::duration d) { return std::chrono::duration<double>(d).count(); };
  auto microseconds = [](std::chrono::system_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
  };
  auto optional = [](const std::optional<double>& v) { return v ? trace::TraceJson(*v) : trace::TraceJson(nullptr); };
  trace::TraceJson metrics = trace::TraceJson::object();
  // The frame compile's id without its attempt, as compilation_metrics names it: "1/0".
  const std::optional<trace::CompileId>& id = report.compile_id;
  metrics["compile_id"] = id && id->frame_id && id->frame_compile_id
                              ? trace::TraceJson(std::to_string(*id->frame_id) + "/" + std::to_string(*id->frame_compile_id))
                              : trace::TraceJson(nullptr);
  metrics["start_time"] = seconds(report.start.time_since_epoch());
  metrics["inductor_compile_time_s"] = optional(report.inductor_compile_seconds);
  metrics["code_gen_time_s"] = optional(report.code_gen_seconds);
  metrics["fail_type"] = report.fail_reason ? trace::TraceJson("BackwardCompileError") : trace::TraceJson(nullptr);
  metrics["fail_reason"] = report.fail_reason ? trace::TraceJson(*report.fail_reason) : trace::TraceJson(nullptr);
  metrics["is_forward"] = false;
  metrics["start_time_us"] = microseconds(report.start);
  metrics["duration_us"] = microseconds(now) - microseconds(report.start);
  metrics["backward_cumulative_compile_time_us"] = microseconds(now) - microseconds(report.start);
  metrics["end_time_us"] = microseconds(now);
  metrics["log_format_version"] = 3;
  metrics["pytorch_version"] = "kiln";
  writer.record("bwd_compilation_metrics", metrics, {report.compile_id, {}}, std::nullopt, {"torch/_dynamo/utils.py", 1796});
}

void report_graph(AotGraphKind kind, ir::GraphModule& module, int aot_id, const std::optional<trace::CompileId>& compile_id) {
  const GraphEvent& event = kEvents[static_cast<int>(kind)];
  // Trace payloads print one parameter per line with descriptors; the log prints the signature
  // on one line.
  ir::CodegenStyle& style = module.graph.codegen;
  const bool expanded = style.expandedSignature;
  trace::TraceWriter& writer = trace::TraceWriter::from_environment();
  if (writer.enabled()) {
    style.expandedSignature = true;
    writer.record(event.trace_key, trace::TraceJson::object(), {compile_id, {}}, ir::printReadable(module), event.trace_site);
  }
  if (log::is_enabled(event.artifact)) {
    style.expandedSignature = false;
    // FX numbers the modules it evaluates from source: the backward's origin is <eval_with_key>.N.
    static int eval_key = 0;
    std::string origin = event.origin;
    if (origin == "<eval_with_key>") origin += "." + std::to_string(eval_key++);
    const std::string text = std::string("TRACED GRAPH\n ===== ") + event.title + " graph " + std::to_string(aot_id) +
                             " =====\n " + origin + " " + ir::printReadable(module);
    log::emit(event.artifact, log::Level::Info, event.log_site, compile_id ? compile_id->pytorch_text() : "", text);
  }
  style.expandedSignature = expanded;
}

}  // namespace kiln::aot
