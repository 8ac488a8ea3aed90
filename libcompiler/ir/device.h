#pragma once
// A device as graphs print it: "cpu"/"cuda:0" in annotations, device(type='cuda', index=0) in arguments.
#include <optional>
#include <string>
#include <string_view>

namespace kiln::ir {

struct Device {
  std::string type = "cpu";
  std::optional<int> index;

  // "cpu", "cuda:0".
  std::string str() const;
  // Python's repr of torch.device: device(type='cpu'), device(type='cuda', index=0).
  std::string repr() const;
  // Parses str()'s form; nullopt when it is not one.
  static std::optional<Device> parse(std::string_view text);

  friend bool operator==(const Device&, const Device&) = default;
};

}  // namespace kiln::ir
