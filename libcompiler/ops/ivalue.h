#pragma once
// IValue: one argument or result of an op as the table sees it (ATen's IValue, restricted to the
// kinds the schemas in ops.def use). The Python interpreter and the graph interpreter box their
// values into IValues; argument binding converts them to the types the schema declares.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "libcompiler/tensor/device.h"
#include "libcompiler/tensor/dtype.h"
#include "libcompiler/tensor/scalar.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::ops {

using tensor::Device;
using tensor::DType;
using tensor::Scalar;
using tensor::Shape;
using tensor::Tensor;

class IValue {
 public:
  using TensorList = std::vector<Tensor>;
  using IntList = std::vector<int64_t>;
  using BoolList = std::vector<bool>;
  using DoubleList = std::vector<double>;

  IValue() = default;  // None
  IValue(bool value) : value_(value) {}                       // NOLINT: implicit, like ATen
  IValue(int value) : value_(static_cast<int64_t>(value)) {}  // NOLINT
  IValue(int64_t value) : value_(value) {}                    // NOLINT
  IValue(double value) : value_(value) {}                     // NOLINT
  IValue(const char* value) : value_(std::string(value)) {}   // NOLINT
  IValue(std::string value) : value_(std::move(value)) {}     // NOLINT
  IValue(Tensor value);                                       // NOLINT: an undefined Tensor is None
  IValue(TensorList value) : value_(std::move(value)) {}      // NOLINT
  IValue(IntList value) : value_(std::move(value)) {}         // NOLINT
  IValue(BoolList value) : value_(std::move(value)) {}        // NOLINT
  IValue(DoubleList value) : value_(std::move(value)) {}      // NOLINT
  IValue(DType value) : value_(value) {}                      // NOLINT
  IValue(Device value) : value_(value) {}                     // NOLINT
  IValue(const Scalar& value);                                // NOLINT: bool, int or float

  bool is_none() const { return std::holds_alternative<std::monostate>(value_); }
  bool is_bool() const { return std::holds_alternative<bool>(value_); }
  bool is_int() const { return std::holds_alternative<int64_t>(value_); }
  bool is_double() const { return std::holds_alternative<double>(value_); }
  bool is_number() const { return is_bool() || is_int() || is_double(); }
  bool is_string() const { return std::holds_alternative<std::string>(value_); }
  bool is_tensor() const { return std::holds_alternative<Tensor>(value_); }
  bool is_tensor_list() const { return std::holds_alternative<TensorList>(value_); }
  bool is_int_list() const { return std::holds_alternative<IntList>(value_); }
  bool is_bool_list() const { return std::holds_alternative<BoolList>(value_); }
  bool is_double_list() const { return std::holds_alternative<DoubleList>(value_); }
  bool is_dtype() const { return std::holds_alternative<DType>(value_); }
  bool is_device() const { return std::holds_alternative<Device>(value_); }

  bool to_bool() const { return std::get<bool>(value_); }
  int64_t to_int() const { return std::get<int64_t>(value_); }
  double to_double() const;  // int and bool widen, as a Python float parameter accepts them
  Scalar to_scalar() const;  // a bool, int or float
  const std::string& to_string() const { return std::get<std::string>(value_); }
  const Tensor& to_tensor() const { return std::get<Tensor>(value_); }
  const TensorList& to_tensor_list() const { return std::get<TensorList>(value_); }
  const IntList& to_int_list() const { return std::get<IntList>(value_); }
  const BoolList& to_bool_list() const { return std::get<BoolList>(value_); }
  const DoubleList& to_double_list() const { return std::get<DoubleList>(value_); }
  DType to_dtype() const { return std::get<DType>(value_); }
  const Device& to_device() const { return std::get<Device>(value_); }

  // The Python type name of the value, as PyTorch's argument errors name it ("int", "Tensor",
  // "str", "NoneType", "list", "torch.dtype").
  std::string python_type_name() const;

 private:
  std::variant<std::monostate, bool, int64_t, double, std::string, Tensor, TensorList, IntList, BoolList,
               DoubleList, DType, Device>
      value_;
};

}  // namespace kiln::ops
