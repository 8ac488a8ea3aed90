#include "libcompiler/ir/readable_printer.h"

#include <cctype>
#include <map>

#include "libcompiler/ir/python_operators.h"

namespace kiln::ir {

namespace {

bool isIdentifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// FX's _format_target: self.a.b, or getattr(self.a, "0") for parts that are not identifiers.
std::string formatTarget(std::string base, std::string_view target) {
  size_t start = 0;
  for (;;) {
    size_t dot = target.find('.', start);
    std::string_view part = target.substr(start, dot - start);
    base = isIdentifier(part) ? base + "." + std::string(part) : "getattr(" + base + ", \"" + std::string(part) + "\")";
    if (dot == std::string_view::npos) return base;
    start = dot + 1;
  }
}

// FX's _format_args: "a, b, k = v".
std::string formatArgs(const std::vector<Argument>& args, size_t firstArg, const std::vector<KeywordArgument>& kwargs) {
  std::string s;
  for (size_t i = firstArg; i < args.size(); ++i) s += (s.empty() ? "" : ", ") + args[i].repr();
  for (const auto& k : kwargs) s += (s.empty() ? "" : ", ") + k.name + " = " + k.value.repr();
  return s;
}

// How the printed code annotates values: not at all (gm.code), with sizes (print_readable's
// defaults), or with strides and devices too (the trace payloads).
enum class Annotations { None, Sizes, Full };

std::optional<std::string> annotationOf(const Node& node, Annotations annotations) {
  if (annotations == Annotations::None) return std::nullopt;
  return annotationText(node.meta.value, annotations == Annotations::Full);
}

std::string annotated(const Node& node, Annotations annotations) {
  auto text = annotationOf(node, annotations);
  return text ? node.name() + ": \"" + *text + "\"" : node.name();
}

// The statement that computes node (without the frees).
std::string statement(const Node& node, Annotations annotations) {
  auto annotated = [&](const Node& n) { return ir::annotated(n, annotations); };
  const auto& args = node.args();
  switch (node.op()) {
    case OpCode::GetAttr:
      return annotated(node) + " = " + formatTarget("self", node.target());
    case OpCode::CallModule:
      return annotated(node) + " = " + formatTarget("self", node.target()) + "(" + formatArgs(args, 0, node.kwargs()) + ")";
    case OpCode::CallMethod:
      return annotated(node) + " = " + formatTarget(args.at(0).repr(), node.target()) + "(" +
             formatArgs(args, 1, node.kwargs()) + ")";
    case OpCode::CallFunction: {
      if (auto op = operatorForTarget(node.target()); op && node.kwargs().empty()) {
        std::string symbol(op->symbol);
        if (op->form == OperatorForm::Binary && args.size() == 2)
          return annotated(node) + " = " + args[0].repr() + " " + symbol + " " + args[1].repr();
        if (op->form == OperatorForm::Unary && args.size() == 1) return annotated(node) + " = " + symbol + args[0].repr();
        if (op->form == OperatorForm::Subscript && args.size() == 2)
          return annotated(node) + " = " + args[0].repr() + "[" + args[1].repr() + "]";
        if (op->form == OperatorForm::InPlace && args.size() == 2)
          return args[0].repr() + " " + symbol + " " + args[1].repr() + ";  " + annotated(node) + " = " + args[0].repr();
        if (op->form == OperatorForm::SubscriptStore && args.size() == 3)
          return args[0].repr() + "[" + args[1].repr() + "] = " + args[2].repr() + ";  " + annotated(node) + " = " +
                 args[0].repr();
      }
      if (node.is(BuiltinTarget::Getattr) && args.size() == 2 && node.kwargs().empty()) {
        if (const auto* attr = std::get_if<std::string>(&args[1].value); attr && isIdentifier(*attr))
          return annotated(node) + " = " + args[0].repr() + "." + *attr;
      }
      return annotated(node) + " = " + node.target() + "(" + formatArgs(args, 0, node.kwargs()) + ")";
    }
    case OpCode::Placeholder:
    case OpCode::Output:
      break;
  }
  return {};
}

// FX frees each value right after its last use, and a value nothing uses right after it is made.
std::map<const Node*, std::vector<const Node*>> valuesFreedAfter(const Graph& graph) {
  std::map<const Node*, std::vector<const Node*>> freed;
  std::map<const Node*, bool> seen;
  auto nodes = graph.nodes();
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it)
    for (Node* input : (*it)->inputNodes())
      if (!seen[input]) {
        seen[input] = true;
        freed[*it].push_back(input);
      }
  return freed;
}

std::string elementLine(const Argument& element, const std::optional<std::string>& descriptor) {
  return element.repr() + "," + (descriptor ? "  # " + *descriptor : "");
}

class ModulePrinter {
 public:
  // Anything but Annotations::None prints the verbose form (source comments, expanded signatures).
  ModulePrinter(const GraphModule& module, std::vector<std::string>& out, Annotations annotations = Annotations::Full)
      : module_(module), out_(out), annotations_(annotations), verbose_(annotations != Annotations::None) {}

