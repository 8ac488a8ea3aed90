#include "libcompiler/ir/split_module.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace kiln::ir {

namespace {

// Names in first-seen order, each once (FX keeps these as dicts of None).
struct OrderedNames {
  std::vector<const Node*> items;
  void add(const Node* n) {
    if (std::find(items.begin(), items.end(), n) == items.end()) items.push_back(n);
  }
};

struct Partition {
  std::string name;  // "submod_<n>"
  std::vector<const Node*> nodes;
  OrderedNames inputs, outputs;
  std::vector<int> dependents;            // in first-seen order
  std::map<int, bool> dependencies;        // what must run first
  std::unique_ptr<GraphModule> module = std::make_unique<GraphModule>();
  std::map<const Node*, Node*> environment;  // original node -> its value inside the partition
};

Argument mapArgument(const Argument& arg, const std::function<Node*(const Node*)>& map) {
  if (const Node* n = arg.asNode()) return Argument::node(map(n));
  if (const auto* s = arg.asSequence()) {
    std::vector<Argument> items;
    for (const Argument& item : s->items) items.push_back(mapArgument(item, map));
    return s->isTuple ? Argument::tuple(std::move(items)) : Argument::list(std::move(items));
  }
  if (const auto* slice = std::get_if<ArgumentSlice>(&arg.value))
    return Argument::slice(mapArgument(slice->parts[0], map), mapArgument(slice->parts[1], map),
                           mapArgument(slice->parts[2], map));
  return arg;
}

}  // namespace

