#pragma once
// What inductor reports, as PyTorch 2.11's compile_fx.py and graph.py do: the trace artifacts
// before_pre_grad_graph / after_pre_grad_graph (the Dynamo graph it was given), fx_graph_runnable,
// before_post_grad_graph and inductor_post_grad_graph (the aten graph it compiles),
// inductor_output_code (with the path of the written module) and fx_graph_cache_hit/miss; the
// TORCH_LOGS artifacts output_code, kernel_code, ir_pre_fusion, ir_post_fusion, schedule and
// fusion; and the TORCH_COMPILE_DEBUG folder torchinductor/model__<aot>_<kind>_<n>.<k>/.
#include <optional>
#include <string>

#include "libcompiler/aot/aten_function.h"
#include "libcompiler/inductor/compile_cache.h"
#include "libcompiler/inductor/compile_fx.h"

namespace kiln::inductor {

void report_pre_grad_graph(const ir::GraphModule& dynamo_graph, const std::optional<trace::CompileId>& compile_id);
// before_joint_graph / after_joint_graph: Kiln runs no joint-graph passes, so both are the graph.
void report_joint_graph_passes(const ir::GraphModule& module, const std::optional<trace::CompileId>& compile_id);
// fx_graph_runnable: the graph a compile starts from.
void report_runnable_graph(const ir::GraphModule& module, const std::optional<trace::CompileId>& compile_id);
// before_post_grad_graph / inductor_post_grad_graph: Kiln runs no post-grad passes, so both are
// the graph. A compile that fails or falls back reports them; report_compiled does otherwise.
void report_post_grad_graphs(const ir::GraphModule& module, const std::optional<trace::CompileId>& compile_id);
// Writes the output code next to the cache (<cache dir>/<2 chars>/<key>.py) and reports it with
// the cache's verdict. As PyTorch's, a compile that missed reports the post-grad graphs first; a
// hit reports the cached post-grad graph and the (empty) provenance records instead.
void report_compiled(const ir::GraphModule& module, const CompiledArtifacts& artifacts, const aot::AtenGraphContext& context);

// "0_forward": the graph's name in output code headers and debug folders.
std::string aot_label(const aot::AtenGraphContext& context);

}  // namespace kiln::inductor