  void print(const std::string& indent) {
    out_.push_back(indent + "class " + module_.className + "(torch.nn.Module):");
    printForward(indent + "    ");
    out_.push_back("");
    for (const auto& [name, submodule] : module_.submodules()) ModulePrinter(*submodule, out_, annotations_).print(indent + "    ");
  }

  void printForward(const std::string& indent) {
    printSignature(indent);
    printBody(indent + "    ");
  }

 private:
  std::string annotated(const Node& node) const { return ir::annotated(node, annotations_); }
  // The verbose form lays a signature out one parameter per line where the graph asks for it.
  bool expanded() const { return verbose_ && module_.graph.codegen.expandedSignature; }

  void printSignature(const std::string& indent) {
    const CodegenStyle& style = module_.graph.codegen;
    std::vector<std::string> params;
    std::vector<std::optional<std::string>> comments;
    if (style.pytree) {
      for (const auto& name : style.pytree->inputNames) params.push_back(name), comments.emplace_back();
    } else {
      for (const Node* p : module_.graph.placeholders()) {
        auto text = annotationOf(*p, annotations_);
        if (text)
          params.push_back(p->target() + ": \"" + *text + "\"");
        else if (!verbose_ && p->meta.typeAnnotation)
          params.push_back(p->target() + " : " + *p->meta.typeAnnotation);
        else
          params.push_back(p->target());
        comments.push_back(p->meta.descriptor);
      }
    }
    if (!expanded()) {
      std::string line = indent + "def forward(self";
      for (const auto& p : params) line += ", " + p;
      out_.push_back(line + "):");
      return;
    }
    out_.push_back(indent + "def forward(");
    out_.push_back(indent + "    self,");
    for (size_t i = 0; i < params.size(); ++i)
      out_.push_back(indent + "    " + params[i] + "," + (comments[i] ? "  # " + *comments[i] : ""));
    out_.push_back(indent + "):");
  }

  // fx_pytree flattens forward's arguments into the placeholders first.
  void printPytreePrologue(const std::string& indent) {
    const CodegenStyle& style = module_.graph.codegen;
    auto placeholders = module_.graph.placeholders();
    if (expanded()) {
      for (const Node* p : placeholders)
        out_.push_back(indent + annotated(*p) + (p->meta.descriptor ? "  # " + *p->meta.descriptor : ""));
    } else if (verbose_) {
      // The one-line form annotates the flattened placeholders on a line of their own.
      std::string line = indent;
      for (const Node* p : placeholders) line += annotated(*p) + "; ";
      out_.push_back(line);
      out_.push_back("");
    }
    std::string names, inputs;
    for (const Node* p : placeholders) names += p->target() + ", ";
    for (const auto& name : style.pytree->inputNames) inputs += (inputs.empty() ? "" : ", ") + name;
    out_.push_back(indent + names + "= fx_pytree.tree_flatten_spec([" + inputs + "], self._in_spec)");
  }

