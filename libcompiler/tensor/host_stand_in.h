#pragma once
// Tensors of a device kept on the host while a process must not touch the device: CUDA does not
// survive fork, so the minifier's parent, which forks a child per candidate, must never initialise
// it. While the stand-in is on, a storage asked for on the device type is made in host memory
// (a CPU tensor, computed by CPU kernels), and the device it was asked for is remembered; a child
// ends the stand-in and moves its tensors to that device before it runs them for real.
#include <optional>

#include "libcompiler/tensor/device.h"

namespace kiln::tensor {

// Storages for `type` go to the host until end_host_stand_in(type). Nested calls keep the first.
void begin_host_stand_in(DeviceType type);
// The device's own allocator again (in a forked child: before its first real use of the device).
void end_host_stand_in(DeviceType type);
// The first device a storage was asked for while the stand-in was on ("cuda" is cuda:0): the
// device the host tensors stand for. nullopt when none was asked for.
std::optional<Device> stood_in_for(DeviceType type);

// begin on construction, end on destruction.
class HostStandIn {
 public:
  explicit HostStandIn(DeviceType type) : type_(type) { begin_host_stand_in(type); }
  ~HostStandIn() { end_host_stand_in(type_); }
  HostStandIn(const HostStandIn&) = delete;
  HostStandIn& operator=(const HostStandIn&) = delete;

 private:
  DeviceType type_;
};

}  // namespace kiln::tensor
