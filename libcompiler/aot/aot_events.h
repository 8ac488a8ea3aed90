#pragma once
// What AOT autograd reports: the aot_joint_graph, aot_forward_graph, aot_backward_graph and
// aot_inference_graph trace records (payload: the readable graph with expanded signatures) and
// the TORCH_LOGS aot_joint_graph / aot_graphs messages ("TRACED GRAPH", "===== Forward graph 0
// =====", the graph with one-line signatures), as PyTorch 2.11 writes them.
#include <chrono>
#include <optional>
#include <string>

#include "libcompiler/ir/graph_module.h"
#include "libdiag/trace/compile_id.h"

namespace kiln::aot {

enum class AotGraphKind { Joint, Forward, Backward, Inference };

// `aot_id`: the number of this AOT compile in the process (PyTorch's aot_config id), which
// names the graphs in the log ("Forward graph 0").
// The torch._functorch.config artifact: the AOT settings this compile used (Kiln's own names).
void report_aot_config(bool decompose, bool keep_input_mutations, bool training, const std::optional<trace::CompileId>& compile_id);

// The bwd_compilation_metrics record of a backward compiled at its first call.
struct BackwardCompileReport {
  std::optional<trace::CompileId> compile_id;  // the forward's
  std::chrono::system_clock::time_point start;
  std::optional<double> inductor_compile_seconds, code_gen_seconds;
  std::optional<std::string> fail_reason;
};
void report_backward_compile(const BackwardCompileReport& report);

void report_graph(AotGraphKind kind, ir::GraphModule& module, int aot_id, const std::optional<trace::CompileId>& compile_id);

}  // namespace kiln::aot
