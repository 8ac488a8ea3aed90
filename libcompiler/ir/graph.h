#pragma once
// An FX-style graph: an ordered list of nodes with unique names, the last of which is normally
// the output node. It owns its nodes; Node pointers stay valid until the node is erased.
// graph_interpreter.h runs one with eager kernels (a library of its own: it needs libcompiler/ops).
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "libcompiler/ir/node.h"

namespace kiln::ir {

// forward(self, primals, tangents) whose arguments fx_pytree flattens into the placeholders,
// as AOT's joint graph is printed (FX's _PyTreeCodeGen).
struct PytreeSignature {
  std::vector<std::string> inputNames;
  friend bool operator==(const PytreeSignature&, const PytreeSignature&) = default;
};

// How the graph's Python code is laid out (FX keeps this on the graph as its CodeGen).
struct CodegenStyle {
  // One parameter / returned value per line, with descriptor comments (AOT graphs).
  bool expandedSignature = false;
  std::optional<PytreeSignature> pytree;
  friend bool operator==(const CodegenStyle&, const CodegenStyle&) = default;
};

class Graph {
 public:
  Graph() = default;
  Graph(const Graph&) = delete;  // nodes point at their graph: copy with copyGraph()
  Graph& operator=(const Graph&) = delete;

  // Adds a node before `before` (at the end when null). An empty name is derived from the
  // target; either way the name is made unique as FX does ("add", "add_1", "sum_1").
  Node* createNode(OpCode op, std::string target, std::vector<Argument> args = {},
                   std::vector<KeywordArgument> kwargs = {}, std::string_view name = {}, Node* before = nullptr);
  Node* placeholder(std::string target, std::string_view name = {});
  Node* callFunction(std::string target, std::vector<Argument> args, std::vector<KeywordArgument> kwargs = {});
  Node* callFunction(BuiltinTarget target, std::vector<Argument> args, std::vector<KeywordArgument> kwargs = {});
  Node* output(Argument result);

  // Removes a node that nothing uses; throws std::logic_error otherwise.
  void erase(Node* node);
  // Puts the nodes in the given order, which must be a permutation of nodes().
  void reorder(const std::vector<Node*>& order);

  std::vector<Node*> nodes() const;
  size_t size() const { return nodes_.size(); }
  Node* findNode(std::string_view name) const;
  Node* outputNode() const;
  std::vector<Node*> placeholders() const;

  // A fresh name from candidate, following FX's _Namespace.create_name.
  std::string uniqueName(std::string_view candidate);
  // Gives a node a fresh name from candidate (FX's Node._rename); its old name stays taken.
  void rename(Node* node, std::string_view candidate);

  CodegenStyle codegen;

 private:
  std::vector<std::unique_ptr<Node>> nodes_;
  std::set<std::string, std::less<>> usedNames_;
  std::map<std::string, int64_t, std::less<>> baseCount_;
};

}  // namespace kiln::ir
