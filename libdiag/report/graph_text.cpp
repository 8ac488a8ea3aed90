#include "libdiag/report/graph_text.h"

#include "libdiag/report/text_lines.h"

namespace kiln::report {
namespace {

bool identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Module-level names a graph calls functions of; any other dotted callee is a method of a value.
bool is_module_path(std::string_view head) {
  for (std::string_view module : {"torch", "operator", "builtins", "math", "_operator", "torch_ops"})
    if (head == module) return true;
  return false;
}

std::string op_of(std::string_view expression) {
  size_t end = 0;
  while (end < expression.size() && (identifier_char(expression[end]) || expression[end] == '.')) ++end;
  if (end > 0 && end < expression.size() && expression[end] == '(') {
    const std::string_view callee = expression.substr(0, end);
    const size_t dot = callee.find('.');
    if (dot == std::string_view::npos || is_module_path(callee.substr(0, dot))) return std::string(callee);
    return std::string(callee.substr(callee.rfind('.')));  // a method call: ".sum"
  }
  // A Python operator between two values: "abs_1 + 1", "x[0]", "-x".
  for (std::string_view symbol : {" // ", " ** ", " + ", " - ", " * ", " / ", " % ", " @ ", " < ", " > ", " <= ",
                                  " >= ", " == ", " != ", " & ", " | ", " ^ "})
    if (expression.find(symbol) != std::string_view::npos) return std::string(trim_blanks(symbol));
  if (expression.find('[') != std::string_view::npos) return "getitem";
  return "(value)";
}

}  // namespace

std::vector<GraphNodeLine> graph_nodes(std::string_view printed_graph) {
  std::vector<GraphNodeLine> nodes;
  for (std::string_view line : split_lines(printed_graph)) {
    line = trim_blanks(line);
    if (line.substr(0, 7) == "return ") {
      nodes.push_back({std::string(line), "return"});
      continue;
    }
    // "name = expr" or 'name: "type" = expr'; parameters of the signature have no " = ".
    size_t name_end = 0;
    while (name_end < line.size() && identifier_char(line[name_end])) ++name_end;
    if (name_end == 0 || line.front() == '#') continue;
    size_t assign = name_end;
    if (line.substr(assign, 3) == ": \"") {
      const size_t close = line.find('"', assign + 3);
      if (close == std::string_view::npos) continue;
      assign = close + 1;
    }
    if (line.substr(assign, 3) != " = ") continue;
    // The printer frees values after their last use: ";  a = b = None".
    if (const size_t free = line.rfind(";  "); free != std::string_view::npos && line.substr(line.size() - 7) == " = None")
      line = line.substr(0, free);
    nodes.push_back({std::string(line), op_of(line.substr(assign + 3))});
  }
  return nodes;
}

}  // namespace kiln::report
