#include "libcompiler/tensor/device.h"

#include <charconv>

#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

namespace {
constexpr std::string_view kDeviceTypeNames[] = {
#define KILN_DEVICE_TYPE(Enum, Name) Name,
#include "libcompiler/tensor/device.def"
};
constexpr std::string_view kDispatchKeyNames[] = {
#define KILN_DEVICE_TYPE(Enum, Name) #Enum,
#include "libcompiler/tensor/device.def"
};
}  // namespace

std::string_view dispatch_key_name(DeviceType type) { return kDispatchKeyNames[static_cast<int>(type)]; }

std::string_view device_type_name(DeviceType type) { return kDeviceTypeNames[static_cast<int>(type)]; }

std::optional<Device> Device::try_parse(std::string_view text) {
  const auto colon = text.find(':');
  const std::string_view type_name = text.substr(0, colon);
  for (int i = 0; i < kNumDeviceTypes; ++i) {
    if (kDeviceTypeNames[i] != type_name) continue;
    Device device{static_cast<DeviceType>(i), -1};
    if (colon == std::string_view::npos) return device;
    const std::string_view digits = text.substr(colon + 1);
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), device.index);
    if (error == std::errc() && end == digits.data() + digits.size() && !digits.empty() && device.index >= 0)
      return device;
    return std::nullopt;
  }
  return std::nullopt;
}

Device Device::parse(std::string_view text) {
  if (std::optional<Device> device = try_parse(text)) return *device;
  const std::string_view type_name = text.substr(0, text.find(':'));
  for (std::string_view known : kDeviceTypeNames)
    if (known == type_name) throw_runtime_error("Invalid device string: '" + std::string(text) + "'");
  // The device types PyTorch names (kiln makes tensors on cpu, cuda and meta only).
  static constexpr std::string_view kPyTorchDeviceTypes[] = {
      "cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
      "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone"};
  for (std::string_view pytorch : kPyTorchDeviceTypes)
    if (pytorch == type_name)
      throw_runtime_error("kiln supports the cpu, cuda and meta device types, not '" + std::string(type_name) + "'");
  throw_runtime_error("Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, "
                      "lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: " +
                      std::string(text));
}

std::string Device::str() const {
  std::string text(device_type_name(type));
  if (index >= 0) {
    text += ':';
    text += std::to_string(index);
  }
  return text;
}

std::string Device::repr() const {
  std::string text = "device(type='" + std::string(device_type_name(type)) + "'";
  if (index >= 0) text += ", index=" + std::to_string(index);
  return text + ")";
}

}  // namespace kiln::tensor
