#pragma once
// torch.autocast on the CPU and on CUDA: while it is enabled for a device type on a thread, a call
// of an op that autocast.def names for that device has its floating inputs of that device cast
// first (the casts are ops of their own, recorded by autograd and by tracers), and the ops the
// call runs in turn are not cast again (PyTorch excludes the Autocast dispatch key below an
// autocast kernel). Ops the table does not name run as they are; composites among them reach the
// named ops they are made of, which are cast there, as PyTorch's fall through to theirs.
#include <optional>

#include "libcompiler/ops/arguments.h"
#include "libcompiler/ops/op_table.h"

namespace kiln::ops {

struct AutocastState {
  bool enabled = false;
  DType dtype = DType::BFloat16;  // torch.get_autocast_dtype(device_type)
  bool cache_enabled = true;
  bool operator==(const AutocastState& other) const = default;
};

// Both device types' states: what a graph was traced under (guards, the AOT cache key).
struct AutocastStates {
  AutocastState cpu;
  AutocastState cuda{false, DType::Float16, true};
  bool operator==(const AutocastStates& other) const = default;
};

// This thread's autocast states (torch.is_autocast_enabled(device_type), ...), and setting one;
// std::invalid_argument for a device type autocast has no state for.
const AutocastStates& autocast_states();
const AutocastState& autocast_state(tensor::DeviceType device);
void set_autocast_state(tensor::DeviceType device, const AutocastState& state);
// torch.autocast_increment_nesting / autocast_decrement_nesting: the depth of autocast regions.
int increment_autocast_nesting();
int decrement_autocast_nesting();
// torch.clear_autocast_cache: forgets the weights' casts (leaving the outermost region does).
void clear_autocast_cache();

namespace detail {
// Autocast is enabled somewhere and no autocast-cast op is running: kept up to date by the
// setters, so that every op call pays one thread-local load when autocast is off.
extern thread_local bool autocast_may_cast;
}  // namespace detail
inline bool autocast_may_cast() { return detail::autocast_may_cast; }

// The arguments `op` runs with under autocast now, or nullopt when it runs with its own (autocast
// off for its tensors' device, the op not in autocast.def for it, or a call made inside an
// autocast-cast op).
std::optional<Arguments> autocast_arguments(const OpInfo& op, const Arguments& args);

// Marks the calls made while it lives as inside an autocast-cast op.
class AutocastExcluded {
 public:
  AutocastExcluded();
  ~AutocastExcluded();
  AutocastExcluded(const AutocastExcluded&) = delete;
  AutocastExcluded& operator=(const AutocastExcluded&) = delete;

 private:
  bool previous_;
};

// Tracing runs ops on meta tensors that stand for tensors of another device (a CUDA graph's fakes):
// while one of these lives, autocast (and every choice a composite makes by device) takes meta
// tensors for tensors of `device`, as it would take the real ones. Meta tensors stand for CPU ones
// otherwise.
// The device type `t` is taken for: a meta tensor's is the one it stands for.
tensor::DeviceType device_stood_for(const Tensor& t);

class MetaTensorsStandFor {
 public:
  explicit MetaTensorsStandFor(tensor::DeviceType device);
  ~MetaTensorsStandFor();
  MetaTensorsStandFor(const MetaTensorsStandFor&) = delete;
  MetaTensorsStandFor& operator=(const MetaTensorsStandFor&) = delete;

 private:
  tensor::DeviceType previous_;
};

}  // namespace kiln::ops
