#pragma once
// TableNode: the grad_fn of an op whose ops.def row has a formula. It keeps what the formula may
// read (the non-tensor arguments, the tensors named in the row's Saved column, and the shape and
// dtype of every input) and runs the formula on the incoming gradients.
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libcompiler/ops/autograd/node.h"
#include "libcompiler/ops/autograd/saved_variable.h"
#include "libcompiler/ops/op_table.h"

namespace kiln::ops {

// What a backward formula sees.
class BackwardContext {
 public:
  BackwardContext(const OpInfo& op, const Arguments& args);

  const OpInfo& op() const { return *op_; }
  // The forward arguments; tensors not named in Saved are None.
  const Arguments& args() const { return args_; }
  // A saved tensor by argument name ("self") or output name ("result", "result1").
  Tensor saved(std::string_view name) const;
  // Shape, dtype and device of input slot i (see BackwardFunction).
  const Node::OutputMeta& input(size_t slot) const { return inputs_[slot]; }
  size_t num_inputs() const { return inputs_.size(); }
  // Whether slot i has somewhere to send a gradient (its tensor requires grad).
  bool needs_input_grad(size_t slot) const { return needs_grad_[slot]; }

 private:
  friend class TableNode;
  const OpInfo* op_;
  Arguments args_;
  std::vector<std::pair<std::string, SavedVariable>> saved_;
  std::vector<Node::OutputMeta> inputs_;
  std::vector<bool> needs_grad_;
  std::weak_ptr<Node> owner_;
};

class TableNode : public Node {
 public:
  TableNode(const OpInfo& op, const Arguments& args) : context_(op, args) {}

  std::string name() const override { return context_.op().node_name; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grad_outputs) override;
  void release_variables() override;
  bool is_differentiable_output(size_t i) const override;

  // Saves the inputs named in Saved, before the kernel runs (so a write by the op itself to a
  // saved input is caught by the version check); called once the node is owned by a shared_ptr.
  // For an in-place op whose formula reads "self", original_self is a copy of self before the write.
  void save_inputs(const Arguments& args, const Tensor& original_self, const std::vector<Edge>& edges);
  // Saves the outputs named in Saved, after they have their history.
  void save_outputs(const std::vector<Tensor>& outputs);

 private:
  BackwardContext context_;
};

// The input slots of a call: its Tensor and Tensor? arguments in order, Tensor[] elements expanded;
// undefined tensors for None.
std::vector<Tensor> input_slots(const Arguments& args);

}  // namespace kiln::ops
