#include "libdiag/report/index_page.h"

#include "libdiag/report/break_digest_html.h"
#include "libdiag/report/html_escape.h"
#include "libdiag/report/page_templates.h"
#include "libdiag/report/provenance_page.h"

namespace kiln::report {

std::string_view compile_status(const ReportState& state, const trace::CompileId& id) {
  auto found = state.metrics.find(attempt_zero(id));
  if (found == state.metrics.end()) return "status-missing";
  const auto& outcomes = found->second;
  auto any = [&](auto field) {
    for (const MetricsOutcome& outcome : outcomes)
      if (outcome.*field) return true;
    return false;
  };
  if (any(&MetricsOutcome::failed)) return "status-error";
  if (any(&MetricsOutcome::empty_graph)) return "status-empty";
  if (any(&MetricsOutcome::had_restarts)) return "status-break";
  return "status-ok";
}

std::string render_build_products(const std::vector<CompileGroup>& groups) {
  std::string html;
  for (const CompileGroup& group : groups) {
    const std::string id = html_escape(group.display);
    html += "<li class='compile-group' data-compile-id=\"" + id + "\"><a id=\"" + id + "\">" + id + "</a>\n<ul>\n";
    for (const OutputEntry& entry : group.entries) {
      const std::string url = html_escape(entry.url);
      if (entry.is_link && !is_web_url(entry.url)) {
        html += "<li class='artifact'>" + html_escape(entry.name) + " (" + url + ")";
      } else {
        html += "<li class='artifact'><a href=\"" + url + "\">";
        html += entry.is_link ? html_escape(entry.name) : url;
        html += "</a>";
      }
      if (entry.readable_url && !entry.readable_url->empty()) html += " (<a href=\"" + html_escape(*entry.readable_url) + "\">readable_html</a>)";
      html += " " + entry.suffix + " (" + std::to_string(entry.number) + ")</li>\n";
    }
    html += "</ul>\n</li>\n";
  }
  return html;
}

std::string render_index(const IndexInputs& inputs) {
  const ReportState& state = inputs.state;
  auto status = [&](const trace::CompileId& id) { return compile_status(state, id); };
  mstch::map context{
      {"custom_header_html", inputs.options.custom_header_html},
      {"stack_trie_html", state.stack_trie.render(state.strings, status, "Stack")},
      {"build_products_html", render_build_products(inputs.groups)},
      {"has_chromium_events", state.chromium_events && state.chromium_events->count() > 0},
      {"link_collectives_parity", inputs.options.link_collectives_parity},
      {"input_bytes", std::to_string(inputs.input_bytes) + " bytes"},
      {"byte_tables_html", inputs.bytes.render_html(inputs.input_bytes)},
      {"graph_break_digest_html", render_graph_break_digest(state.break_digest)},
      {"recompile_table_html", render_recompile_table(state.break_digest)},
  };
  if (!state.failures.empty()) context.emplace("num_breaks", std::to_string(state.failures.size()));
  if (state.chromium_events && !state.chromium_events->timeline().empty())
    context.emplace("timeline_svg", state.chromium_events->timeline().render_svg());
  if (!state.unknown_stack_trie.empty())
    context.emplace("unknown_stack_trie_html", state.unknown_stack_trie.render(state.strings, status, "Stack"));
  if (inputs.options.inductor_provenance) {
    std::string links;
    for (const CompileGroup& group : inputs.groups) {
      const std::string page = html_escape(provenance_page_name(group));
      links += "        <li><a href='" + page + "'>" + page.substr(0, page.size() - 5) + "</a></li>\n";
    }
    context.emplace("has_inductor_provenance", true);
    context.emplace("provenance_links_html", links);
  }
  return render_page("index.html", context);
}

}  // namespace kiln::report
