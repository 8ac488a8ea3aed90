#include "libcompiler/ops/autocast.h"

#include <array>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/view_history.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

namespace {

enum class AutocastPolicy : uint8_t { None, LowerPrecision, Float32, Promote, Float32Result };

constexpr size_t kNumOps = 0
#define KILN_OP(Id, Schema, Meta, Kernel, Grad, Node, Backward, Saved, Decomposition, DifferentiableOutputs) +1
#include "libcompiler/ops/ops.def"
    ;

struct Policies {
  AutocastPolicy cpu = AutocastPolicy::None;
  AutocastPolicy cuda = AutocastPolicy::None;
};

const std::array<Policies, kNumOps>& policies() {
  static const std::array<Policies, kNumOps> table = [] {
    std::array<Policies, kNumOps> t{};
#define KILN_AUTOCAST(Op, CpuPolicy, CudaPolicy) \
  t[static_cast<size_t>(OpId::Op)] = {AutocastPolicy::CpuPolicy, AutocastPolicy::CudaPolicy};
#include "libcompiler/ops/autocast.def"
    return t;
  }();
  return table;
}

thread_local AutocastStates states;
thread_local int nesting = 0;
thread_local bool excluded = false;
thread_local tensor::DeviceType meta_stands_for = tensor::DeviceType::CPU;

AutocastState& state_of(tensor::DeviceType device) {
  switch (device) {
    case tensor::DeviceType::CPU: return states.cpu;
    case tensor::DeviceType::CUDA: return states.cuda;
    default: throw std::invalid_argument("autocast has no state for device type " + std::string(tensor::device_type_name(device)));
  }
}

void update_may_cast() { detail::autocast_may_cast = (states.cpu.enabled || states.cuda.enabled) && !excluded; }


// PyTorch's is_eligible: a defined floating tensor of the autocast's device that is not float64.
bool eligible(const Tensor& t, tensor::DeviceType device) {
  return t.defined() && device_stood_for(t) == device && tensor::is_floating_point(t.dtype()) && t.dtype() != DType::Float64;
}

template <typename Visit>
void for_each_tensor(const Arguments& args, Visit visit) {
  for (const IValue& value : args.values()) {
    if (value.is_tensor()) visit(value.to_tensor());
    if (value.is_tensor_list())
      for (const Tensor& t : value.to_tensor_list()) visit(t);
  }
}

// Which device's autocast an op call meets, as the dispatcher picks the Autocast key of the
// highest backend among its tensors' (CUDA before CPU), skipping a device whose autocast is off.
std::optional<tensor::DeviceType> autocast_device_of(const Arguments& args) {
  bool cpu = false, cuda = false;
  for_each_tensor(args, [&](const Tensor& t) {
    if (!t.defined()) return;
    cpu = cpu || device_stood_for(t) == tensor::DeviceType::CPU;
    cuda = cuda || device_stood_for(t) == tensor::DeviceType::CUDA;
  });
  if (cuda && states.cuda.enabled) return tensor::DeviceType::CUDA;
  if (cpu && states.cpu.enabled) return tensor::DeviceType::CPU;
  return std::nullopt;
}

// PyTorch's promote_type over its prioritize: float32 once any eligible input is float32, the
// autocast dtype while all are of it, and an error for another reduced type (a float16 input under
// bfloat16 autocast) met before a float32 one.
DType promoted(const Arguments& args, tensor::DeviceType device) {
  const DType lower = autocast_state(device).dtype;
  DType type = lower;
  for_each_tensor(args, [&](const Tensor& t) {
    if (!eligible(t, device)) return;
    if (type == DType::Float32 || t.dtype() == DType::Float32) {
      type = DType::Float32;
    } else if (type != lower || t.dtype() != lower) {
      tensor::throw_runtime_error("Unexpected floating ScalarType in at::autocast::prioritize");
    }
  });
  return type;
}

// PyTorch's autocast cache: a float32 leaf that requires grad (a weight) cast to the lower
// precision once per outermost autocast region, so that a weight used twice (tied embeddings, an
// RNN's steps) is one cast in autograd's graph and its gradients meet in the lower precision
// before the cast's backward, as PyTorch's do. Holds the weight too, so that its address is not
// reused while the entry lives.
thread_local std::unordered_map<const tensor::TensorImpl*, std::pair<Tensor, Tensor>> cast_cache;

Tensor cast(const Tensor& t, DType dtype, tensor::DeviceType device) {
  if (!eligible(t, device) || t.dtype() == dtype) return t;
  const bool cacheable = dtype == autocast_state(device).dtype && autocast_state(device).cache_enabled &&
                         t.dtype() == DType::Float32 && t.requires_grad() && is_leaf(t) && !is_differentiable_view(t);
  if (!cacheable) return to_dtype(t, dtype);
  auto [entry, fresh] = cast_cache.try_emplace(t.impl());
  if (fresh) entry->second = {t, to_dtype(t, dtype)};
  return entry->second.second;
}

// fp32_set_opt_dtype: dtype=float32 where the call left it None and its first argument is eligible.
std::optional<Arguments> with_float32_result(const Arguments& args, tensor::DeviceType device) {
  const std::optional<size_t> dtype = args.schema().argument_index("dtype");
  if (!dtype || !args[*dtype].is_none() || !args[0].is_tensor() || !eligible(args.tensor(0), device)) return std::nullopt;
  std::vector<IValue> values = args.values();
  values[*dtype] = IValue(DType::Float32);
  return Arguments(args.schema(), std::move(values));
}

}  // namespace

