#include "libcompiler/ops/ivalue.h"

namespace kiln::ops {

IValue::IValue(Tensor value) {
  if (value.defined()) value_ = std::move(value);
}

IValue::IValue(const Scalar& value) {
  switch (value.kind()) {
    case Scalar::Kind::Bool: value_ = value.to<bool>(); break;
    case Scalar::Kind::Int: value_ = value.to<int64_t>(); break;
    case Scalar::Kind::Float: value_ = value.to<double>(); break;
  }
}

double IValue::to_double() const {
  if (is_int()) return static_cast<double>(to_int());
  if (is_bool()) return to_bool() ? 1.0 : 0.0;
  return std::get<double>(value_);
}

Scalar IValue::to_scalar() const {
  if (is_bool()) return Scalar(to_bool());
  if (is_int()) return Scalar(to_int());
  return Scalar(std::get<double>(value_));
}

std::string IValue::python_type_name() const {
  if (is_none()) return "NoneType";
  if (is_bool()) return "bool";
  if (is_int()) return "int";
  if (is_double()) return "float";
  if (is_string()) return "str";
  if (is_tensor()) return "Tensor";
  if (is_dtype()) return "torch.dtype";
  if (is_device()) return "torch.device";
  return "list";
}

}  // namespace kiln::ops
