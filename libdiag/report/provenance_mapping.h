#pragma once
// Inductor provenance tracking (reference trace_format.md §6.12): turns the node-name mappings
// PyTorch logs (inductor_provenance_tracking_node_mappings) into line-number mappings between the
// pre-grad graph, the post-grad graph and the generated code, exactly as tlparse 0.4.3 does.
#include <string_view>

#include <nlohmann/json.hpp>

namespace kiln::report {

// The texts one provenance page is computed from (any may be empty).
struct ProvenanceSources {
  std::string_view pre_grad_graph;   // before_pre_grad_graph / inductor_pre_grad_graph file
  std::string_view post_grad_graph;  // after_post_grad_graph / inductor_post_grad_graph file
  std::string_view python_code;      // the inductor_output_code file: its HTML rendering, or .txt with -p
  std::string_view cpp_code;         // the AOTInductor wrapper (graph_dump inductor_aot_wrapper_code)
  std::string_view node_mappings;    // JSON {"preToPost": {name: [names]}, "postToPre", "cppCodeToPost", "postToCppCode"}
};

// {"cppCodeToPost", "postToCppCode", "postToPre", "postToPyCode", "preToPost", "pyCodeToPost"},
// each {"<source line>": [target lines...]} (1-based). An empty object when the node mappings are
// not JSON. Graph lines are found by node name ("name: type = ..." or "name = ..."; the last line
// defining a name wins); kernel lines by searching the code for the kernel names (the keys of
// cppCodeToPost, "name" or "name:<debug handle>"), Python lines counted from the "# AOT ID:" line.
nlohmann::json compute_line_mappings(const ProvenanceSources& sources);

}  // namespace kiln::report
