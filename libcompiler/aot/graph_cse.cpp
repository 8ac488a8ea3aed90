#include "libcompiler/aot/graph_cse.h"

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "libcompiler/aot/storage_alias.h"

namespace kiln::aot {

namespace {

// Ops whose result may differ between two calls with equal arguments.
bool is_nondeterministic(const ops::OpInfo& op) {
  static const std::unordered_set<std::string> names = {"empty", "bernoulli_", "dropout", "randint", "rand", "randn",
                                                        "rand_like", "randn_like", "native_dropout"};
  return names.count(op.name()) > 0;
}

std::string key_of(const ir::Node& node) {
  std::string key = node.target() + "(";
  for (const ir::Argument& a : node.args()) key += a.repr() + ", ";
  for (const ir::KeywordArgument& kw : node.kwargs()) key += kw.name + "=" + kw.value.repr() + ", ";
  return key + ")";
}

}  // namespace

size_t eliminate_common_subexpressions(ir::Graph& graph) {
  std::unordered_set<const ir::Node*> output_storages;
  for (const ir::Node* n : graph.outputNode()->inputNodes()) output_storages.insert(storage_root(n));
  // (key, mutation region) -> the first node computing it.
  std::unordered_map<std::string, ir::Node*> first;
  int region = 0;
  size_t replaced = 0;
  for (ir::Node* node : graph.nodes()) {
    if (node->op() != ir::OpCode::CallFunction) continue;
    const ops::OpInfo* op = ir::tableOp(*node);
    if (op && op->schema.is_inplace()) ++region;
    if ((op && is_nondeterministic(*op)) || output_storages.count(storage_root(node))) continue;
    const std::string key = std::to_string(region) + ":" + key_of(*node);
    auto [it, inserted] = first.try_emplace(key, node);
    if (inserted) continue;
    node->replaceAllUsesWith(it->second);
    graph.erase(node);
    ++replaced;
  }
  return replaced;
}

}  // namespace kiln::aot
