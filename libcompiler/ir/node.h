#pragma once
// A node of an FX-style graph: an opcode, a unique name, a target, arguments, and metadata.
// Nodes are owned by their Graph, which keeps every node's users up to date.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libcompiler/ir/argument.h"
#include "libcompiler/ir/fake_value.h"
#include "libcompiler/ir/opcode.h"
#include "libcompiler/ir/target.h"

namespace kiln::ir {

class Graph;

// What FX keeps in node.meta that the IR models.
struct NodeMeta {
  FakeValue value;  // meta["val"]
  // The source summary printed above the node: "File: /x.py:5 in fn, code: return x + 1".
  std::optional<std::string> sourceSummary;
  // The full user stack (meta["stack_trace"]) when the producer knows it.
  std::string stackTrace;
  // Placeholders of AOT graphs: what the input is ("PlainAOTInput(idx=0)").
  std::optional<std::string> descriptor;
  // Placeholders: FX's node.type as the non-verbose code prints it ("torch.Tensor").
  std::optional<std::string> typeAnnotation;
  // The output node of AOT graphs: per returned element, what it is ("PlainAOTOutput(idx=0)").
  std::vector<std::optional<std::string>> outputDescriptors;
};

class Node {
 public:
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  OpCode op() const { return op_; }
  const std::string& name() const { return name_; }
  const std::string& target() const { return target_; }
  // The target as resolved when the node was made (ir/target.h).
  BuiltinTarget builtin() const { return resolved_.builtin; }
  bool is(BuiltinTarget builtin) const { return resolved_.builtin == builtin; }
  TargetNamespace targetNamespace() const { return resolved_.ns; }
  // The target's name in its namespace: "copy_.default" for torch.ops.aten.copy_.default.
  std::string_view targetName() const { return std::string_view(target_).substr(resolved_.name_offset); }
  const std::vector<Argument>& args() const { return args_; }
  const std::vector<KeywordArgument>& kwargs() const { return kwargs_; }
  // Nodes whose arguments mention this one, in the order they started to.
  const std::vector<Node*>& users() const { return users_; }
  Graph& graph() const { return *graph_; }

  void setArgs(std::vector<Argument> args);
  void setKwargs(std::vector<KeywordArgument> kwargs);
  // The distinct nodes among the arguments: args first, then kwargs, in order of appearance.
  std::vector<Node*> inputNodes() const;
  // Points every user of this node at replacement instead.
  void replaceAllUsesWith(Node* replacement);

  NodeMeta meta;

 private:
  friend class Graph;
  Node(Graph* graph, OpCode op, std::string name, std::string target);
  void unlinkInputs();
  void linkInputs();

  Graph* graph_;
  OpCode op_;
  std::string name_;
  std::string target_;
  ResolvedTarget resolved_;
  std::vector<Argument> args_;
  std::vector<KeywordArgument> kwargs_;
  std::vector<Node*> users_;
};

}  // namespace kiln::ir
