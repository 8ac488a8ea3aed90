#include "libcompiler/ops/autograd/engine.h"

#include <functional>
#include <utility>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/autograd/sum_to.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/tensor_printer.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

namespace {

thread_local const Node* current_node = nullptr;

// Sets the running node for a scope.
class RunningNode {
 public:
  explicit RunningNode(const Node* node) : previous_(std::exchange(current_node, node)) {}
  ~RunningNode() { current_node = previous_; }
  RunningNode(const RunningNode&) = delete;
  RunningNode& operator=(const RunningNode&) = delete;

 private:
  const Node* previous_;
};

// A gradient the caller of grad() wants: the one flowing into input `input_nr` of `node`.
struct Capture {
  Node* node;
  uint32_t input_nr;
};

struct LaterFirst {
  bool operator()(const Node* a, const Node* b) const { return a->sequence_nr() < b->sequence_nr(); }
};

// The gradient `grad` of output i, made to fit the metadata the receiving node recorded.
Tensor validated(const Tensor& grad, const Node& producer, size_t index, const Node::OutputMeta& expected) {
  Tensor fitted = grad;
  if (fitted.sizes() != expected.sizes) {
    if (!is_expandable_to(expected.sizes, fitted.sizes()))
      tensor::throw_runtime_error("Function " + producer.name() + " returned an invalid gradient at index " +
                                  std::to_string(index) + " - got " + tensor::shape_str(fitted.sizes()) +
                                  " but expected shape compatible with " + tensor::shape_str(expected.sizes));
    fitted = sum_to(fitted, expected.sizes);
  }
  if (fitted.dtype() != expected.dtype) fitted = ops::to_dtype(fitted, expected.dtype);
  return fitted;
}

void accumulate(Tensor& slot, const Tensor& grad) {
  if (!grad.defined()) return;
  slot = slot.defined() ? add(slot, grad) : grad;
}

std::vector<Tensor> run_graph(const std::vector<Tensor>& roots, const std::vector<Tensor>& root_grads,
                              bool retain_graph, bool create_graph, const std::vector<Capture>& captures) {
  std::vector<Edge> root_edges;
  for (size_t i = 0; i < roots.size(); ++i) {
    Edge edge = gradient_edge(roots[i]);
    if (!edge.valid())
      tensor::throw_runtime_error("element " + std::to_string(i) +
                                  " of tensors does not require grad and does not have a grad_fn");
    root_edges.push_back(std::move(edge));
  }

  // How many gradients each node waits for, and whether it leads to a captured input.
  std::unordered_map<Node*, int> dependencies;
  std::unordered_set<Node*> seen;
  std::vector<Node*> stack;
  for (const Edge& e : root_edges)
    if (seen.insert(e.function.get()).second) stack.push_back(e.function.get());
  std::vector<Node*> visit_order;
  while (!stack.empty()) {
    Node* node = stack.back();
    stack.pop_back();
    visit_order.push_back(node);
    for (const Edge& next : node->next_edges()) {
      if (!next.valid()) continue;
      ++dependencies[next.function.get()];
      if (seen.insert(next.function.get()).second) stack.push_back(next.function.get());
    }
  }
  const bool capturing = !captures.empty();
  std::unordered_set<Node*> needed;
  if (capturing) {
    std::unordered_set<Node*> targets;
    for (const Capture& c : captures) targets.insert(c.node);
    // Fixed point over the reversed discovery order: a node is needed if it leads to a target.
    bool changed = true;
    while (changed) {
      changed = false;
      for (auto it = visit_order.rbegin(); it != visit_order.rend(); ++it) {
        Node* node = *it;
        if (needed.count(node)) continue;
        bool leads = targets.count(node) > 0;
        for (const Edge& next : node->next_edges()) leads = leads || (next.valid() && needed.count(next.function.get()));
        if (leads) changed = needed.insert(node).second || changed;
      }
    }
  }

  std::unordered_map<Node*, std::vector<Tensor>> buffers;
  for (size_t i = 0; i < root_edges.size(); ++i) {
    auto& buffer = buffers[root_edges[i].function.get()];
    buffer.resize(root_edges[i].function->output_meta().size());
    accumulate(buffer[root_edges[i].input_nr], root_grads[i]);
  }
  std::priority_queue<Node*, std::vector<Node*>, LaterFirst> ready;
  std::unordered_set<Node*> queued;
  for (const Edge& e : root_edges)
    if (dependencies[e.function.get()] == 0 && queued.insert(e.function.get()).second) ready.push(e.function.get());

  std::vector<Tensor> captured(captures.size());
  GradModeGuard grad_mode(create_graph);
  while (!ready.empty()) {
    Node* node = ready.top();
    ready.pop();
    std::vector<Tensor> inputs = std::move(buffers[node]);
    buffers.erase(node);
    inputs.resize(node->output_meta().size());
    // Tensor hooks first: what is captured or retained is the hooked gradient.
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].defined()) inputs[i] = node->run_output_hooks(static_cast<uint32_t>(i), std::move(inputs[i]));
    for (size_t c = 0; c < captures.size(); ++c)
      if (captures[c].node == node) captured[c] = inputs[captures[c].input_nr];
    const auto& retained = node->retained_outputs();
    for (size_t i = 0; i < retained.size() && i < inputs.size(); ++i) {
      if (auto meta = retained[i].lock(); meta && inputs[i].defined())
        meta->grad = meta->grad.defined() ? add(meta->grad, inputs[i]) : clone(inputs[i]);
    }
    if (capturing && (!needed.count(node) || dynamic_cast<AccumulateGrad*>(node))) continue;

