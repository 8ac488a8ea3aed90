#include "libcompiler/ir/graph.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace kiln::ir {

namespace {

bool isReservedName(std::string_view name) {
  static const std::set<std::string_view> kReserved = {
#define KILN_RESERVED_NAME(n) #n,
#include "libcompiler/ir/python_reserved_names.def"
  };
  return kReserved.count(name) > 0;
}

// FX names a node after what it calls: torch.ops.aten.add.Tensor -> add, torch._C._nn.linear ->
// linear, a method -> its name, a submodule or attribute path -> the path with '_' for '.'.
std::string nameFromTarget(OpCode op, std::string_view target) {
  if (op == OpCode::CallModule || op == OpCode::GetAttr || op == OpCode::Placeholder) {
    std::string s(target);
    std::replace(s.begin(), s.end(), '.', '_');
    return s;
  }
  if (op == OpCode::Output) return "output";
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    size_t dot = target.find('.', start);
    parts.push_back(target.substr(start, dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (isTorchOpsNamespace(resolveTarget(op, target).ns) && parts.size() == 5) return std::string(parts[3]);
  return std::string(parts.back());
}

}  // namespace

std::string Graph::uniqueName(std::string_view candidate) {
  std::string base;
  for (char c : candidate) base += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (base.empty()) base = "_unnamed";
  if (std::isdigit(static_cast<unsigned char>(base[0]))) base = "_" + base;
  // A trailing _<digits> is a counter: "add_3" continues counting from 3 for base "add".
  int64_t num = 0;
  bool numbered = false;
  size_t underscore = base.rfind('_');
  if (underscore != std::string::npos && underscore > 0 && underscore + 1 < base.size() &&
      std::all_of(base.begin() + static_cast<long>(underscore) + 1, base.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
      base.size() - underscore - 1 < 18) {
    num = std::stoll(base.substr(underscore + 1));
    numbered = true;
    base.resize(underscore);
  }
  std::string name = numbered ? base + "_" + std::to_string(num) : base;
  if (num == 0) {
    auto it = baseCount_.find(base);
    num = it == baseCount_.end() ? 0 : it->second;
  }
  while (usedNames_.count(name) || isReservedName(name)) name = base + "_" + std::to_string(++num);
  usedNames_.insert(name);
  baseCount_[base] = num;
  return name;
}

Node* Graph::createNode(OpCode op, std::string target, std::vector<Argument> args, std::vector<KeywordArgument> kwargs,
                        std::string_view name, Node* before) {
  std::string unique = uniqueName(name.empty() ? nameFromTarget(op, target) : name);
  std::unique_ptr<Node> node(new Node(this, op, std::move(unique), std::move(target)));
  Node* raw = node.get();
  auto position = nodes_.end();
  if (before) {
    position = std::find_if(nodes_.begin(), nodes_.end(), [&](const auto& n) { return n.get() == before; });
    if (position == nodes_.end()) throw std::logic_error("createNode: insertion point is not in this graph");
  }
  nodes_.insert(position, std::move(node));
  raw->setArgs(std::move(args));
  raw->setKwargs(std::move(kwargs));
  return raw;
}

void Graph::rename(Node* node, std::string_view candidate) { node->name_ = uniqueName(candidate); }

Node* Graph::placeholder(std::string target, std::string_view name) {
  std::string_view hint = name.empty() ? std::string_view(target) : name;
  std::string hintCopy(hint);
  return createNode(OpCode::Placeholder, std::move(target), {}, {}, hintCopy);
}

Node* Graph::callFunction(std::string target, std::vector<Argument> args, std::vector<KeywordArgument> kwargs) {
  return createNode(OpCode::CallFunction, std::move(target), std::move(args), std::move(kwargs));
}

Node* Graph::callFunction(BuiltinTarget target, std::vector<Argument> args, std::vector<KeywordArgument> kwargs) {
  return callFunction(std::string(builtinTargetSpelling(target)), std::move(args), std::move(kwargs));
}

Node* Graph::output(Argument result) { return createNode(OpCode::Output, "output", {std::move(result)}); }

void Graph::erase(Node* node) {
  if (!node->users().empty())
    throw std::logic_error("erase: node '" + node->name() + "' still has " + std::to_string(node->users().size()) +
                           " user(s)");
  auto it = std::find_if(nodes_.begin(), nodes_.end(), [&](const auto& n) { return n.get() == node; });
  if (it == nodes_.end()) throw std::logic_error("erase: node is not in this graph");
  node->unlinkInputs();
  usedNames_.erase(node->name());
  nodes_.erase(it);
}

void Graph::reorder(const std::vector<Node*>& order) {
  std::set<Node*> current;
  for (const auto& n : nodes_) current.insert(n.get());
  if (order.size() != nodes_.size() || std::set<Node*>(order.begin(), order.end()) != current)
    throw std::logic_error("reorder: not a permutation of the graph's nodes");
  std::map<Node*, std::unique_ptr<Node>> owned;
  for (auto& n : nodes_) owned[n.get()] = std::move(n);
  nodes_.clear();
  for (Node* n : order) nodes_.push_back(std::move(owned[n]));
}

std::vector<Node*> Graph::nodes() const {
  std::vector<Node*> out;
  out.reserve(nodes_.size());
  for (const auto& n : nodes_) out.push_back(n.get());
  return out;
}

Node* Graph::findNode(std::string_view name) const {
  for (const auto& n : nodes_)
    if (n->name() == name) return n.get();
  return nullptr;
}

Node* Graph::outputNode() const {
  for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it)
    if ((*it)->op() == OpCode::Output) return it->get();
  return nullptr;
}

std::vector<Node*> Graph::placeholders() const {
  std::vector<Node*> out;
  for (const auto& n : nodes_)
    if (n->op() == OpCode::Placeholder) out.push_back(n.get());
  return out;
}

}  // namespace kiln::ir
