#include "libdiag/report/provenance_page.h"

#include <algorithm>
#include <array>

#include <simdjson.h>

#include "libdiag/report/file_output.h"
#include "libdiag/report/html_escape.h"
#include "libdiag/report/page_templates.h"
#include "libdiag/report/provenance_mapping.h"
#include "web_templates/web_templates.h"

namespace kiln::report {
namespace {

// tlparse looks the group's inputs up under the directory of its normalised id, or "(unknown)".
std::string input_directory(const CompileGroup& group) { return group.id.malformed ? "(unknown)" : group.directory; }

// Every produced file of the report, in production order.
std::vector<const OutputEntry*> files_in_production_order(const std::vector<CompileGroup>& groups) {
  std::vector<const OutputEntry*> files;
  for (const CompileGroup& group : groups)
    for (const OutputEntry& entry : group.entries)
      if (!entry.is_link) files.push_back(&entry);
  std::sort(files.begin(), files.end(), [](const OutputEntry* a, const OutputEntry* b) { return a->number < b->number; });
  return files;
}

std::optional<std::string> last_file_matching(const std::vector<const OutputEntry*>& files, const std::string& directory,
                                              std::initializer_list<std::string_view> patterns) {
  for (std::string_view pattern : patterns) {
    const std::string needle = directory + "/" + std::string(pattern);
    for (auto it = files.rbegin(); it != files.rend(); ++it)
      if ((*it)->url.find(needle) != std::string::npos) return (*it)->url;
  }
  return std::nullopt;
}

// A produced file's content ("" when there is none or it cannot be read, as in tlparse).
std::string read_output(const std::filesystem::path& out_dir, const std::optional<std::string>& relative) {
  if (!relative) return {};
  simdjson::padded_string content;
  if (simdjson::padded_string::load((out_dir / *relative).string()).get(content) != simdjson::SUCCESS) return {};
  return std::string(std::string_view(content));
}

// Code is shown without its leading empty lines: the line mappings number it that way.
std::string_view without_leading_empty_lines(std::string_view code) {
  while (true) {
    if (code.starts_with("\n")) code.remove_prefix(1);
    else if (code.starts_with("\r\n")) code.remove_prefix(2);
    else return code;
  }
}

}  // namespace

std::string provenance_page_name(const CompileGroup& group) {
  return "provenance_tracking_" + input_directory(group) + ".html";
}

ProvenanceInputFiles find_provenance_inputs(const std::vector<CompileGroup>& groups, const CompileGroup& group) {
  const std::vector<const OutputEntry*> files = files_in_production_order(groups);
  const std::string directory = input_directory(group);
  ProvenanceInputFiles inputs;
  inputs.pre_grad_graph = last_file_matching(files, directory, {"before_pre_grad_graph", "inductor_pre_grad_graph"});
  inputs.post_grad_graph = last_file_matching(files, directory, {"after_post_grad_graph", "inductor_post_grad_graph"});
  inputs.python_code = last_file_matching(files, directory, {"inductor_output_code"});
  inputs.cpp_code = last_file_matching(files, directory, {"inductor_aot_wrapper_code"});
  inputs.node_mappings = last_file_matching(files, directory, {"inductor_provenance_tracking_node_mappings"});
  return inputs;
}

void write_provenance_pages(const std::filesystem::path& out_dir, const ReportResult& result, bool plain_text) {
  for (const CompileGroup& group : result.groups) {
    const ProvenanceInputFiles files = find_provenance_inputs(result.groups, group);
    const std::string pre_grad_graph = read_output(out_dir, files.pre_grad_graph);
    const std::string post_grad_graph = read_output(out_dir, files.post_grad_graph);
    const std::string python_code = read_output(out_dir, files.python_code);
    const std::string cpp_code = read_output(out_dir, files.cpp_code);
    const std::string node_mappings = read_output(out_dir, files.node_mappings);

    const nlohmann::json line_mappings =
        compute_line_mappings({pre_grad_graph, post_grad_graph, python_code, cpp_code, node_mappings});

    // The highlighted Python is already HTML (our own rendering); everything else is text.
    std::string generated_code = plain_text ? html_escape(without_leading_empty_lines(python_code))
                                            : std::string(without_leading_empty_lines(python_code));
    append_html_escaped(generated_code, without_leading_empty_lines(cpp_code));

    const mstch::map context{
        {"display_id", html_escape(group.display)},
        {"css", std::string(web_templates::get("provenance_tracking.css"))},
        {"js", std::string(web_templates::get("provenance_tracking.js"))},
        {"pre_grad_graph", html_escape(pre_grad_graph)},
        {"post_grad_graph", html_escape(post_grad_graph)},
        {"generated_code", std::move(generated_code)},
        {"line_mappings", line_mappings.dump(2)},
    };
    write_file(out_dir / provenance_page_name(group), render_page("provenance_tracking.html", context));
  }
}

}  // namespace kiln::report
