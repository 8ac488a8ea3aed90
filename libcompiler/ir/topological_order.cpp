#include "libcompiler/ir/topological_order.h"

#include <map>
#include <queue>
#include <set>
#include <stdexcept>

namespace kiln::ir {

bool isTopologicallySorted(const Graph& graph) {
  std::set<const Node*> seen;
  for (const Node* node : graph.nodes()) {
    for (const Node* input : node->inputNodes())
      if (!seen.count(input)) return false;
    seen.insert(node);
  }
  return true;
}

std::vector<Node*> topologicalOrder(const Graph& graph) {
  auto nodes = graph.nodes();
  std::map<const Node*, size_t> position, waitingOn;
  for (size_t i = 0; i < nodes.size(); ++i) position[nodes[i]] = i;
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < nodes.size(); ++i) {
    waitingOn[nodes[i]] = nodes[i]->inputNodes().size();
    if (waitingOn[nodes[i]] == 0) ready.push(i);
  }
  std::vector<Node*> order;
  while (!ready.empty()) {
    Node* node = nodes[ready.top()];
    ready.pop();
    order.push_back(node);
    for (Node* user : node->users())
      if (--waitingOn[user] == 0) ready.push(position[user]);
  }
  if (order.size() != nodes.size()) throw std::logic_error("topologicalOrder: the graph has a cycle");
  return order;
}

void sortTopologically(Graph& graph) { graph.reorder(topologicalOrder(graph)); }

}  // namespace kiln::ir