    RunningNode running(node);
    bool any_defined = false;
    for (const Tensor& g : inputs) any_defined = any_defined || g.defined();
    std::vector<Tensor> outputs;
    if (any_defined) {
      for (size_t i = 0; i < inputs.size(); ++i) {
        const auto& meta = node->output_meta()[i];
        if (!inputs[i].defined() && tensor::is_floating_point(meta.dtype) && node->is_differentiable_output(i))
          inputs[i] = ops::zeros(meta.sizes, meta.dtype);
      }
      outputs = node->apply(std::move(inputs));
    }
    if (!retain_graph) node->release_variables();
    const auto& edges = node->next_edges();
    outputs.resize(edges.size());
    for (size_t i = 0; i < edges.size(); ++i) {
      const Edge& next = edges[i];
      if (!next.valid()) continue;
      Node* child = next.function.get();
      if (outputs[i].defined()) {
        auto& buffer = buffers[child];
        buffer.resize(child->output_meta().size());
        accumulate(buffer[next.input_nr], validated(outputs[i], *node, i, child->output_meta()[next.input_nr]));
      }
      if (--dependencies[child] == 0 && (!capturing || needed.count(child)) && queued.insert(child).second)
        ready.push(child);
    }
  }
  return captured;
}

std::vector<Tensor> root_gradients(const std::vector<Tensor>& outputs, const std::vector<Tensor>& grads) {
  if (!grads.empty() && grads.size() != outputs.size())
    tensor::throw_runtime_error("grad_tensors should have the same length as tensors (" +
                                std::to_string(grads.size()) + " vs " + std::to_string(outputs.size()) + ")");
  std::vector<Tensor> result;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor given = grads.empty() ? Tensor() : grads[i];
    if (given.defined()) {
      if (given.sizes() != outputs[i].sizes())
        tensor::throw_runtime_error("Mismatch in shape: grad_output[" + std::to_string(i) + "] has a shape of " +
                                    tensor::size_repr(given.sizes()) + " and output[" + std::to_string(i) +
                                    "] has a shape of " + tensor::size_repr(outputs[i].sizes()) + ".");
      result.push_back(given);
      continue;
    }
    if (outputs[i].requires_grad() && outputs[i].numel() != 1)
      tensor::throw_runtime_error("grad can be implicitly created only for scalar outputs");
    result.push_back(outputs[i].requires_grad() ? ones_like(outputs[i]) : Tensor());
  }
  return result;
}

}  // namespace

const Node* running_node() { return current_node; }

void backward(const std::vector<Tensor>& tensors, const std::vector<Tensor>& grad_tensors, bool retain_graph,
              bool create_graph) {
  const std::vector<Tensor> grads = root_gradients(tensors, grad_tensors);
  run_graph(tensors, grads, retain_graph || create_graph, create_graph, {});
}

std::vector<Tensor> grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                         const std::vector<Tensor>& grad_outputs, bool retain_graph, bool create_graph,
                         bool allow_unused) {
  std::vector<Capture> captures;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Edge edge = gradient_edge(inputs[i]);
    if (!edge.valid())
      tensor::throw_runtime_error("One of the differentiated Tensors does not require grad");
    captures.push_back(Capture{edge.function.get(), edge.input_nr});
  }
  const std::vector<Tensor> grads = root_gradients(outputs, grad_outputs);
  std::vector<Tensor> result = run_graph(outputs, grads, retain_graph || create_graph, create_graph, captures);
  for (const Tensor& g : result)
    if (!g.defined() && !allow_unused)
      tensor::throw_runtime_error(
          "One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True if "
          "this is the desired behavior.");
  return result;
}

}  // namespace kiln::ops
