#include "libcompiler/ops/arguments.h"

namespace kiln::ops {

std::optional<Scalar> Arguments::optional_scalar(size_t i) const {
  if (values_[i].is_none()) return std::nullopt;
  return values_[i].to_scalar();
}

std::optional<int64_t> Arguments::optional_int(size_t i) const {
  if (values_[i].is_none()) return std::nullopt;
  return values_[i].to_int();
}

std::optional<bool> Arguments::optional_bool(size_t i) const {
  if (values_[i].is_none()) return std::nullopt;
  return values_[i].to_bool();
}

std::optional<std::vector<int64_t>> Arguments::optional_int_list(size_t i) const {
  if (values_[i].is_none()) return std::nullopt;
  return values_[i].to_int_list();
}

std::optional<std::string> Arguments::optional_string(size_t i) const {
  if (values_[i].is_none()) return std::nullopt;
  return values_[i].to_string();
}

std::optional<DType> Arguments::optional_dtype(size_t i) const {
  if (values_[i].is_none()) return std::nullopt;
  return values_[i].to_dtype();
}

std::optional<Device> Arguments::optional_device(size_t i) const {
  if (values_[i].is_none()) return std::nullopt;
  return values_[i].to_device();
}

}  // namespace kiln::ops
