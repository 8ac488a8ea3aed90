// `compilation_metrics` (reference §4.5, §6.6, §6.7): the per-compile page, the failures-table
// rows, and the outcome the stack trie colours by. Runs after the file producers of its record so
// the page lists every file of the group so far.
#include <algorithm>

#include "libdiag/report/html_escape.h"
#include "libdiag/report/metadata_fields.h"
#include "libdiag/report/page_templates.h"
#include "libdiag/report/parser.h"
#include "libdiag/report/sorted_json.h"
#include "libdiag/report/stack_trie.h"

namespace kiln::report {
namespace {

// A number as tlparse's templates print it: integers as such, floats in serde's form, null as "".
std::string number_text(simdjson::dom::element metadata, std::string_view field) {
  auto value = element_field(metadata, field);
  if (!value) return "";
  // Integers first: simdjson's is_double() holds for every number, and tlparse prints 94, not 94.0.
  if (value->is_int64()) return std::to_string(value->get_int64().value_unsafe());
  if (value->is_uint64()) return std::to_string(value->get_uint64().value_unsafe());
  std::string text;
  if (value->is_double()) append_json_double(text, value->get_double().value_unsafe());
  return text;
}

// A field shown only when non-zero (tlparse's `if` on a number).
void add_if_nonzero(mstch::map& page, simdjson::dom::element metadata, const char* field) {
  auto seconds = double_field(metadata, field);
  if (seconds && *seconds != 0) page.emplace(field, number_text(metadata, field));
}

mstch::array escaped_list(const std::vector<std::string>& items) {
  mstch::array list;
  for (const std::string& item : items) list.push_back(html_escape(item));
  return list;
}

mstch::array shape_rows(std::vector<PendingShapeEvent> events, const StringTable& strings, bool specialization) {
  mstch::array rows;
  for (const PendingShapeEvent& event : events) {
    mstch::map row{{"user_stack_html", render_stack(event.user_stack, strings, "User Stack")},
                   {"stack_html", render_stack(event.stack, strings, "Framework Stack")}};
    if (specialization) {
      row.emplace("symbol", html_escape(event.symbol));
      row.emplace("sources", escaped_list(event.sources));
      row.emplace("value", html_escape(event.value));
    } else {
      row.emplace("expr", html_escape(event.expr));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// Queued shape events whose raw id is this record's lookup id, taken off the queue.
std::vector<PendingShapeEvent> take(std::map<trace::CompileId, std::vector<PendingShapeEvent>>& queue,
                                    const trace::CompileId& id) {
  auto found = queue.find(id);
  if (found == queue.end()) return {};
  std::vector<PendingShapeEvent> events = std::move(found->second);
  queue.erase(found);
  return events;
}

// The "Output files" list: every file of the group so far, as tlparse lists them. A compile id
// that recurs very often (logs of many processes concatenated) would make that quadratic, so a
// group past kFullListingLimit files lists only those since its previous page.
std::string output_files_html(ParseContext& context) {
  constexpr size_t kFullListingLimit = 500;
  const auto& entries = context.group.entries;
  size_t& listed_before = context.state.entries_listed_by_metrics[context.group.id];
  const size_t first = entries.size() <= kFullListingLimit ? 0 : std::min(listed_before, entries.size());
  listed_before = entries.size() + 1;  // this page is the group's next entry
  std::string html;
  if (first > 0)
    html += "        <li>(" + std::to_string(first) + " earlier files of this compile id: see <a href=\"index.html#" +
            html_escape(context.group.display) + "\">the index</a>)</li>\n";
  for (size_t i = first; i < entries.size(); ++i) {
    const OutputEntry& entry = entries[i];
    // Links from the output root (the page has <base href="..">).
    html += "        <li><a href=\"";
    html += is_web_url(entry.url) ? html_escape(entry.url) : std::string("#");
    html += "\">";
    append_html_escaped(html, entry.name);
    html += "</a> (" + std::to_string(entry.number) + ")</li>\n";
  }
  return html;
}

std::string render_page_for(ParseContext& context, const trace::CompileId& lookup_id) {
  const simdjson::dom::element m = context.metadata;
  ReportState& state = context.state;
  mstch::map page{{"compile_id", html_escape(context.record.compile_id.display())}};

  auto co_name = string_field(m, "co_name");
  auto co_filename = string_field(m, "co_filename");
  auto co_firstlineno = int_field(m, "co_firstlineno");
  std::string mini_stack;
  if (co_name && co_filename && co_firstlineno) {
    StackFrame frame;
    frame.uninterned_filename = std::string(*co_filename);
    frame.line = static_cast<int32_t>(*co_firstlineno);
    frame.name = std::string(*co_name);
    mini_stack = render_stack({frame}, state.strings, "Stack");
  }
  page.emplace("mini_stack_html", mini_stack);

  page.emplace("output_files_html", output_files_html(context));

  auto stack = state.dynamo_start_stacks.find(lookup_id);
  page.emplace("stack_html",
               stack == state.dynamo_start_stacks.end() ? std::string() : render_stack(stack->second, state.strings, "Stack"));

  for (const char* field : {"entire_frame_compile_time_s", "backend_compile_time_s", "dynamo_time_before_restart_s",
                            "cache_size", "accumulated_cache_size", "guard_count", "shape_env_guard_count",
                            "graph_op_count", "graph_node_count", "graph_input_count", "fail_user_frame_lineno"})
    page.emplace(field, number_text(m, field));
  add_if_nonzero(page, m, "inductor_compile_time_s");
  add_if_nonzero(page, m, "code_gen_time_s");

  if (auto fail_type = string_field(m, "fail_type"); fail_type && !fail_type->empty()) {
    page.emplace("fail_type", html_escape(*fail_type));
    page.emplace("fail_reason", html_escape(string_field(m, "fail_reason").value_or("")));
    if (auto file = string_field(m, "fail_user_frame_filename"); file && !file->empty())
      page.emplace("fail_user_frame_filename", html_escape(*file));
  }
  for (const char* list : {"restart_reasons", "compliant_custom_ops", "non_compliant_ops"}) {
    auto items = string_list_field(m, list).value_or(std::vector<std::string>{});
    page.emplace(std::string("has_") + list, !items.empty());
    page.emplace(list, escaped_list(items));
  }
  page.emplace("symbolic_shape_specializations",
               shape_rows(take(state.pending_specializations, lookup_id), state.strings, true));
  page.emplace("guards_added_fast", shape_rows(take(state.pending_fast_guards, lookup_id), state.strings, false));
  return render_page("compilation_metrics.html", page);
}

}  // namespace

void parse_compilation_metrics(ParseContext& context) {
  const simdjson::dom::element m = context.metadata;
  auto fail_type = string_field(m, "fail_type");
  auto fail_reason = string_field(m, "fail_reason");
  if (fail_type && !fail_reason) throw ReportError("Fail reason not found");
  if (context.options.export_mode) return;  // export reports have no compilation pages

  const trace::CompileId lookup_id = attempt_zero(context.record.compile_id);
  const std::string url =
      context.emit({ParserOutput::Kind::File, "compilation_metrics.html", render_page_for(context, lookup_id), {}});

  context.state.break_digest.add_compilation_metrics(context.record.compile_id, m, url);

  auto restart_reasons = string_list_field(m, "restart_reasons");
  auto op_count = uint_field(m, "graph_op_count");
  context.state.metrics[lookup_id].push_back(
      {fail_type.has_value(), !op_count || *op_count == 0, !restart_reasons || !restart_reasons->empty()});

  const std::string id_cell = "<a href='" + html_escape(url) + "'>" + html_escape(context.record.compile_id.display()) + "</a>";
  for (const std::string& reason : restart_reasons.value_or(std::vector<std::string>{}))
    context.state.failures.push_back({id_cell, "<td> RestartAnalysis </td><td><pre>" + html_escape(reason) +
                                                   "</pre></td><td>Not availble for restarts(yet)!</td>"});
  if (fail_type) {
    const std::string source = std::string(string_field(m, "fail_user_frame_filename").value_or("N/A")) + ":" +
                               std::to_string(uint_field(m, "fail_user_frame_lineno").value_or(0));
    context.state.failures.push_back(
        {id_cell, "<td><pre>" + html_escape(*fail_type) + "</pre></td>\n<td><pre>" + html_escape(*fail_reason) +
                      "</pre></td>\n<td><pre>" + html_escape(source) + "</pre></td>\n"});
  }
}

}  // namespace kiln::report
