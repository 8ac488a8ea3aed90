#pragma once
// Scalar: a Python number (bool, int or float) as it enters tensor code: fill values, scalar
// operands (wrapped numbers in type promotion), results of .item().
#include <cstdint>
#include <string>

#include "libcompiler/tensor/dtype.h"
#include "libcompiler/tensor/scalar_cast.h"

namespace kiln::tensor {

class Scalar {
 public:
  enum class Kind { Bool, Int, Float };

  Scalar(bool value) : kind_(Kind::Bool), int_(value), float_(0) {}            // NOLINT: implicit
  Scalar(int value) : kind_(Kind::Int), int_(value), float_(0) {}              // NOLINT: implicit
  Scalar(int64_t value) : kind_(Kind::Int), int_(value), float_(0) {}          // NOLINT: implicit
  Scalar(double value) : kind_(Kind::Float), int_(0), float_(value) {}         // NOLINT: implicit

  Kind kind() const { return kind_; }
  bool is_floating() const { return kind_ == Kind::Float; }
  // The dtype this number has as a Python scalar operand: bool, int64 or float64.
  DType dtype() const {
    return kind_ == Kind::Bool ? DType::Bool : kind_ == Kind::Int ? DType::Int64 : DType::Float64;
  }

  // The value converted as a tensor element of type T would be.
  template <typename T>
  T to() const {
    switch (kind_) {
      case Kind::Bool: return cast_scalar<T>(int_ != 0);
      case Kind::Int: return cast_scalar<T>(int_);
      case Kind::Float: return cast_scalar<T>(float_);
    }
    __builtin_unreachable();
  }

  // Python's repr of the number: True, 3, 2.5, 1e-05.
  std::string repr() const;

 private:
  Kind kind_;
  int64_t int_;
  double float_;
};

}  // namespace kiln::tensor
