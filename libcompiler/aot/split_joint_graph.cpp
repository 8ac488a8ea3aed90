#include "libcompiler/aot/split_joint_graph.h"

#include <algorithm>
#include <stdexcept>
#include <map>
#include <set>
#include <unordered_map>

#include "libcompiler/aot/aten_graph_builder.h"
#include "libcompiler/ir/dead_code_elimination.h"
#include "libcompiler/ir/graph_copy.h"
#include "libcompiler/ir/table_op.h"

namespace kiln::aot {

namespace {

bool is_tangent(const ir::Node& node) {
  return node.op() == ir::OpCode::Placeholder && node.name().starts_with("tangents_");
}

bool is_copy(const ir::Node& node) {
  return ir::callsOp(node, ops::OpId::copy_);
}

// copy_(primal, value): functionalization's write-back of an input the program mutated.
bool is_input_mutation(const ir::Node& node) {
  if (!is_copy(node) || node.args().empty()) return false;
  const ir::Node* destination = node.args()[0].asNode();
  return destination && destination->op() == ir::OpCode::Placeholder;
}

// A saved input that the forward also writes into would reach the backward with its new value:
// the forward saves a clone made before the write instead.
void save_mutated_inputs_before_their_writes(ir::Graph& forward, size_t first_saved) {
  ir::Node* output = forward.outputNode();
  std::vector<ir::Argument> results = output->args().at(0).asSequence()->items;
  bool changed = false;
  for (ir::Node* write : forward.nodes()) {
    if (!is_input_mutation(*write)) continue;
    ir::Node* input = write->args()[0].asNode();
    ir::Node* original = nullptr;
    for (size_t i = first_saved; i < results.size(); ++i) {
      if (results[i].asNode() != input) continue;
      if (!original) {
        original = forward.createNode(ir::OpCode::CallFunction, ir::tableOpTarget(ops::OpId::clone), {ir::Argument::node(input)}, {}, "", write);
        original->meta = input->meta;
        original->meta.descriptor.reset();
      }
      results[i] = ir::Argument::node(original);
      changed = true;
    }
  }
  if (changed) output->setArgs({ir::Argument::tuple(std::move(results))});
}

// PyTorch's _extract_graph_with_inputs_outputs: `inputs` become the placeholders, in order; every
// joint node computable from them is copied, in joint order (the others are invalid); the
// outputs are `outputs` (null: None), and what they do not need is removed.
// `input_mutations`: whether the copy_ writes into the primals (the joint graph's input mutations)
// are taken; they belong to the forward, and a backward that took them would apply them again.
std::unique_ptr<ir::GraphModule> extract(const ir::GraphModule& joint_module, const std::vector<const ir::Node*>& inputs,
                                         const std::vector<const ir::Node*>& outputs,
                                         std::vector<std::optional<std::string>> output_descriptors, bool input_mutations = true) {
  const ir::Graph& joint = joint_module.graph;
  auto module = std::make_unique<ir::GraphModule>("GraphModule");
  ir::Graph& graph = module->graph;
  graph.codegen.expandedSignature = true;
  std::unordered_map<const ir::Node*, ir::Node*> env;  // null: not computable here
  for (const ir::Node* input : inputs) {
    ir::Node* copy = graph.createNode(ir::OpCode::Placeholder, input->name(), {}, {}, input->name());
    copy->meta = input->meta;
    env[input] = copy;
  }
  auto mapped = [&](ir::Node* n) { return env.at(n); };
  for (const ir::Node* node : joint.nodes()) {
    if (env.count(node) || node->op() == ir::OpCode::Output) continue;
    bool valid = node->op() != ir::OpCode::Placeholder && (input_mutations || !is_input_mutation(*node));
    for (const ir::Node* input : node->inputNodes()) valid = valid && env.at(input) != nullptr;
    if (!valid) {
      env[node] = nullptr;
      continue;
    }
    std::vector<ir::Argument> args;
    for (const ir::Argument& a : node->args()) args.push_back(a.mapNodes(mapped));
    std::vector<ir::KeywordArgument> kwargs;
    for (const ir::KeywordArgument& kw : node->kwargs()) kwargs.push_back({kw.name, kw.value.mapNodes(mapped)});
    ir::Node* copy = graph.createNode(node->op(), node->target(), std::move(args), std::move(kwargs), node->name());
    copy->meta = node->meta;
    env[node] = copy;
  }
  std::vector<ir::Argument> results;
  for (const ir::Node* n : outputs) {
    if (!n) {
      results.push_back(ir::Argument::none());
      continue;
    }
    ir::Node* copy = env.count(n) ? env.at(n) : nullptr;
    if (!copy) throw std::logic_error("aot: partition: " + n->name() + " is an output but cannot be computed from the inputs");
    results.push_back(ir::Argument::node(copy));
  }
  ir::Node* output = graph.output(ir::Argument::tuple(std::move(results)));
  output->meta.outputDescriptors = std::move(output_descriptors);
  ir::eliminateDeadCode(graph);
  // What the kept get_attr nodes read comes along: a torch.cond's branches, attributes.
  for (const ir::Node* node : graph.nodes()) {
    if (node->op() != ir::OpCode::GetAttr) continue;
    if (const ir::GraphModule* branch = joint_module.submodule(node->target()))
      module->addSubmodule(node->target(), ir::copyGraphModule(*branch));
    else if (auto it = joint_module.attributes.find(node->target()); it != joint_module.attributes.end())
      module->attributes.insert(*it);
  }
  return module;
}

// PyTorch's reordering_to_mimic_autograd_engine: from the first node that reads a tangent on,
// each node comes right after the not yet placed nodes it needs (in graph order), so that
// recomputed forward values are made when the backward first needs them.
void reorder_like_autograd_engine(ir::Graph& graph) {
  const std::vector<ir::Node*> nodes = graph.nodes();
  std::unordered_map<const ir::Node*, size_t> position;
  for (ir::Node* n : nodes) position[n] = position.size();
  const ir::Node* first_backward = nullptr;
  for (ir::Node* n : nodes)
    if (is_tangent(*n))
      for (const ir::Node* user : n->users())
        if (!first_backward || position[user] < position[first_backward]) first_backward = user;
  if (!first_backward) return;

  std::vector<ir::Node*> order;
  NodeSet placed;
  for (ir::Node* n : nodes)
    if (n->op() == ir::OpCode::Placeholder) order.push_back(n), placed.insert(n);
  auto place = [&](ir::Node* node) {
    std::vector<ir::Node*> needed, stack{node};
    NodeSet seen;
    while (!stack.empty()) {
      ir::Node* n = stack.back();
      stack.pop_back();
      if (placed.count(n) || !seen.insert(n).second) continue;
      needed.push_back(n);
      for (ir::Node* input : n->inputNodes()) stack.push_back(input);
    }
    std::sort(needed.begin(), needed.end(), [&](const ir::Node* a, const ir::Node* b) { return position[a] < position[b]; });
    for (ir::Node* n : needed) order.push_back(n), placed.insert(n);
  };
  const size_t start = position[first_backward];
  // In-place copies that read no tangent stay before the backward, as PyTorch keeps them.
  for (size_t i = 0; i < start; ++i)
    if (is_copy(*nodes[i])) place(nodes[i]);
  for (size_t i = start; i < nodes.size(); ++i) place(nodes[i]);
  if (order.size() == nodes.size()) graph.reorder(order);
}

// PyTorch's raise_getitems: each getitem right after the tuple it reads, in their original order.
void raise_getitems(ir::Graph& graph) {
  std::vector<ir::Node*> order = graph.nodes();
  std::vector<ir::Node*> getitems;
  for (ir::Node* n : order)
    if (n->is(ir::BuiltinTarget::Getitem)) getitems.push_back(n);
  for (auto it = getitems.rbegin(); it != getitems.rend(); ++it) {
    ir::Node* getitem = *it;
    const ir::Node* parent = getitem->inputNodes().at(0);
    order.erase(std::find(order.begin(), order.end(), getitem));
    order.insert(std::find(order.begin(), order.end(), parent) + 1, getitem);
  }
  graph.reorder(order);
}

bool is_size(const ir::Node& node) { return std::holds_alternative<ir::SymScalar>(node.meta.value); }

// The symbols a value's sizes and strides mention.
std::vector<std::string> free_symbols(const ir::Node& node) {
  std::vector<std::string> symbols;
  auto add = [&](const ir::SymExpr& e) {
    for (std::string& s : e.freeSymbols()) symbols.push_back(std::move(s));
  };
  if (const auto* t = std::get_if<ir::TensorMeta>(&node.meta.value)) {
    for (const ir::SymExpr& e : t->sizes) add(e);
    for (const ir::SymExpr& e : t->strides) add(e);
  } else if (const auto* s = std::get_if<ir::SymScalar>(&node.meta.value)) {
    add(s->expr);
  }
  std::sort(symbols.begin(), symbols.end());
  symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
  return symbols;
}

// The symbol a size node binds (its value is that plain symbol), if any.
std::optional<std::string> bound_symbol(const ir::Node& node) {
  const auto* s = std::get_if<ir::SymScalar>(&node.meta.value);
  if (!s || s->expr.constant()) return std::nullopt;
  const auto symbols = s->expr.freeSymbols();
  if (symbols.size() != 1 || s->expr != ir::SymExpr::symbol(symbols[0])) return std::nullopt;
  return symbols[0];
}

// The saved sizes as PyTorch orders them: those the backward reads, then the ones binding the
// symbols of the saved tensors' and tangents' sizes that are not bound yet (by symbol name).
std::vector<const ir::Node*> with_symbol_bindings(const ir::Graph& graph, std::vector<const ir::Node*> sizes,
                                                  const std::vector<const ir::Node*>& tensors,
                                                  const std::vector<ir::Node*>& tangents) {
  std::map<std::string, const ir::Node*> bindings;
  for (const ir::Node* n : graph.nodes())
    if (const auto symbol = bound_symbol(*n)) bindings.emplace(*symbol, n);
  std::set<std::string> bound;
  for (const ir::Node* n : sizes)
    if (const auto symbol = bound_symbol(*n)) bound.insert(*symbol);
  std::vector<const ir::Node*> values(tensors.begin(), tensors.end());
  values.insert(values.end(), tangents.begin(), tangents.end());
  for (const ir::Node* value : values) {
    for (const std::string& symbol : free_symbols(*value)) {
      if (bound.count(symbol)) continue;
      bound.insert(symbol);
      if (auto it = bindings.find(symbol); it != bindings.end()) sizes.push_back(it->second);
    }
  }
  return sizes;
}

}  // namespace

std::string plain_output_descriptor(size_t output) { return "PlainAOTOutput(idx=" + std::to_string(output) + ")"; }

std::string gradient_descriptor(std::optional<size_t> input) {
  return input ? "GradAOTOutput(grad_of=PlainAOTInput(idx=" + std::to_string(*input) + "))" : "None";
}

JointParts joint_parts(const TracedGraph& joint) {
  JointParts parts;
  const ir::Graph& graph = joint.module->graph;
  for (ir::Node* node : graph.placeholders()) (is_tangent(*node) ? parts.tangents : parts.primals).push_back(node);
  const auto& results = graph.outputNode()->args().at(0).asSequence()->items;
  for (size_t i = 0; i < results.size(); ++i)
    (i < joint.forward_outputs ? parts.forward_outputs : parts.gradients).push_back(results[i].asNode());
  return parts;
}

NodeSet tangent_dependent(const ir::Graph& graph) {
  NodeSet dependent;
  for (const ir::Node* node : graph.nodes()) {
    if (is_tangent(*node)) dependent.insert(node);
    if (dependent.count(node))
      for (const ir::Node* user : node->users()) dependent.insert(user);
  }
  return dependent;
}

PartitionedGraphs split_joint_graph(const TracedGraph& joint, const std::vector<const ir::Node*>& saved_candidates) {
  const ir::Graph& graph = joint.module->graph;
  const JointParts parts = joint_parts(joint);
  std::unordered_map<const ir::Node*, size_t> position;
  for (const ir::Node* n : graph.nodes()) position[n] = position.size();

  std::vector<const ir::Node*> saved = saved_candidates;
  // A number read from a tensor (Tensor.item(): a SymFloat or unbacked SymInt) is not saved: the
  // tensor is, and the backward reads the number again. Backends then take only the sizes of
  // tensors as symbolic inputs (inductor passes symbols as 64-bit sizes: a SymFloat saved for the
  // backward arrived as the wrong kind of value).
  for (const ir::Node*& n : saved)
    if (is_scalar_read(*n))
      n = n->inputNodes().at(0);
  std::sort(saved.begin(), saved.end(), [&](const ir::Node* a, const ir::Node* b) { return position[a] < position[b]; });
  saved.erase(std::unique(saved.begin(), saved.end()), saved.end());
  // Sizes are saved apart from tensors: last among the forward's outputs, first among the
  // backward's inputs.
  std::vector<const ir::Node*> saved_sizes;
  for (const ir::Node* n : saved)
    if (is_size(*n)) saved_sizes.push_back(n);
  std::erase_if(saved, [](const ir::Node* n) { return is_size(*n); });
  const std::vector<const ir::Node*> gradients(parts.gradients.begin(), parts.gradients.end());
  std::vector<std::optional<std::string>> gradient_descriptors;
  for (size_t i = 0; i < gradients.size(); ++i) gradient_descriptors.push_back(gradient_descriptor(gradients[i] ? std::optional(i) : std::nullopt));
  auto backward_inputs = [&] {
    std::vector<const ir::Node*> inputs = saved_sizes;
    inputs.insert(inputs.end(), saved.begin(), saved.end());
    inputs.insert(inputs.end(), parts.tangents.begin(), parts.tangents.end());
    return inputs;
  };
  // Saved values the backward does not read are not saved.
  {
    const auto probe = extract(*joint.module, backward_inputs(), gradients, gradient_descriptors, /*input_mutations=*/false);
    auto unused = [&](const ir::Node* n) {
      const ir::Node* placeholder = probe->graph.findNode(n->name());
      return !placeholder || placeholder->users().empty();
    };
    std::erase_if(saved, unused);
    std::erase_if(saved_sizes, unused);
  }
  saved_sizes = with_symbol_bindings(graph, saved_sizes, saved, parts.tangents);

  PartitionedGraphs out;
  out.saved = saved.size() + saved_sizes.size();
  out.saved_sizes = saved_sizes.size();
  std::vector<const ir::Node*> forward_results(parts.forward_outputs.begin(), parts.forward_outputs.end());
  std::vector<std::optional<std::string>> forward_descriptors;
  // The forward returns what the joint graph's forward part returns, described as there.
  const auto& joint_descriptors = graph.outputNode()->meta.outputDescriptors;
  for (size_t i = 0; i < forward_results.size(); ++i)
    forward_descriptors.push_back(i < joint_descriptors.size() ? joint_descriptors[i] : plain_output_descriptor(i));
  for (size_t i = 0; i < saved.size() + saved_sizes.size(); ++i)
    forward_descriptors.push_back("SavedForBackwardsAOTOutput(idx=" + std::to_string(i) + ")");
  forward_results.insert(forward_results.end(), saved.begin(), saved.end());
  forward_results.insert(forward_results.end(), saved_sizes.begin(), saved_sizes.end());
  out.forward = extract(*joint.module, std::vector<const ir::Node*>(parts.primals.begin(), parts.primals.end()), forward_results,
                        std::move(forward_descriptors));
  save_mutated_inputs_before_their_writes(out.forward->graph, parts.forward_outputs.size());
  out.backward = extract(*joint.module, backward_inputs(), gradients, std::move(gradient_descriptors), /*input_mutations=*/false);
  reorder_like_autograd_engine(out.backward->graph);
  raise_getitems(out.forward->graph);
  raise_getitems(out.backward->graph);
  return out;
}

}  // namespace kiln::aot
