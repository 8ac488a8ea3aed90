#include "libcompiler/ir/device.h"

#include <cctype>

namespace kiln::ir {

std::string Device::str() const { return index ? type + ":" + std::to_string(*index) : type; }

std::string Device::repr() const {
  std::string s = "device(type='" + type + "'";
  if (index) s += ", index=" + std::to_string(*index);
  return s + ")";
}

std::optional<Device> Device::parse(std::string_view text) {
  size_t colon = text.find(':');
  std::string_view type = text.substr(0, colon);
  if (type.empty()) return std::nullopt;
  for (char c : type)
    if (!std::islower(static_cast<unsigned char>(c))) return std::nullopt;
  Device d{std::string(type), std::nullopt};
  if (colon == std::string_view::npos) return d;
  std::string_view digits = text.substr(colon + 1);
  if (digits.empty() || digits.size() > 4) return std::nullopt;
  int index = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    index = index * 10 + (c - '0');
  }
  d.index = index;
  return d;
}

}  // namespace kiln::ir
