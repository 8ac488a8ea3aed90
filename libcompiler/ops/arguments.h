#pragma once
// Arguments: the values of one op call bound to its schema, one per schema argument in schema
// order (defaults filled in). Kernels, meta functions and decompositions read them by position
// with the accessor for the declared type.
#include <optional>
#include <vector>

#include "libcompiler/ops/ivalue.h"
#include "libcompiler/ops/schema.h"

namespace kiln::ops {

class Arguments {
 public:
  Arguments(const FunctionSchema& schema, std::vector<IValue> values) : schema_(&schema), values_(std::move(values)) {}

  const FunctionSchema& schema() const { return *schema_; }
  size_t size() const { return values_.size(); }
  const IValue& operator[](size_t i) const { return values_[i]; }
  const std::vector<IValue>& values() const { return values_; }

  const Tensor& tensor(size_t i) const { return values_[i].to_tensor(); }
  // Tensor?: undefined when None.
  Tensor optional_tensor(size_t i) const { return values_[i].is_none() ? Tensor() : values_[i].to_tensor(); }
  const std::vector<Tensor>& tensor_list(size_t i) const { return values_[i].to_tensor_list(); }
  Scalar scalar(size_t i) const { return values_[i].to_scalar(); }
  std::optional<Scalar> optional_scalar(size_t i) const;
  int64_t int_value(size_t i) const { return values_[i].to_int(); }
  std::optional<int64_t> optional_int(size_t i) const;
  double float_value(size_t i) const { return values_[i].to_double(); }
  bool bool_value(size_t i) const { return values_[i].to_bool(); }
  std::optional<bool> optional_bool(size_t i) const;
  // int[] / SymInt[]: binding already expanded a single int of an int[N] argument.
  const std::vector<int64_t>& int_list(size_t i) const { return values_[i].to_int_list(); }
  std::optional<std::vector<int64_t>> optional_int_list(size_t i) const;
  std::optional<std::string> optional_string(size_t i) const;
  std::optional<DType> optional_dtype(size_t i) const;
  std::optional<Device> optional_device(size_t i) const;

 private:
  const FunctionSchema* schema_;
  std::vector<IValue> values_;
};

}  // namespace kiln::ops
