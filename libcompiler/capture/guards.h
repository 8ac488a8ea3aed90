#pragma once
// The guards of one compiled entry (Dynamo's guard manager): what must still hold of a frame's
// inputs for the entry to run. A cache hit checks them all; a miss reports the first that failed
// in Dynamo's words ("tensor 'x' size mismatch at index 0. expected 3, actual 4", "c == 1.5").
#include <set>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/capture/graph_break.h"
#include "libcompiler/capture/source.h"
#include "libcompiler/ir/sym_size_traits.h"
#include "libcompiler/ops/autocast.h"
#include "libcompiler/tensor/device.h"
#include "libcompiler/tensor/dtype.h"

namespace kiln::capture {

enum class GuardKind {
  TensorMatch,     // dtype, device, requires_grad, sizes and strides (None where dynamic)
  EqualsMatch,     // a constant: int, float, bool, str, None
  IdMatch,         // the same object
  TypeMatch,       // an object of the same type
  LengthCheck,     // a list or tuple of that length
  DictKeys,        // a dict with those keys, in that order
  SizeLowerBound,  // 2 <= source.size()[dim] (dynamic sizes are never 0 or 1)
  SizeValue,       // source.size()[dim] == length: a dynamic size that Python code read
  SizeEquality,    // source.size()[dim] == other.size()[other_dim] (duck sizing)
  StrideEquality,  // source.stride()[dim] == other.size()[other_dim] (contiguous dynamic tensors)
  GlobalState,     // torch.is_grad_enabled() and the autocast state as when compiled (___check_global_state)
  DuplicateInput,  // source is other: one tensor reached two ways is one graph input
  ShapeRelation,   // a comparison of dynamic sizes decided when captured (s0 < s1, Ne(s0, 2*s1))
};

// Where a size symbol's value comes from: source.size()[dim].
struct SymbolSource {
  std::string symbol;
  SourceRef source;
  int64_t dim;
};

struct Guard {
  Guard(GuardKind kind, SourceRef source, python::Ref expected = nullptr)
      : kind(kind), source(std::move(source)), expected(std::move(expected)) {}
  GuardKind kind;
  SourceRef source;
  python::Ref expected;  // EqualsMatch, IdMatch, TypeMatch (the type)
  // TensorMatch
  tensor::DType dtype = tensor::DType::Float32;
  tensor::Device device;
  bool requires_grad = false;
  bool parameter = false;  // an nn.Parameter: check_tensor names its class
  std::vector<std::optional<int64_t>> sizes, strides;
  // LengthCheck / DictKeys
  int64_t length = 0;  // LengthCheck; SizeValue: the size
  std::vector<python::Ref> keys;
  // Size guards; DuplicateInput (other)
  int64_t dim = 0;
  SourceRef other;
  int64_t other_dim = 0;
  // GlobalState
  bool grad_mode = true;
  ops::AutocastStates autocast;
  // ShapeRelation: the comparison, and the sizes its symbols stand for.
  std::optional<ir::ShapeDecision> relation;
  std::vector<SymbolSource> relation_symbols;
  std::string value_type;  // the guarded value's class ("torch.Tensor", "float"), for printing
  // The user code that needed it: "return x + 1  # home/user/x.py:5 in fn" (empty for the
  // framework's own guards).
  std::string user_code;
  // The user frame shown with a failure of a guard on a Python value ("User stack trace:").
  std::optional<UserFrame> user_frame;

  // The guard as Dynamo prints it: "L['c'] == 1.5", "check_tensor(L['x'], Tensor, ...)".
  std::string code() const;
};

class GuardSet {
 public:
  void add(Guard guard);
  const std::vector<Guard>& guards() const { return guards_; }
  size_t size() const { return guards_.size(); }
  void truncate(size_t size) { guards_.erase(guards_.begin() + static_cast<long>(size), guards_.end()); }
  // Gives the guards from index `from` on the user code they are for.
  void attribute(size_t from, const std::string& user_code, const UserFrame& frame);
  // Whether a guard on `source` of this kind is already there.
  bool has(GuardKind kind, const std::string& source_text) const;

  // nullopt when every guard holds; otherwise why the first failing one failed (and, when asked,
  // which guard it was).
  // With `only_sources`, the guards on other sources (and those on none) are assumed to hold, but
  // for tensors' guards: Dynamo's skip_guard_eval_unsafe evaluates those always (of parameters'
  // too, here).
  std::optional<std::string> check(python::Interpreter& interp, const FrameInputs& inputs, const Guard** failed = nullptr,
                                   const std::set<std::string>* only_sources = nullptr) const;

 private:
  std::vector<Guard> guards_;
};

// Guards on a value code depends on: constants by value, containers by length and keys (and
// their items), other objects by identity. Tensors are guarded where they become graph inputs.
void guard_value(GuardSet& guards, const SourceRef& source, const python::Ref& value, int depth = 0);

// Whether two dict keys are the same key: a tensor key (an optimizer's state is keyed by
// parameter) by identity, as its hash is; other keys by ==.
bool same_dict_key(python::Interpreter& interp, const python::Ref& a, const python::Ref& b);

// Dynamo's "<code><padding>  # <user code>" line of a guard (code left-justified to 60 columns).
std::string guard_line(const Guard& guard);

}  // namespace kiln::capture
