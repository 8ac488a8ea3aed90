#include "libdiag/report/multi_rank_landing.h"

#include "libdiag/report/html_escape.h"
#include "libdiag/report/page_templates.h"
#include "libdiag/report/sorted_json.h"

namespace kiln::report {
namespace {

mstch::array group_list(const std::vector<RankGroup>& groups) {
  mstch::array list;
  for (const RankGroup& group : groups) list.push_back(mstch::map{{"ranks", group.ranks_text()}});
  return list;
}

// Milliseconds as tlparse prints them (a JSON float: "0.0", "13.806").
std::string milliseconds(double value) {
  std::string text;
  append_json_double(text, value);
  return text;
}

}  // namespace

std::string render_multi_rank_landing(const MultiRankFindings& findings, const std::string& custom_header_html) {
  const bool cache_diverges = findings.cache_groups.size() > 1;
  const bool collectives_diverge = findings.collective_groups.size() > 1;
  const bool tensor_meta_diverges = findings.tensor_meta_groups.size() > 1;

  mstch::array ranks;
  for (uint32_t rank : findings.ranks) ranks.push_back(mstch::map{{"rank", std::to_string(rank)}});

  mstch::array runtime_graphs;
  if (findings.runtime) {
    for (const GraphRuntimeDelta& graph : findings.runtime->graphs)
      runtime_graphs.push_back(mstch::map{{"graph", html_escape(graph.graph)},
                                          {"delta_ms", milliseconds(graph.delta_ms)},
                                          {"fastest_rank", std::to_string(graph.fastest_rank)},
                                          {"fastest_ms", milliseconds(graph.fastest_ms)},
                                          {"slowest_rank", std::to_string(graph.slowest_rank)},
                                          {"slowest_ms", milliseconds(graph.slowest_ms)}});
  }

  mstch::map context{
      {"custom_header_html", custom_header_html},
      {"show_warning", findings.compile_ids_diverge || cache_diverges || collectives_diverge || tensor_meta_diverges},
      {"compile_ids_diverge", findings.compile_ids_diverge},
      {"cache_diverges", cache_diverges},
      {"cache_groups", group_list(findings.cache_groups)},
      {"collectives_diverge", collectives_diverge},
      {"collective_groups", group_list(findings.collective_groups)},
      {"num_ranks", std::to_string(findings.ranks.size())},
      {"has_chromium_events", findings.has_chromium_events},
      {"has_runtime_trace", findings.has_runtime_trace},
      {"ranks", ranks},
      {"has_runtime_analysis", findings.runtime.has_value()},
      {"runtime_graph_counts_differ", findings.runtime && findings.runtime->graph_counts_differ},
      {"runtime_graphs", runtime_graphs},
      {"has_exec_order", findings.exec_order.has_value()},
      {"exec_order_differs", findings.exec_order && findings.exec_order->order_differs},
      {"schedule_mismatch_ranks", findings.exec_order ? rank_list_text(findings.exec_order->schedule_mismatch_ranks) : ""},
      {"cache_mismatch_ranks", findings.exec_order ? rank_list_text(findings.exec_order->cache_mismatch_ranks) : ""},
      {"tensor_meta_diverges", tensor_meta_diverges},
      {"tensor_meta_groups", group_list(findings.tensor_meta_groups)},
  };
  return render_page("multi_rank_index.html", context);
}

}  // namespace kiln::report
