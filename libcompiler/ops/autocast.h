#pragma once
// torch.autocast on the CPU: while it is enabled on a thread, a call of an op that autocast.def
// names has its floating tensor inputs cast first (the casts are ops of their own, recorded by
// autograd and by tracers), and the ops the call runs in turn are not cast again (PyTorch
// excludes the Autocast dispatch key below an autocast kernel).
#include <optional>

#include "libcompiler/ops/arguments.h"
#include "libcompiler/ops/op_table.h"

namespace kiln::ops {

struct AutocastState {
  bool enabled = false;
  DType dtype = DType::BFloat16;  // torch.get_autocast_dtype("cpu")
  bool cache_enabled = true;
  bool operator==(const AutocastState& other) const {
    return enabled == other.enabled && dtype == other.dtype && cache_enabled == other.cache_enabled;
  }
};

// This thread's CPU autocast state (torch.is_autocast_enabled("cpu"), ...), and setting it.
const AutocastState& cpu_autocast();
void set_cpu_autocast(const AutocastState& state);
// torch.autocast_increment_nesting / autocast_decrement_nesting: the depth of autocast regions.
int increment_autocast_nesting();
int decrement_autocast_nesting();

namespace detail {
// Autocast is enabled and no autocast-cast op is running: kept up to date by the setters, so that
// every op call pays one thread-local load when autocast is off.
extern thread_local bool autocast_may_cast;
}  // namespace detail
inline bool autocast_may_cast() { return detail::autocast_may_cast; }

// The arguments `op` runs with under autocast now, or nullopt when it runs with its own (autocast
// off, the op not in autocast.def, or a call made inside an autocast-cast op).
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

}  // namespace kiln::ops
