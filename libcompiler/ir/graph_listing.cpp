#include "libcompiler/ir/graph_listing.h"

#include "libcompiler/ir/opcode.h"

namespace kiln::ir {

namespace {

// FX's _format_arg: nodes as %name, sequences element by element, anything else as str() (a
// string without quotes).
std::string formatArg(const Argument& arg) {
  if (const Node* n = arg.asNode()) return "%" + n->name();
  if (const auto* s = arg.asSequence()) {
    std::string items;
    for (const Argument& item : s->items) items += (items.empty() ? "" : ", ") + formatArg(item);
    if (!s->isTuple) return "[" + items + "]";
    return "(" + items + (s->items.size() == 1 ? ",)" : ")");
  }
  if (const auto* text = std::get_if<std::string>(&arg.value)) return *text;
  return arg.repr();
}

std::string formatKwargs(const std::vector<KeywordArgument>& kwargs) {
  std::string items;
  for (const KeywordArgument& k : kwargs) items += (items.empty() ? "" : ", ") + k.name + ": " + formatArg(k.value);
  return "{" + items + "}";
}

std::string nodeLine(const Node& node) {
  const std::string head = "%" + node.name() + " : ";
  const std::string users = "[num_users=" + std::to_string(node.users().size()) + "] = ";
  const std::string type = node.meta.typeAnnotation ? *node.meta.typeAnnotation + " " : "";
  switch (node.op()) {
    case OpCode::Placeholder:
      return head + type + users + "placeholder[target=" + node.target() + "]";
    case OpCode::GetAttr:
      return head + type + users + "get_attr[target=" + node.target() + "]";
    case OpCode::Output:
      // str() of the returned value: a tuple's nodes by name.
      return "return " + node.args().at(0).repr();
    case OpCode::CallFunction:
    case OpCode::CallMethod:
    case OpCode::CallModule: {
      std::string args = formatArg(Argument::tuple(node.args()));
      return head + users + std::string(opcodeName(node.op())) + "[target=" + node.target() + "](args = " + args +
             ", kwargs = " + formatKwargs(node.kwargs()) + ")";
    }
  }
  return {};
}

}  // namespace

std::string graphListing(const Graph& graph) {
  std::string text = "graph():";
  for (const Node* node : graph.nodes()) text += "\n    " + nodeLine(*node);
  return text;
}

}  // namespace kiln::ir
