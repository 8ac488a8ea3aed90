#pragma once
// Dynamo's MetaTensorDescriber (torch/_subclasses/meta_utils.py) in the trace: every real tensor a
// compile attempt makes a graph input is described once, as PyTorch describes each tensor it
// fakifies: describe_storage (its storage's bytes), describe_tensor (dtype, device, geometry,
// leaf/requires_grad/parameter flags, its grad's and base's ids, which are described first), then
// describe_source (where the frame read it). Ids count per describer, and describers per process.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "libcompiler/capture/capture_events.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::capture {

class TensorDescriber {
 public:
  explicit TensorDescriber(const CompileIds& ids);
  // A graph input read from `source`; `is_parameter`: an nn.Parameter.
  void describe_input(const tensor::Tensor& real, bool is_parameter, const std::string& source);
  // After a restart: PyTorch traces the frame again under a new fake mode, whose describer
  // describes the inputs again under the new attempt; so does this one (a new describer id).
  void restart();

 private:
  // The tensor's id, described (with what it refers to) on first sight.
  int64_t describe(const tensor::Tensor& t, bool is_parameter);
  int64_t describe_storage(const tensor::Tensor& t);

  struct Input {
    tensor::Tensor real;
    bool is_parameter;
    std::string source;
  };
  const CompileIds& ids_;
  uint64_t id_;
  std::vector<Input> inputs_;  // described so far, in order
  std::unordered_map<const tensor::TensorImpl*, int64_t> tensors_;  // the tensors described, by id
  std::unordered_map<const void*, int64_t> storages_;
};

}  // namespace kiln::capture
