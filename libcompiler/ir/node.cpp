#include "libcompiler/ir/node.h"

#include <algorithm>

namespace kiln::ir {

std::string_view opcodeName(OpCode op) {
  static constexpr std::string_view kNames[] = {
#define KILN_OPCODE(Enumerator, Name) Name,
#include "libcompiler/ir/opcodes.def"
  };
  return kNames[static_cast<int>(op)];
}

Node::Node(Graph* graph, OpCode op, std::string name, std::string target)
    : graph_(graph), op_(op), name_(std::move(name)), target_(std::move(target)), resolved_(resolveTarget(op, target_)) {}

std::vector<Node*> Node::inputNodes() const {
  std::vector<Node*> inputs;
  auto add = [&](Node* n) {
    if (std::find(inputs.begin(), inputs.end(), n) == inputs.end()) inputs.push_back(n);
  };
  for (const auto& a : args_) a.forEachNode(add);
  for (const auto& k : kwargs_) k.value.forEachNode(add);
  return inputs;
}

void Node::unlinkInputs() {
  for (Node* input : inputNodes()) std::erase(input->users_, this);
}

void Node::linkInputs() {
  for (Node* input : inputNodes()) input->users_.push_back(this);
}

void Node::setArgs(std::vector<Argument> args) {
  unlinkInputs();
  args_ = std::move(args);
  linkInputs();
}

void Node::setKwargs(std::vector<KeywordArgument> kwargs) {
  unlinkInputs();
  kwargs_ = std::move(kwargs);
  linkInputs();
}

void Node::replaceAllUsesWith(Node* replacement) {
  auto swap = [&](Node* n) { return n == this ? replacement : n; };
  for (Node* user : std::vector<Node*>(users_)) {
    std::vector<Argument> args;
    for (const auto& a : user->args_) args.push_back(a.mapNodes(swap));
    std::vector<KeywordArgument> kwargs;
    for (const auto& k : user->kwargs_) kwargs.push_back({k.name, k.value.mapNodes(swap)});
    user->unlinkInputs();
    user->args_ = std::move(args);
    user->kwargs_ = std::move(kwargs);
    user->linkInputs();
  }
}

}  // namespace kiln::ir
