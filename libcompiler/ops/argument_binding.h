#pragma once
// Binding a Python-style call (positional values and keywords) to an op's schema, with the
// messages of PyTorch's Python argument parser: "mm(): argument 'mat2' (position 2) must be
// Tensor, not int", "add() received an invalid combination of arguments - got (Tensor, str), ...".
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libcompiler/ops/op_table.h"

namespace kiln::ops {

struct KeywordArgument {
  std::string name;
  IValue value;
};

// How None binds to a Tensor argument that is not optional: refused, as torch.* functions refuse
// it, or as an undefined tensor, as an op overload (torch.ops.aten.x.default, and so a graph's
// call of one) takes it: an AOT backward passes None for efficient attention's attn_bias.
enum class NoneForTensor { Refused, Undefined };

// Binds to one schema, converting values as the Python parser does (an int for a float, a single
// int for int[1], a number for a Tensor of ops that accept numbers as tensors). Throws
// TorchError(TypeError) with PyTorch's message.
Arguments bind_arguments(const FunctionSchema& schema, const std::vector<IValue>& positional,
                         const std::vector<KeywordArgument>& keywords, NoneForTensor none = NoneForTensor::Refused);

// The first overload of `name` the call binds to; TypeError when none does (the single
// overload's own error, or the list of signatures when there are several).
std::pair<const OpInfo*, Arguments> resolve_overload(std::string_view name, const std::vector<IValue>& positional,
                                                     const std::vector<KeywordArgument>& keywords);
// The same among `candidates`, the overloads of `name` looked up already (not empty).
std::pair<const OpInfo*, Arguments> resolve_overload(std::string_view name, const std::vector<const OpInfo*>& candidates,
                                                     const std::vector<IValue>& positional,
                                                     const std::vector<KeywordArgument>& keywords);

// "Tensor input, Tensor other, *, Number alpha = 1": the schema as Python signatures print it.
std::string python_signature(const FunctionSchema& schema);

}  // namespace kiln::ops
