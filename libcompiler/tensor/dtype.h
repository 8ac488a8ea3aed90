#pragma once
// DType: the element type of a Tensor (dtype.def lists them), its properties and names.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "libcompiler/tensor/half.h"

namespace kiln::tensor {

enum class DType : uint8_t {
#define KILN_DTYPE(Enum, CppType, ItemSize, Name, ShortName, IsFloating, ScalarTypeName) Enum,
#include "libcompiler/tensor/dtype.def"
};

inline constexpr int kNumDTypes = 0
#define KILN_DTYPE(Enum, CppType, ItemSize, Name, ShortName, IsFloating, ScalarTypeName) +1
#include "libcompiler/tensor/dtype.def"
    ;

size_t itemsize(DType dtype);
// "float32"; torch_name gives "torch.float32" as PyTorch prints a dtype.
std::string_view dtype_name(DType dtype);
std::string torch_name(DType dtype);
// "f32", as in FX graph annotations.
std::string_view short_name(DType dtype);
bool is_floating_point(DType dtype);
// float16 and bfloat16, which kernels compute in float32 (ATen's isReducedFloatingType).
bool is_reduced_floating_point(DType dtype);
// ATen's ScalarType name ("Float", "Long"), as PyTorch's error messages spell a dtype.
std::string_view scalar_type_name(DType dtype);
// Integer types; bool counts only when include_bool (PyTorch's isIntegralType(t, includeBool)).
bool is_integral(DType dtype, bool include_bool);
// Accepts "float32" and the aliases PyTorch accepts after "torch." (float, double, half, long, int, ...).
std::optional<DType> dtype_from_name(std::string_view name);

// The DType whose storage type is T.
template <typename T>
constexpr DType dtype_of();
#define KILN_DTYPE(Enum, CppType, ItemSize, Name, ShortName, IsFloating, ScalarTypeName) \
  template <>                                                            \
  constexpr DType dtype_of<CppType>() {                                  \
    return DType::Enum;                                                  \
  }
#include "libcompiler/tensor/dtype.def"

}  // namespace kiln::tensor
