#pragma once
// The provenance_tracking_<directory>.html pages of `tlparse -i` (reference trace_format.md
// §6.12): for every compile group, its pre-grad graph, post-grad graph and generated code side by
// side, with the line mappings of provenance_mapping.h embedded for hover/click highlighting.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libdiag/report/report.h"

namespace kiln::report {

// "provenance_tracking_-_0_0_0.html"; tlparse names the malformed-id group's page
// "provenance_tracking_(unknown).html". index.html links these names.
std::string provenance_page_name(const CompileGroup& group);

// The produced files (paths relative to the output root) a group's page is made from. Like
// tlparse, each is the last produced file whose path contains "<directory>/<pattern>", trying
// the patterns in order: before_pre_grad_graph, inductor_pre_grad_graph; after_post_grad_graph,
// inductor_post_grad_graph; inductor_output_code; inductor_aot_wrapper_code;
// inductor_provenance_tracking_node_mappings.
struct ProvenanceInputFiles {
  std::optional<std::string> pre_grad_graph;
  std::optional<std::string> post_grad_graph;
  std::optional<std::string> python_code;
  std::optional<std::string> cpp_code;
  std::optional<std::string> node_mappings;
};
ProvenanceInputFiles find_provenance_inputs(const std::vector<CompileGroup>& groups, const CompileGroup& group);

// Writes provenance_tracking_<directory>.html into `out_dir` for every group of `result`, reading
// the inputs from the report already written there. `plain_text` (-p) says the output code was
// written as .txt rather than as highlighted HTML. Throws ReportError when a page cannot be written.
void write_provenance_pages(const std::filesystem::path& out_dir, const ReportResult& result, bool plain_text);

}  // namespace kiln::report
