#include "libdiag/report/provenance_page.h"

#include <algorithm>
#include <array>
#include <unordered_map>

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

// The inputs a page may use, each with its file-name patterns in order of preference.
enum Input { kPreGrad, kPostGrad, kPython, kCpp, kMappings, kInputCount };
struct InputPattern {
  Input input;
  std::string_view pattern;
};
constexpr InputPattern kPatterns[] = {
    {kPreGrad, "before_pre_grad_graph"}, {kPreGrad, "inductor_pre_grad_graph"},
    {kPostGrad, "after_post_grad_graph"}, {kPostGrad, "inductor_post_grad_graph"},
    {kPython, "inductor_output_code"},   {kCpp, "inductor_aot_wrapper_code"},
    {kMappings, "inductor_provenance_tracking_node_mappings"},
};
constexpr size_t kPatternCount = std::size(kPatterns);

// For every group directory D and pattern, the last produced file whose path contains
// "D/<pattern>", found in one pass over the files: such a path has a '/' whose preceding text
// ends with D and whose following text starts with the pattern.
class InputIndex {
 public:
  // Indexes the files of `groups` for the pages of `pages_for`.
  InputIndex(const std::vector<CompileGroup>& groups, const std::vector<const CompileGroup*>& pages_for) {
    for (const CompileGroup* group : pages_for) latest_.emplace(input_directory(*group), Latest{});
    std::vector<const OutputEntry*> files;
    for (const CompileGroup& group : groups)
      for (const OutputEntry& entry : group.entries)
        if (!entry.is_link) files.push_back(&entry);
    std::sort(files.begin(), files.end(), [](const OutputEntry* a, const OutputEntry* b) { return a->number < b->number; });
    for (const OutputEntry* file : files) {
      const std::string_view url = file->url;
      for (size_t slash = url.find('/'); slash != std::string_view::npos; slash = url.find('/', slash + 1)) {
        const std::string_view rest = url.substr(slash + 1);
        for (size_t start = 0; start < slash; ++start) {
          auto directory = latest_.find(std::string(url.substr(start, slash - start)));
          if (directory == latest_.end()) continue;
          for (size_t i = 0; i < kPatternCount; ++i)
            if (rest.starts_with(kPatterns[i].pattern)) directory->second[i] = file->url;
        }
      }
    }
  }

  ProvenanceInputFiles inputs_of(const CompileGroup& group) const {
    std::array<std::optional<std::string>, kInputCount> chosen;
    const Latest& latest = latest_.at(input_directory(group));
    for (size_t i = 0; i < kPatternCount; ++i)
      if (!chosen[kPatterns[i].input]) chosen[kPatterns[i].input] = latest[i];
    return {chosen[kPreGrad], chosen[kPostGrad], chosen[kPython], chosen[kCpp], chosen[kMappings]};
  }

 private:
  using Latest = std::array<std::optional<std::string>, kPatternCount>;
  std::unordered_map<std::string, Latest> latest_;
};

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
  return InputIndex(groups, {&group}).inputs_of(group);
}

void write_provenance_pages(const std::filesystem::path& out_dir, const ReportResult& result, bool plain_text) {
  std::vector<const CompileGroup*> pages;
  for (const CompileGroup& group : result.groups) pages.push_back(&group);
  const InputIndex index(result.groups, pages);
  for (const CompileGroup& group : result.groups) {
    const ProvenanceInputFiles files = index.inputs_of(group);
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
