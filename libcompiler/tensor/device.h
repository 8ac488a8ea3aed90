#pragma once
// Device: where a tensor's storage lives (torch.device). cpu has no index; cuda:N does.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kiln::tensor {

enum class DeviceType : uint8_t {
#define KILN_DEVICE_TYPE(Enum, Name) Enum,
#include "libcompiler/tensor/device.def"
};

inline constexpr int kNumDeviceTypes = 0
#define KILN_DEVICE_TYPE(Enum, Name) +1
#include "libcompiler/tensor/device.def"
    ;

std::string_view device_type_name(DeviceType type);
// The name of the device type's dispatch key, as PyTorch's dispatcher messages print it ("CUDA").
std::string_view dispatch_key_name(DeviceType type);

struct Device {
  DeviceType type = DeviceType::CPU;
  int index = -1;  // -1: the current device of that type (PyTorch's "cuda" without ":N")

  // "cpu", "cuda", "cuda:1", "meta"; throws TorchError(RuntimeError) on anything else, with
  // PyTorch's message.
  static Device parse(std::string_view text);
  // The same, nullopt instead of the error.
  static std::optional<Device> try_parse(std::string_view text);
  // As str(torch.device): "cpu", "cuda:0".
  std::string str() const;
  // As repr(torch.device): device(type='cpu'), device(type='cuda', index=0).
  std::string repr() const;

  friend bool operator==(const Device&, const Device&) = default;
};

inline const Device kCPU{DeviceType::CPU, -1};

}  // namespace kiln::tensor
