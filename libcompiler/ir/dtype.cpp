#include "libcompiler/ir/dtype.h"

namespace kiln::ir {

namespace {
struct DtypeNames {
  Dtype dtype;
  std::string_view shortName;
  std::string_view torchName;
  bool isFloating;
};
constexpr DtypeNames kDtypes[] = {
#define KILN_DTYPE(Enum, CppType, ItemSize, Name, ShortName, IsFloating, ScalarTypeName) {Dtype::Enum, ShortName, Name, IsFloating},
#define KILN_DTYPE_WITHOUT_STORAGE(Enum, Name, ShortName) {Dtype::Enum, ShortName, Name, false},
#include "libcompiler/tensor/dtype.def"
};
}  // namespace

std::string_view dtypeShortName(Dtype dtype) { return kDtypes[static_cast<int>(dtype)].shortName; }
std::string_view dtypeTorchName(Dtype dtype) { return kDtypes[static_cast<int>(dtype)].torchName; }

std::optional<Dtype> dtypeFromShortName(std::string_view shortName) {
  for (const auto& d : kDtypes)
    if (d.shortName == shortName) return d.dtype;
  return std::nullopt;
}

std::optional<Dtype> dtypeFromTorchName(std::string_view torchName) {
  for (const auto& d : kDtypes)
    if (d.torchName == torchName) return d.dtype;
  return std::nullopt;
}

bool isFloatingPoint(Dtype dtype) { return kDtypes[static_cast<int>(dtype)].isFloating; }

}  // namespace kiln::ir
