// Draft-export analysis (reference §6.11), run with --export: guards evaluated during export and
// data-dependent specialisations become issues with a detail page; fake-kernel problems become
// issues; expression_created / create_unbacked_symbol build the provenance trees of those pages.
#include <set>

#include "libdiag/report/html_escape.h"
#include "libdiag/report/metadata_fields.h"
#include "libdiag/report/page_templates.h"
#include "libdiag/report/parser.h"
#include "libdiag/report/stack_trie.h"

namespace kiln::report {
namespace {

constexpr const char* kFakeKernelAdvice =
    "Please refer to <a href='https://docs.google.com/document/d/1_W62p8WJOQQUzPsJYa7s701JXt0qf2OfLub2sbkHOaU/"
    "edit#heading=h.ahugy69p2jmz'>this doc</a> for more detailed instructions on how to write a fake kernel.";

// tlparse panics on these (exit 101); Kiln reports them as an error naming the field.
template <typename T>
T required(std::optional<T> value, std::string_view event, std::string_view field) {
  if (!value) throw ReportError(std::string(event) + " without `" + std::string(field) + "` cannot be shown in export mode");
  return *value;
}

StackSummary stack_field(simdjson::dom::element metadata, std::string_view name) {
  auto value = element_field(metadata, name);
  return value ? decode_stack(*value) : StackSummary{};
}

// "Locals:<pre>\n    name: value\n</pre>Symbols:<pre>...</pre>", null values skipped.
std::string locals_html(simdjson::dom::element metadata) {
  auto frame_locals = element_field(metadata, "frame_locals");
  if (!frame_locals) return "";
  std::string html;
  for (const char* block : {"locals", "symbols"}) {
    auto values = element_field(*frame_locals, block);
    simdjson::dom::object object;
    if (!values || values->get_object().get(object)) continue;
    html += block == std::string_view("locals") ? "Locals:<pre>\n" : "Symbols:<pre>\n";
    for (auto [name, value] : object) {
      std::string_view text;
      if (value.get_string().get(text)) continue;
      html += "    ";
      append_html_escaped(html, name);
      html += ": ";
      append_html_escaped(html, text);
      html += "\n";
    }
    html += "</pre>";
  }
  return html;
}

// One card per expression node, children (argument_ids) indented 20px per level; cycles cut.
void render_provenance_tree(const ReportState& state, uint64_t node_id, size_t depth, std::set<uint64_t>& visited,
                            std::string& html) {
  if (!visited.insert(node_id).second) return;
  auto found = state.sym_expr_nodes.find(node_id);
  if (found == state.sym_expr_nodes.end()) return;
  const SymExprNode& node = found->second;
  std::string arguments;
  for (size_t i = 0; i < node.arguments.size(); ++i) arguments += (i ? ", " : "") + node.arguments[i];
  html += "\n<div style=\"margin-left: " + std::to_string(depth * 20) + "px;\">\n"
          "    <div style=\"padding: 16px; border: 1px solid #ccc; border-radius: 8px; background-color: white;\">\n"
          "        <h3 style=\"font-weight: bold; font-size: 1.25rem;\">" + html_escape(node.result) + "</h3>\n"
          "        <p><span style=\"font-weight: bold;\">Method:</span> " + html_escape(node.method) + "</p>\n"
          "        <p><span style=\"font-weight: bold;\">Arguments:</span> " + html_escape(arguments) + "</p>\n"
          "        <div style=\"margin-top: 8px; font-size: 0.875rem;\">\n" +
          render_stack(node.user_stack, state.strings, "User Stack", true) + "\n" +
          render_stack(node.stack, state.strings, "Stack") + "\n        </div>\n    </div>\n</div>\n";
  for (uint64_t child : node.argument_ids) render_provenance_tree(state, child, depth + 1, visited, html);
}

// The symbolic_guard_information page of a guard or specialisation, and its issue row.
void record_guard_issue(ParseContext& context, std::string_view failure_type, std::string reason_html) {
  const simdjson::dom::element m = context.metadata;
  const uint64_t node_id = required(uint_field(m, "expr_node_id"), context.event_key, "expr_node_id");
  std::string tree;
  std::set<uint64_t> visited;
  render_provenance_tree(context.state, node_id, 0, visited, tree);
  mstch::map page{
      {"expr", html_escape(required(string_field(m, "expr"), context.event_key, "expr"))},
      {"user_stack_html", render_stack(stack_field(m, "user_stack"), context.state.strings, "User Stack", true)},
      {"framework_stack_html", render_stack(stack_field(m, "stack"), context.state.strings, "Framework Stack")},
      {"locals_html", locals_html(m)},
      {"sym_expr_trie_html", tree},
  };
  const std::string url = context.emit(
      {ParserOutput::Kind::File, "symbolic_guard_information.html", render_page("symbolic_guard_information.html", page), {}});
  context.state.export_issues.push_back({std::string(failure_type), std::move(reason_html),
                                         "Please click <a href='" + html_escape(url) + "'>here</a> for more information."});
}

}  // namespace

void parse_guard_added(ParseContext& context) {
  // Only guards evaluated during export are issues; the rest of such a record is ignored.
  if (string_field(context.metadata, "prefix") != std::optional<std::string_view>("eval")) {
    context.skip_rest = true;
    return;
  }
  const std::string expr(required(string_field(context.metadata, "expr"), "guard_added", "expr"));
  record_guard_issue(context, "Guard Evaluated",
                     "When exporting, the following guard was evaluated <code>" + html_escape(expr) +
                         "</code>. This might've resulted in a constraint violation error.");
}

void parse_propagate_real_tensors(ParseContext& context) {
  const std::string expr(required(string_field(context.metadata, "expr"), context.event_key, "expr"));
  const std::string result(required(string_field(context.metadata, "result"), context.event_key, "result"));
  record_guard_issue(context, "Data Dependent Error",
                     "When exporting, we were unable to figure out if the expression <code>" + html_escape(expr) +
                         "</code> always holds.<br> As a result, it was specialized to evaluate to <code>" +
                         html_escape(result) + "</code>, and asserts were inserted into the graph.");
}

void parse_missing_fake_kernel(ParseContext& context) {
  const std::string op(required(string_field(context.metadata, "op"), context.event_key, "op"));
  context.state.export_issues.push_back(
      {"Missing Fake Kernel", "<code>torch.ops." + html_escape(op) + "</code> is missing a fake kernel implementation",
       kFakeKernelAdvice});
}

void parse_mismatched_fake_kernel(ParseContext& context) {
  const std::string op(required(string_field(context.metadata, "op"), context.event_key, "op"));
  const std::string reason(required(string_field(context.metadata, "reason"), context.event_key, "reason"));
  context.state.export_issues.push_back(
      {"Mismatched Fake Kernel",
       "<code>torch.ops." + html_escape(op) +
           "</code> has a fake kernel implementation, but it has incorrect behavior, based on the real kernel.<br> "
           "The reason for the mismatch is: " + html_escape(reason),
       kFakeKernelAdvice});
}

void parse_expression_created(ParseContext& context) {
  const simdjson::dom::element m = context.metadata;
  SymExprNode node;
  node.result = std::string(string_field(m, "result").value_or(""));
  node.method = std::string(string_field(m, "method").value_or(""));
  node.arguments = string_list_field(m, "arguments").value_or(std::vector<std::string>{});
  if (auto ids = element_field(m, "argument_ids")) {
    simdjson::dom::array array;
    if (!ids->get_array().get(array))
      for (simdjson::dom::element id : array)
        if (uint64_t value = 0; !id.get_uint64().get(value)) node.argument_ids.push_back(value);
  }
  node.user_stack = stack_field(m, "user_stack");
  node.stack = stack_field(m, "stack");
  context.state.sym_expr_nodes[required(uint_field(m, "result_id"), context.event_key, "result_id")] = std::move(node);
}

void parse_create_unbacked_symbol(ParseContext& context) {
  const simdjson::dom::element m = context.metadata;
  SymExprNode node;
  node.result = std::string(string_field(m, "symbol").value_or(""));
  node.user_stack = stack_field(m, "user_stack");
  node.stack = stack_field(m, "stack");
  context.state.sym_expr_nodes[required(uint_field(m, "node_id"), context.event_key, "node_id")] = std::move(node);
}

}  // namespace kiln::report
