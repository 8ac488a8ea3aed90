#include "libcompiler/tensor/scalar.h"

#include "libcompiler/tensor/python_number_format.h"

namespace kiln::tensor {

std::string Scalar::repr() const {
  switch (kind_) {
    case Kind::Bool: return int_ ? "True" : "False";
    case Kind::Int: return std::to_string(int_);
    case Kind::Float: return python_float_repr(float_);
  }
  __builtin_unreachable();
}

}  // namespace kiln::tensor