std::unique_ptr<GraphModule> splitModule(const GraphModule& module, const std::function<int(const Node&)>& partitionOf) {
  std::map<int, Partition> partitions;
  std::vector<int> firstSeenOrder;
  std::map<const Node*, int> partitionOfNode;
  const auto nodes = module.graph.nodes();
  for (const Node* n : nodes) {
    if (n->op() == OpCode::Placeholder || n->op() == OpCode::GetAttr || n->op() == OpCode::Output) continue;
    const int p = partitionOf(*n);
    if (!partitions.count(p)) {
      firstSeenOrder.push_back(p);
      partitions[p].name = "submod_" + std::to_string(p);
    }
    partitions[p].nodes.push_back(n);
    partitionOfNode[n] = p;
  }
  // The node that first holds each size symbol (Dynamo's graphs take one as a placeholder,
  // s77: "Sym(s77)").
  std::map<std::string, const Node*> symbolNodes;
  for (const Node* n : nodes)
    if (const auto* scalar = std::get_if<SymScalar>(&n->meta.value)) {
      const std::vector<std::string> symbols = scalar->expr.freeSymbols();
      if (symbols.size() == 1 && scalar->expr == SymExpr::symbol(symbols[0])) symbolNodes.emplace(symbols[0], n);
    }
  // The symbols a tensor value's sizes and strides mention, sorted by name.
  auto symbolsOf = [](const Node* n) {
    std::set<std::string> symbols;
    if (const auto* meta = std::get_if<TensorMeta>(&n->meta.value))
      for (const auto* exprs : {&meta->sizes, &meta->strides})
        for (const SymExpr& e : *exprs)
          for (std::string& symbol : e.freeSymbols()) symbols.insert(std::move(symbol));
    return symbols;
  };
  // A value defined in one partition (or outside any: placeholders) and used in another. A
  // partition reading a value of symbolic size also reads the symbols' nodes, as FX does.
  auto crossUse = [&](const Node* def, const Node* use) {
    auto defined = partitionOfNode.find(def);
    auto used = use ? partitionOfNode.find(use) : partitionOfNode.end();
    const bool hasDef = defined != partitionOfNode.end(), hasUse = used != partitionOfNode.end();
    if (hasDef && hasUse && defined->second == used->second) return;
    if (!hasDef && !hasUse) return;
    if (hasDef) {
      Partition& d = partitions[defined->second];
      d.outputs.add(def);
      if (hasUse && std::find(d.dependents.begin(), d.dependents.end(), used->second) == d.dependents.end())
        d.dependents.push_back(used->second);
    }
    if (hasUse) {
      Partition& u = partitions[used->second];
      u.inputs.add(def);
      for (const std::string& symbol : symbolsOf(def)) {
        auto holder = symbolNodes.find(symbol);
        if (holder == symbolNodes.end()) continue;
        u.inputs.add(holder->second);
        auto holderPartition = partitionOfNode.find(holder->second);
        if (holderPartition == partitionOfNode.end()) continue;
        Partition& h = partitions[holderPartition->second];
        h.outputs.add(holder->second);
        if (std::find(h.dependents.begin(), h.dependents.end(), used->second) == h.dependents.end())
          h.dependents.push_back(used->second);
        u.dependencies[holderPartition->second] = true;
      }
      if (hasDef) u.dependencies[defined->second] = true;
    }
  };
  for (const Node* n : nodes) {
    if (n->op() == OpCode::Placeholder || n->op() == OpCode::GetAttr) continue;
    const Node* use = n->op() == OpCode::Output ? nullptr : n;
    for (const Argument& a : n->args()) a.forEachNode([&](const Node* def) { crossUse(def, use); });
    for (const KeywordArgument& k : n->kwargs()) k.value.forEachNode([&](const Node* def) { crossUse(def, use); });
  }
  // Dependency order, taking the most recently freed partition first, as FX's stack does.
  std::vector<int> roots, sorted;
  for (int p : firstSeenOrder)
    if (partitions[p].dependencies.empty()) roots.push_back(p);
  while (!roots.empty()) {
    const int root = roots.back();
    roots.pop_back();
    sorted.push_back(root);
    for (int dependent : partitions[root].dependents) {
      partitions[dependent].dependencies.erase(root);
      if (partitions[dependent].dependencies.empty()) roots.push_back(dependent);
    }
  }
  if (sorted.size() != partitions.size()) throw std::runtime_error("split_module: cycle exists between partitions!");

  for (int p : sorted) {
    Partition& part = partitions[p];
    for (const Node* input : part.inputs.items) {
      Node* placeholder = part.module->graph.placeholder(input->name(), input->name());
      placeholder->meta = input->meta;
      part.environment[input] = placeholder;
    }
  }
  for (const Node* n : nodes) {
    auto where = partitionOfNode.find(n);
    if (where == partitionOfNode.end()) continue;
    Partition& part = partitions[where->second];
    auto inPartition = [&](const Node* def) { return part.environment.at(def); };
    std::vector<Argument> args;
    for (const Argument& a : n->args()) args.push_back(mapArgument(a, inPartition));
    std::vector<KeywordArgument> kwargs;
    for (const KeywordArgument& k : n->kwargs()) kwargs.push_back({k.name, mapArgument(k.value, inPartition)});
    Node* copy = part.module->graph.createNode(n->op(), n->target(), std::move(args), std::move(kwargs));
    copy->meta = n->meta;
    part.environment[n] = copy;
  }

  auto parent = std::make_unique<GraphModule>(module.className);
  std::map<const Node*, Node*> parentEnv;
  for (const Node* n : nodes) {
    if (n->op() == OpCode::Placeholder) {
      Node* copy = parent->graph.placeholder(n->target(), n->name());
      copy->meta = n->meta;
      parentEnv[n] = copy;
    } else if (n->op() == OpCode::GetAttr) {
      Node* copy = parent->graph.createNode(OpCode::GetAttr, n->target(), {}, {}, n->name());
      copy->meta = n->meta;
      parentEnv[n] = copy;
    }
  }
  parent->attributes = module.attributes;
  for (int p : sorted) {
    Partition& part = partitions[p];
    const auto& outs = part.outputs.items;
    if (outs.size() == 1) {
      part.module->graph.output(Argument::node(part.environment.at(outs[0])));
    } else {
      std::vector<Argument> values;
      for (const Node* o : outs) values.push_back(Argument::node(part.environment.at(o)));
      part.module->graph.output(Argument::tuple(std::move(values)));
    }
    std::vector<Argument> callArgs;
    for (const Node* input : part.inputs.items) callArgs.push_back(Argument::node(parentEnv.at(input)));
    Node* call = parent->graph.createNode(OpCode::CallModule, part.name, std::move(callArgs), {}, part.name);
    if (outs.size() == 1) {
      parentEnv[outs[0]] = call;
    } else {
      for (size_t i = 0; i < outs.size(); ++i)
        parentEnv[outs[i]] = parent->graph.callFunction(
            BuiltinTarget::Getitem, {Argument::node(call), Argument::integer(static_cast<int64_t>(i))});
    }
    part.module->className = part.name;
    parent->addSubmodule(part.name, std::move(part.module));
  }
  const Node* output = module.graph.outputNode();
  parent->graph.output(mapArgument(output->args().at(0), [&](const Node* n) { return parentEnv.at(n); }));
  return parent;
}

}  // namespace kiln::ir