  void printReturn(const Node& output, const std::string& indent) {
    const CodegenStyle& style = module_.graph.codegen;
    const Argument& result = output.args().at(0);
    const auto* sequence = result.asSequence();
    const auto& descriptors = output.meta.outputDescriptors;
    auto descriptor = [&](size_t i) { return i < descriptors.size() ? descriptors[i] : std::nullopt; };
    if (style.pytree) {
      if (!expanded() || !sequence) {
        body_.push_back(indent + "return pytree.tree_unflatten(" + result.repr() + ", self._out_spec)");
        return;
      }
      body_.push_back(indent + "return pytree.tree_unflatten([");
      for (size_t i = 0; i < sequence->items.size(); ++i)
        body_.push_back(indent + "    " + elementLine(sequence->items[i], descriptor(i)));
      body_.push_back(indent + "], self._out_spec)");
      return;
    }
    if (!expanded() || !sequence) {
      body_.push_back(indent + "return " + result.repr());
      return;
    }
    body_.push_back(indent + "return " + (sequence->isTuple ? "(" : "["));
    for (size_t i = 0; i < sequence->items.size(); ++i)
      body_.push_back(indent + "    " + elementLine(sequence->items[i], descriptor(i)));
    body_.push_back(indent + (sequence->isTuple ? ")" : "]"));
  }

  void printBody(const std::string& indent) {
    const Graph& graph = module_.graph;
    auto freed = valuesFreedAfter(graph);
    std::optional<std::string> previousSummary;
    for (const Node* node : graph.nodes()) {
      if (node->op() == OpCode::Placeholder) {
        if (node->name() != node->target()) body_.push_back(indent + node->name() + " = " + node->target());
        continue;
      }
      if (node->op() == OpCode::Output) {
        printReturn(*node, indent);
        continue;
      }
      std::string summary = node->meta.sourceSummary.value_or(kNoStacktraceComment);
      if (verbose_ && summary != previousSummary) {
        body_.push_back("");
        body_.push_back(indent + "# " + summary);
        previousSummary = summary;
      }
      std::vector<const Node*> frees = freed[node];
      if (node->users().empty()) frees.push_back(node);
      std::string line = indent + statement(*node, annotations_);
      if (!frees.empty()) {
        line += ";  ";
        for (const Node* f : frees) line += f->name() + " = ";
        line += "None";
      }
      body_.push_back(line);
    }
    // FX strips the blank lines that would open the body.
    size_t first = 0;
    while (first < body_.size() && body_[first].empty()) ++first;
    if (graph.codegen.pytree) printPytreePrologue(indent);
    out_.insert(out_.end(), body_.begin() + static_cast<long>(first), body_.end());
  }

  const GraphModule& module_;
  std::vector<std::string>& out_;
  Annotations annotations_;
  bool verbose_;
  std::vector<std::string> body_;
};

}  // namespace

std::vector<std::string> printReadableLines(const GraphModule& module, bool includeStrideAndDevice) {
  std::vector<std::string> lines;
  ModulePrinter(module, lines, includeStrideAndDevice ? Annotations::Full : Annotations::Sizes).print("");
  if (module.graphId) {
    lines.push_back("");
    lines.push_back(" # graph id: " + *module.graphId);
  }
  return lines;
}

std::vector<std::string> printForwardCode(const GraphModule& module, const std::string& indent) {
  std::vector<std::string> lines;
  ModulePrinter(module, lines, Annotations::None).printForward(indent);
  return lines;
}

std::string printReadable(const GraphModule& module, bool includeStrideAndDevice) {
  std::string text;
  for (const auto& line : printReadableLines(module, includeStrideAndDevice)) text += line + "\n";
  return text;
}

}  // namespace kiln::ir
