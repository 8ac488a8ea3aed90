#pragma once
// A backward node whose gradients come from a function rather than a formula of the op table:
// what a compiled forward (AOT autograd's CompiledFunction) attaches to its outputs so that
// .backward() runs the compiled backward graph.
#include <functional>
#include <string>
#include <vector>

#include "libcompiler/ops/autograd/node.h"

namespace kiln::ops {

class FunctionNode : public Node {
 public:
  // Gradients of the outputs in (undefined where none flowed), one gradient per next edge out.
  using Backward = std::function<std::vector<Tensor>(const std::vector<Tensor>& grad_outputs)>;
  FunctionNode(std::string name, Backward backward) : name_(std::move(name)), backward_(std::move(backward)) {}

  std::string name() const override { return name_; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grad_outputs) override;
  // The function holds the saved tensors: dropping it frees them, as a formula node's release does.
  void release_variables() override { backward_ = nullptr; }

 private:
  std::string name_;
  Backward backward_;
};

}  // namespace kiln::ops