namespace detail {
thread_local bool autocast_may_cast = false;
}  // namespace detail

const AutocastStates& autocast_states() { return states; }

const AutocastState& autocast_state(tensor::DeviceType device) { return state_of(device); }

void set_autocast_state(tensor::DeviceType device, const AutocastState& next) {
  state_of(device) = next;
  update_may_cast();
}

int increment_autocast_nesting() { return ++nesting; }
int decrement_autocast_nesting() { return --nesting; }
void clear_autocast_cache() { cast_cache.clear(); }

AutocastExcluded::AutocastExcluded() : previous_(std::exchange(excluded, true)) { update_may_cast(); }
AutocastExcluded::~AutocastExcluded() {
  excluded = previous_;
  update_may_cast();
}

tensor::DeviceType device_stood_for(const Tensor& t) {
  const tensor::DeviceType device = t.device().type;
  return device == tensor::DeviceType::Meta ? meta_stands_for : device;
}

MetaTensorsStandFor::MetaTensorsStandFor(tensor::DeviceType device) : previous_(std::exchange(meta_stands_for, device)) {}
MetaTensorsStandFor::~MetaTensorsStandFor() { meta_stands_for = previous_; }

std::optional<Arguments> autocast_arguments(const OpInfo& op, const Arguments& args) {
  if (!autocast_may_cast()) return std::nullopt;
  const Policies& row = policies()[static_cast<size_t>(op.id)];
  if (row.cpu == AutocastPolicy::None && row.cuda == AutocastPolicy::None) return std::nullopt;
  const std::optional<tensor::DeviceType> device = autocast_device_of(args);
  if (!device) return std::nullopt;
  const AutocastPolicy policy = *device == tensor::DeviceType::CUDA ? row.cuda : row.cpu;
  if (policy == AutocastPolicy::None) return std::nullopt;
  if (policy == AutocastPolicy::Float32Result) return with_float32_result(args, *device);
  const DType target = policy == AutocastPolicy::LowerPrecision ? autocast_state(*device).dtype
                       : policy == AutocastPolicy::Float32      ? DType::Float32
                                                                : promoted(args, *device);
  AutocastExcluded casts_are_not_cast;
  std::vector<IValue> values;
  for (const IValue& value : args.values()) {
    if (value.is_tensor()) {
      values.emplace_back(cast(value.to_tensor(), target, *device));
    } else if (value.is_tensor_list()) {
      std::vector<Tensor> list;
      for (const Tensor& t : value.to_tensor_list()) list.push_back(cast(t, target, *device));
      values.emplace_back(std::move(list));
    } else {
      values.push_back(value);
    }
  }
  return Arguments(args.schema(), std::move(values));
}

}  // namespace kiln::ops
