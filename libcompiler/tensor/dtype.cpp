#include "libcompiler/tensor/dtype.h"

#include <string>

namespace kiln::tensor {

namespace {

struct DTypeInfo {
  size_t itemsize;
  std::string_view name;
  std::string_view short_name;
  bool is_floating;
  std::string_view scalar_type_name;
};

constexpr DTypeInfo kInfo[] = {
#define KILN_DTYPE(Enum, CppType, ItemSize, Name, ShortName, IsFloating, ScalarTypeName) {ItemSize, Name, ShortName, IsFloating, ScalarTypeName},
#include "libcompiler/tensor/dtype.def"
};

const DTypeInfo& info(DType dtype) { return kInfo[static_cast<int>(dtype)]; }

}  // namespace

size_t itemsize(DType dtype) { return info(dtype).itemsize; }
std::string_view dtype_name(DType dtype) { return info(dtype).name; }
std::string torch_name(DType dtype) { return "torch." + std::string(info(dtype).name); }
std::string_view short_name(DType dtype) { return info(dtype).short_name; }
bool is_floating_point(DType dtype) { return info(dtype).is_floating; }
bool is_reduced_floating_point(DType dtype) { return dtype == DType::Float16 || dtype == DType::BFloat16; }
std::string_view scalar_type_name(DType dtype) { return info(dtype).scalar_type_name; }

bool is_integral(DType dtype, bool include_bool) {
  if (dtype == DType::Bool) return include_bool;
  return !is_floating_point(dtype);
}

std::optional<DType> dtype_from_name(std::string_view name) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (kInfo[i].name == name) return static_cast<DType>(i);
  struct Alias {
    std::string_view alias;
    DType dtype;
  };
  static constexpr Alias kAliases[] = {
      {"float", DType::Float32}, {"double", DType::Float64}, {"half", DType::Float16},
      {"long", DType::Int64},    {"int", DType::Int32},      {"short", DType::Int16},
  };
  for (const auto& alias : kAliases)
    if (alias.alias == name) return alias.dtype;
  return std::nullopt;
}

}  // namespace kiln::tensor
