#include "libcompiler/ops/autocast.h"

#include <array>
#include <utility>

#include "libcompiler/ops/ops.h"

namespace kiln::ops {

namespace {

enum class AutocastPolicy : uint8_t { None, LowerPrecision, Float32, Promote };

constexpr size_t kNumOps = 0
#define KILN_OP(Id, Schema, Meta, Kernel, Grad, Node, Backward, Saved, Decomposition, DifferentiableOutputs) +1
#include "libcompiler/ops/ops.def"
    ;

const std::array<AutocastPolicy, kNumOps>& policies() {
  static const std::array<AutocastPolicy, kNumOps> table = [] {
    std::array<AutocastPolicy, kNumOps> t{};
#define KILN_AUTOCAST(Op, Policy) t[static_cast<size_t>(OpId::Op)] = AutocastPolicy::Policy;
#include "libcompiler/ops/autocast.def"
    return t;
  }();
  return table;
}

thread_local AutocastState state;
thread_local int nesting = 0;
thread_local bool excluded = false;

void update_may_cast() { detail::autocast_may_cast = state.enabled && !excluded; }

// PyTorch's is_eligible: a defined floating CPU tensor that is not float64. Tracing fakes are
// meta tensors standing for CPU ones (kiln has no other device to autocast yet).
bool eligible(const Tensor& t) {
  if (!t.defined()) return false;
  const tensor::DeviceType device = t.device().type;
  return (device == tensor::DeviceType::CPU || device == tensor::DeviceType::Meta) &&
         tensor::is_floating_point(t.dtype()) && t.dtype() != DType::Float64;
}

// PyTorch's promote_type: float32 if any eligible input is float32, else the autocast dtype.
DType promoted(const Arguments& args) {
  for (const IValue& value : args.values()) {
    if (value.is_tensor() && eligible(value.to_tensor()) && value.to_tensor().dtype() == DType::Float32)
      return DType::Float32;
    if (value.is_tensor_list())
      for (const Tensor& t : value.to_tensor_list())
        if (eligible(t) && t.dtype() == DType::Float32) return DType::Float32;
  }
  return state.dtype;
}

Tensor cast(const Tensor& t, DType dtype) { return eligible(t) && t.dtype() != dtype ? to_dtype(t, dtype) : t; }

}  // namespace

namespace detail {
thread_local bool autocast_may_cast = false;
}  // namespace detail

const AutocastState& cpu_autocast() { return state; }
void set_cpu_autocast(const AutocastState& next) {
  state = next;
  update_may_cast();
}
int increment_autocast_nesting() { return ++nesting; }
int decrement_autocast_nesting() { return --nesting; }

AutocastExcluded::AutocastExcluded() : previous_(std::exchange(excluded, true)) { update_may_cast(); }
AutocastExcluded::~AutocastExcluded() {
  excluded = previous_;
  update_may_cast();
}

std::optional<Arguments> autocast_arguments(const OpInfo& op, const Arguments& args) {
  if (!autocast_may_cast()) return std::nullopt;
  const AutocastPolicy policy = policies()[static_cast<size_t>(op.id)];
  if (policy == AutocastPolicy::None) return std::nullopt;
  const DType target = policy == AutocastPolicy::LowerPrecision ? state.dtype
                       : policy == AutocastPolicy::Float32      ? DType::Float32
                                                                : promoted(args);
  AutocastExcluded casts_are_not_cast;
  std::vector<IValue> values;
  for (const IValue& value : args.values()) {
    if (value.is_tensor()) {
      values.emplace_back(cast(value.to_tensor(), target));
    } else if (value.is_tensor_list()) {
      std::vector<Tensor> list;
      for (const Tensor& t : value.to_tensor_list()) list.push_back(cast(t, target));
      values.emplace_back(std::move(list));
    } else {
      values.push_back(value);
    }
  }
  return Arguments(args.schema(), std::move(values));
}

}  // namespace kiln::ops
